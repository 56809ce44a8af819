import { describe, expect, it } from 'vitest';
import { foreignSession, judgeSession, recordedPanes, type SessionClaim, type SessionFound } from '../../../src/core/plan/sessionOwner.js';

const PLAN = '/home/u/repo/plans/p';
const recorded = new Set(['%3/100.200']);

describe('judgeSession', () => {
  it.each<[string, SessionFound, SessionClaim]>([
    ['no session yet', { exists: false }, 'absent'],
    ['stamped with this plan', { exists: true, owner: PLAN, panes: ['%9/1.2'] }, 'ours'],
    ['stamped with another plan', { exists: true, owner: '/home/u/other/plans/p', panes: [] }, { foreign: '/home/u/other/plans/p' }],
    ['stamped with this plan spelled otherwise (the stamp is a real path)', { exists: true, owner: `${PLAN}/`, panes: [] }, { foreign: `${PLAN}/` }],
    ['no stamp, no agent pane', { exists: true, owner: null, panes: [] }, 'adopt'],
    ['no stamp, a pane the state records', { exists: true, owner: null, panes: ['%2/100.200', '%3/100.200'] }, 'adopt'],
    ['no stamp, no pane the state records', { exists: true, owner: null, panes: ['%3/999.200'] }, { foreign: null }],
  ])('%s', (_name, found, claim) => {
    expect(judgeSession(found, PLAN, recorded)).toEqual(claim);
  });
});

describe('recordedPanes', () => {
  it('takes each lane\'s pane, the one it hands off from and its successor\'s', () => {
    const lane = (paneId: string | null, from: string | null, successor: string | null) => ({ paneId, handoff: { from: { paneId: from }, successor: successor === null ? null : { paneId: successor } } });
    expect([...recordedPanes([lane('%1/a', '%0/a', '%2/a'), { paneId: null, handoff: null }, lane(null, null, null)])].sort()).toEqual(['%0/a', '%1/a', '%2/a']);
    expect(recordedPanes([]).size).toBe(0);
  });
});

describe('foreignSession', () => {
  it('names both plans, the session and socket, and the two ways apart', () => {
    const told = foreignSession({ session: 'swarm-e2e', socket: 'swarm', plan: PLAN, owner: '/x/plans/p' });
    expect(told.message).toBe(`tmux session swarm-e2e on socket swarm belongs to plan /x/plans/p, not to plan ${PLAN}: nothing of it is touched`);
    expect(told.hint).toContain('`name:`');
    expect(told.hint).toContain('SWARM_TMUX_SOCKET');
    expect(told.hint).not.toContain('kill-session');
  });

  it('for a session without a stamp, also how to end a leftover of this plan', () => {
    const told = foreignSession({ session: 'swarm-e2e', socket: 's1', plan: PLAN, owner: null });
    expect(told.message).toContain('belongs to a swarm of another plan');
    expect(told.hint).toContain('tmux -L s1 kill-session -t swarm-e2e');
  });
});

/** Which lanes resume their own session after their tmux server went, and which get a successor (SPEC 10.8). */
import { describe, expect, it } from 'vitest';
import { MAX_RESUMES, limitedNow, resumeChoice, toldSession, type ResumeFacts } from '../../../src/core/swarm/sessionResume.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';

const NOW = Date.parse('2026-12-06T03:00:00Z');
const facts = (over: Partial<ResumeFacts> = {}): ResumeFacts => ({
  kindResumes: true, sessionId: 'sess-1', account: 'a1', limited: {}, notReady: {}, resumes: 0, now: NOW, ...over,
});

describe('resumeChoice', () => {
  it.each<[string, Partial<ResumeFacts>, string | null]>([
    ['everything in place: resumed', {}, null],
    ['a kind that cannot resume (or a command: replacing the launch)', { kindResumes: false }, 'its kind cannot resume a session'],
    ['no session id told', { sessionId: null }, 'its agent never told its session id'],
    ['no account held', { account: null }, 'it holds no account'],
    ['its account limited until later', { limited: { a1: '2026-12-06T05:00:00Z' } }, 'its account a1 is limited until 2026-12-06T05:00:00Z'],
    ['its account limited with no reset known', { limited: { a1: null } }, 'its account a1 is limited (no reset known)'],
    ['its account limited, the reset passed: resumed', { limited: { a1: '2026-12-06T02:59:00Z' } }, null],
    ['another account limited: resumed', { limited: { o1: null } }, null],
    ['its account not ready (a login screen seen)', { notReady: { a1: 'a login screen' } }, 'its account a1 is not ready: a login screen'],
    ['resumed MAX_RESUMES times already (a crash loop)', { resumes: MAX_RESUMES }, `it was resumed ${MAX_RESUMES} times already`],
    ['resumed once before: resumed again', { resumes: 1 }, null],
  ])('%s', (_name, over, why) => {
    const choice = resumeChoice(facts(over));
    if (why === null) expect(choice).toEqual({ resume: true, sessionId: 'sess-1', account: 'a1' });
    else expect(choice).toEqual({ resume: false, why });
  });

  it('the first reason that holds is the one given (kind before session before account)', () => {
    expect(resumeChoice(facts({ kindResumes: false, sessionId: null, limited: { a1: null } }))).toEqual({ resume: false, why: 'its kind cannot resume a session' });
    expect(resumeChoice(facts({ sessionId: null, limited: { a1: null } }))).toEqual({ resume: false, why: 'its agent never told its session id' });
  });
});

describe('limitedNow', () => {
  it.each<[Record<string, string | null>, boolean]>([
    [{}, false],
    [{ a1: null }, true],
    [{ a1: '2026-12-06T03:00:01Z' }, true],
    [{ a1: '2026-12-06T03:00:00Z' }, false],
    [{ a1: 'not a time' }, true],
  ])('%j → %s', (limited, expected) => expect(limitedNow(limited, 'a1', NOW)).toBe(expected));
});

describe('toldSession', () => {
  const none = { cost_usd: null, tokens: { input: null, output: null, cache_read: null, cache_write: null } };
  const ledger = (session: string, generation = 2): Ledger => ({
    'lane-a': [{
      generation, account: 'a1', vendor: null, started: null, ended: null, end: null, turns: 0,
      processes: [{ session, last: { ...none, cost_usd: 1 }, kept: none }], context_pct_at_end: null, capacity_start: null, capacity_end: null,
    }],
  });

  it('its session start for this generation first', () => {
    expect(toldSession({ 'lane-a': { generation: 2, sessionId: 'from-hook', transcriptPath: null } }, ledger('from-usage'), 'lane-a', 2)).toBe('from-hook');
  });
  it('else the newest process its usage records named', () => {
    expect(toldSession({ 'lane-a': { generation: 1, sessionId: 'older', transcriptPath: null } }, ledger('from-usage'), 'lane-a', 2)).toBe('from-usage');
  });
  it('nothing told for this generation: null (another generation\'s session is never resumed)', () => {
    expect(toldSession({ 'lane-a': { generation: 1, sessionId: 'older', transcriptPath: null } }, ledger('g1-usage', 1), 'lane-a', 2)).toBeNull();
    expect(toldSession(undefined, undefined, 'lane-a', 2)).toBeNull();
    expect(toldSession({ 'lane-a': { generation: 2, sessionId: '  ', transcriptPath: null } }, undefined, 'lane-a', 2)).toBeNull();
  });
});

/**
 * Issue 9 §5 on real tmux: accounts checked before they are leased, and a successor that shows a
 * start screen (here Claude Code's folder-trust screen, from tests/fixtures/screens/claude/trust.txt)
 * gives way to the next account within seconds, not after `timeouts.accept`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

const TRUST = join(ROOT, 'tests', 'fixtures', 'screens', 'claude', 'trust.txt');

let t: TestSwarm | null = null;
let profiles: { dir: string; cleanup: () => void } | null = null;
afterEach(async () => {
  await t?.cleanup();
  profiles?.cleanup();
  t = null;
  profiles = null;
});

/** Claude profiles a1..: signed in unless listed in `signedOut`; trust is written once the repo exists. */
function claudeSwarm(ids: string[], signedOut: string[], lane: Record<string, string>): { s: TestSwarm; trust: () => void } {
  profiles = tempDir('swarm-profiles-');
  const root = profiles.dir;
  const accounts = ids.map((id) => {
    const profile = join(root, id);
    mkdirSync(profile);
    if (!signedOut.includes(id)) writeFileSync(join(profile, '.credentials.json'), '{}');
    return { id, vendor: 'anthropic', kind: 'claude', env: { CLAUDE_CONFIG_DIR: profile } };
  });
  const s = (t = makeSwarm({ accounts, lanes: [{ name: 'lane-a', account: 'a2', agent: lane }], timeouts: '{ accept: 60s, packet: 5s, stall: 10m, ask: 30s, release: 1s }' }));
  const trust = () => {
    for (const id of ids) writeFileSync(join(root, id, '.claude.json'), JSON.stringify({ projects: { [s.root]: { hasTrustDialogAccepted: true } } }));
  };
  return { s, trust };
}

const at = (e: Record<string, unknown>): number => Date.parse(String(e.ts));

describe('accounts checked before they are leased (tmux)', () => {
  it('a successor on a trust screen: ended, its lease freed, the next account within 5 s, which accepts; a signed-out account skipped', async () => {
    const { s, trust } = claudeSwarm(['a1', 'a2', 'a3', 'a4', 'a5'], ['a3'], { AGENT_G1: 'ready,handoff', AGENT_SCREEN_G2_a4: TRUST, AGENT_G2: 'done' });
    trust();
    const run = await s.up(['--timeout', '50s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    // Journaled at each pick that passes it over (the first pick, then the one after the trust screen).
    const skipped = s.events('account_skipped');
    expect(skipped.length).toBeGreaterThanOrEqual(1);
    for (const e of skipped) expect(e).toMatchObject({ account: 'a3', why: expect.stringContaining('signed out (no .credentials.json') });
    const notReady = s.events('account_not_ready');
    expect(notReady).toEqual([expect.objectContaining({ account: 'a4', screen: 'consent', text: expect.stringContaining('Quick safety check') })]);
    const leases = s.events('lease_acquired');
    expect(leases.map((e) => e.account)).toEqual(['a4', 'a5']);
    expect(at(leases[1]!) - at(notReady[0]!)).toBeLessThan(5000);
    expect(s.events('lease_released').map((e) => e.account)).toEqual(['a4', 'a2']);
    expect(s.events('packet_accepted')).toEqual([expect.objectContaining({ account: 'a5' })]);
    expect(s.events('escalation')).toEqual([]);
  }, 90_000);

  it('every account failing: blocked with one escalation listing each account and why, quoting the last pane', async () => {
    const { s, trust } = claudeSwarm(['a1', 'a2', 'a3', 'a4', 'a5'], ['a5'], { AGENT_G1: 'ready,handoff', AGENT_SCREEN_G2: TRUST });
    trust();
    const run = await s.up(['--timeout', '40s']);
    expect(run.exitCode).toBe(1);
    expect(run.all).toContain('blocked dependency');
    expect(s.events('account_not_ready').map((e) => e.account)).toEqual(['a3', 'a4']);
    const escalations = s.events('escalation');
    expect(escalations).toHaveLength(1);
    const what = String(escalations[0]!.what);
    expect(what).toContain('- a3: its successor showed a consent screen');
    expect(what).toContain('- a4: its successor showed a consent screen');
    expect(what).toContain('a5 not ready: signed out');
    expect(what).toContain("the lead's");
    expect(what).toMatch(/last lines of a4's pane:\n[\s\S]*Yes, I trust this folder/);
    // Neither ended successor counted toward the crash-loop rule, and the accept timeout never ran out.
    expect(s.events('lease_released').every((e) => !String(e.why).includes('no acceptance'))).toBe(true);
  }, 90_000);
});

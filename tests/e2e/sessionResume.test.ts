/**
 * Resume where it stopped (SPEC 10.8) on real tmux, with the fake `claude` and `codex` of
 * tests/fixtures/bin on PATH, launched by their kinds' own argv (no lane `command:`), recording their
 * argv: the tmux server is killed mid-run, `swarm up` again, and each lane's new pane runs
 * `--resume <its id>` / `resume <its id>` on the same account in the same generation, with no degraded
 * packet, and the plan is done; a lane whose account is limited gets a degraded packet and a successor.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { SwarmState } from '../../src/core/swarm/state.js';
import { ROOT } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

const BIN = join(ROOT, 'tests', 'fixtures', 'bin');
let t: TestSwarm | null = null;
afterEach(async () => {
  if (process.env.DUMP && t) {
    const log = join(t.root, 'fake.log');
    console.log(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8'));
    if (existsSync(log)) console.log(readFileSync(log, 'utf8'));
  }
  await t?.cleanup();
  t = null;
});

interface Started { agent: string; step: string; argv?: string[]; sessionId?: string; thread?: string; account?: string }

describe('resume where it stopped (tmux, fake claude and codex on PATH)', () => {
  it('the tmux server killed mid-run: claude and codex lanes resume their own sessions on their accounts; a limited account\'s lane gets a successor', async () => {
    const s = (t = makeSwarm({
      accounts: [
        { id: 'l1', vendor: 'local' },
        { id: 'c1', vendor: 'anthropic', kind: 'claude' },
        { id: 'c2', vendor: 'anthropic', kind: 'claude' },
        { id: 'c3', vendor: 'anthropic', kind: 'claude' },
        { id: 'c4', vendor: 'anthropic', kind: 'claude' },
        { id: 'o1', vendor: 'openai', kind: 'codex' },
      ],
      lanes: [
        { name: 'lane-c', account: 'c1', command: null },
        { name: 'lane-x', account: 'o1', command: null },
        { name: 'lane-l', account: 'c2', command: null },
      ],
      passEnv: ['FAKE_LOG', 'FAKE_CLAUDE_G1', 'FAKE_CLAUDE_RESUME_G1', 'FAKE_CLAUDE_G2', 'FAKE_CODEX_G1', 'FAKE_CODEX_RESUME_G1'],
      timeouts: '{ accept: 30s, packet: 5s, stall: 10m, ask: 30s, release: 1s }',
    }));
    const fakeLog = join(s.root, 'fake.log');
    const env = {
      PATH: [BIN, s.env.PATH].join(delimiter),
      FAKE_LOG: fakeLog,
      // The first agents tell their sessions (Claude's SessionStart; Codex's thread at its turn end) and work on.
      FAKE_CLAUDE_G1: 'hook:SessionStart,report:plan ready',
      FAKE_CODEX_G1: 'rollout:20,notify,report:plan ready',
      // Resumed, they check the checkout (as the pointer line says) and finish.
      FAKE_CLAUDE_RESUME_G1: 'hook:SessionStart,report:done',
      FAKE_CODEX_RESUME_G1: 'report:done',
      FAKE_CLAUDE_G2: 'accept,report:done',
    };
    const entries = (): Started[] => (existsSync(fakeLog) ? readFileSync(fakeLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Started) : []);
    const statePath = join(s.plan, '.swarm', 'state.json');
    const state = (): SwarmState => JSON.parse(readFileSync(statePath, 'utf8')) as SwarmState;

    const first = s.up(['--timeout', '60s'], env);
    // Every lane's session told and saved.
    await waitFor(() => (['lane-c', 'lane-x', 'lane-l'].every((lane) => state().sessions?.[lane]?.generation === 1)) || null, { timeout: 45_000, what: 'every lane\'s session told' });
    const told = state().sessions!;
    await execa('tmux', ['-L', s.socket, 'kill-server']);
    expect((await first).exitCode).toBe(1);
    expect(s.events('host_lost')).toHaveLength(1);
    // lane-l's account hit its usage limit, reset an hour from now.
    const saved = state();
    writeFileSync(statePath, JSON.stringify({ ...saved, limited: { ...saved.limited, c2: new Date(Date.now() + 3_600_000).toISOString() } }));

    const again = await s.up(['--timeout', '60s'], env);
    expect(again.all).toContain('plan done');
    expect(again.exitCode).toBe(0);

    const starts = entries().filter((e) => e.step === 'started');
    const of = (agent: string) => starts.filter((e) => e.agent === agent);
    // lane-c: Claude Code again with --resume <the same id>, no --session-id, on c1, generation 1.
    const [c1, c2] = of('lane-c-g1');
    expect(c1!.argv).toContain('--session-id');
    expect(c2!.argv!.slice(0, 2)).toEqual(['--resume', told['lane-c']!.sessionId]);
    expect(c2!.argv).not.toContain('--session-id');
    expect(c2!.sessionId).toBe(c1!.sessionId);
    expect([c1!.account, c2!.account]).toEqual(['c1', 'c1']);
    expect(c2!.argv!.at(-1)).toContain('resumed in your own session');
    // lane-x: Codex again with `resume <its thread>`, on o1.
    const [x1, x2] = of('lane-x-g1');
    expect(x1!.argv).not.toContain('resume');
    const at = x2!.argv!.indexOf('resume');
    expect(x2!.argv!.slice(at, at + 2)).toEqual(['resume', x1!.thread]);
    expect(told['lane-x']!.sessionId).toBe(x1!.thread);
    expect([x1!.account, x2!.account]).toEqual(['o1', 'o1']);
    // lane-l: its account limited, a successor g2 on another account, started afresh.
    expect(of('lane-l-g1')).toHaveLength(1);
    const [l2] = of('lane-l-g2');
    expect(l2!.argv).not.toContain('--resume');
    expect(['c3', 'c4']).toContain(l2!.account);

    expect(s.events('session_resumed').map((e) => [e.lane, e.generation, e.account, e.session_id]).sort()).toEqual([
      ['lane-c', 1, 'c1', told['lane-c']!.sessionId],
      ['lane-x', 1, 'o1', told['lane-x']!.sessionId],
    ]);
    expect(s.events('degraded_handoff').map((e) => e.lane)).toEqual(['lane-l']);
    expect(s.events('not_resumed').filter((e) => e.lane === 'lane-l')).toMatchObject([{ why: expect.stringContaining('its account c2 is limited until') }]);
    const end = state();
    expect(['lane-c', 'lane-x', 'lane-l'].map((lane) => [lane, end.lanes[lane]!.generation, end.lanes[lane]!.state])).toEqual([
      ['lane-c', 1, 'done'], ['lane-x', 1, 'done'], ['lane-l', 2, 'done'],
    ]);
  });
});

/**
 * Real kinds' structured signals end to end, on real tmux: lanes whose `command:` is the fake
 * `claude` / `codex` of tests/fixtures/bin on accounts of kind claude / codex (the command replaces
 * only the launch; the account's kind supplies screens, idle and probes). The fakes run
 * `swarm statusline` / `swarm hook …` with fixture JSON as the real CLIs would, and record every
 * byte they receive.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mailboxPath } from '../../src/core/plan/paths.js';
import { pointerLine } from '../../src/core/protocol/mailbox.js';
import { ROOT, tempDir } from '../helpers/swarm.js';
import { makeSwarm, type LaneOptions, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { spoolRecords } from '../helpers/swarm.js';
import { spoolSizes } from '../../src/adapters/spool.js';
import type { SwarmState } from '../../src/core/swarm/state.js';
import { generationFigures } from '../../src/core/ledger/ledger.js';
import { laneViews, spentView } from '../../src/runtime/views.js';

const BIN = join(ROOT, 'tests', 'fixtures', 'bin');
let t: TestSwarm | null = null;
let profiles: { dir: string; cleanup: () => void } | null = null;
afterEach(async () => {
  if (process.env.DUMP && t) {
    for (const f of ['journal.jsonl']) {
      const path = join(t.plan, f);
      if (existsSync(path)) console.log(f, readFileSync(path, 'utf8'));
    }
    if (profiles && existsSync(join(profiles.dir, 'fake.log'))) console.log(readFileSync(join(profiles.dir, 'fake.log'), 'utf8'));
    console.log('state', readFileSync(join(t.plan, '.swarm/state.json'), 'utf8').slice(0, 400));
  }
  await t?.cleanup();
  t = null;
  profiles?.cleanup();
  profiles = null;
});

interface FakeEntry { agent: string; step: string; decision?: unknown; stdout?: string }

function setup(kind: 'claude' | 'codex', steps: Record<string, string>, others: LaneOptions[] = []) {
  profiles = tempDir('swarm-profiles-');
  const dir = profiles.dir;
  const log = join(dir, 'fake.log');
  const envName = kind === 'claude' ? 'CLAUDE_CONFIG_DIR' : 'CODEX_HOME';
  const ids = kind === 'claude' ? ['c1', 'c2'] : ['o1', 'o2'];
  for (const id of ids) mkdirSync(join(dir, id), { recursive: true });
  const vars = Object.entries({ ...steps, FAKE_LOG: log }).map(([k, v]) => `${k}='${v}'`);
  const s = (t = makeSwarm({
    accounts: [
      { id: 'l1', vendor: 'local', kind: 'command' },
      ...ids.map((id) => ({ id, vendor: kind === 'claude' ? 'anthropic' : 'openai', kind, env: { [envName]: join(dir, id) } })),
    ],
    lanes: [{ name: 'lane-a', account: ids[0]!, command: [...vars, 'exec', process.execPath, join(BIN, kind)].join(' ') }, ...others],
    extra: `notify_command: "cat >> ${'$'}{NOTIFY_LOG}; echo >> ${'$'}{NOTIFY_LOG}"`,
  }));
  // Ready profiles (signed in, the checkouts trusted): the readiness check leases only those to a successor.
  const checkouts = [join(s.root, 'repo'), ...['lane-a', ...others.map((o) => o.name)].map((name) => join(s.root, `wt-${name}`))];
  for (const id of ids) {
    if (kind === 'claude') {
      writeFileSync(join(dir, id, '.credentials.json'), '{}');
      writeFileSync(join(dir, id, '.claude.json'), JSON.stringify({ projects: { [s.root]: { hasTrustDialogAccepted: true } } }));
    } else {
      writeFileSync(join(dir, id, 'auth.json'), '{}');
      writeFileSync(join(dir, id, 'config.toml'), checkouts.map((c) => `[projects.${JSON.stringify(c)}]\ntrust_level = "trusted"\n`).join(''));
    }
  }
  const entries = (): FakeEntry[] =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FakeEntry) : [];
  const received = (agent: string): string | null => {
    const path = `${log}.${agent}.stdin`;
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  };
  const stepDone = async (agent: string, name: string): Promise<FakeEntry[]> =>
    waitFor(() => {
      const found = entries().filter((e) => e.agent === agent && e.step === name);
      return found.length > 0 ? found : null;
    }, { timeout: 30_000, what: `${agent} did ${name}` });
  /** Every inbox record so far has been taken by the engine. */
  const inboxRead = () =>
    waitFor(() => {
      const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { spools?: Record<string, { offset: number }> };
      const spools = Object.entries(spoolSizes(s.plan, 1));
      return spools.length > 0 && spools.every(([spool, size]) => state.spools?.[spool]?.offset === size);
    }, { timeout: 15_000, what: 'the engine to read the whole inbox' });
  const inbox = () => spoolRecords(s.plan);
  return { s, entries, received, stepDone, inboxRead, inbox };
}

describe('claude lanes driven by their hooks (tmux, fake claude)', () => {
  it('a StopFailure rate_limit hook → a successor on the next account with a degraded packet', async () => {
    const f = setup('claude', {
      FAKE_CLAUDE_G1: 'hook:SessionStart,session:busy,screen:busy-statusline,statusline,hook:StopFailure',
      FAKE_CLAUDE_G2: 'accept,session:idle,screen:idle-statusline',
    });
    const run = f.s.up(['--timeout', '60s']);
    const accepted = await f.s.waitEvent('packet_accepted', 1, 45_000);
    expect(accepted[0]).toMatchObject({ lane: 'lane-a', generation: 2, account: 'c2' });
    expect(String(accepted[0]!.packet)).toMatch(/-degraded\.yaml$/);
    const degraded = f.s.events('degraded_handoff');
    expect(degraded).toHaveLength(1);
    expect(degraded[0]).toMatchObject({ lane: 'lane-a', reason: 'usage_limit' });
    const state = JSON.parse(readFileSync(join(f.s.plan, '.swarm', 'state.json'), 'utf8')) as { limited: Record<string, string | null> };
    expect(Object.keys(state.limited)).toContain('c1'); // until the reset of the account's last reading
    expect(f.received('lane-a-g1')).toBe('');
    run.kill('SIGINT');
    await run;
  });

  it('a PermissionRequest hook → blocked permission, one escalation with the later Notification, no byte received', async () => {
    // lane-b keeps the run going (a run whose every lane is blocked stops short) until the Notification is in.
    const f = setup('claude', {
      FAKE_CLAUDE_G1: 'hook:SessionStart,session:waiting,screen:permission-bash,hook:PermissionRequest,sleep:1500,hook:Notification',
    }, [{ name: 'lane-b', account: 'c2', agent: { AGENT_G1: 'ready,sleep6000,done' } }]);
    const run = f.s.up(['--timeout', '60s']);
    await f.s.waitEvent('escalation', 1, 30_000);
    // A message for the lane while its permission prompt shows: it must not be typed.
    expect((await f.s.run(['answer', 'lane-a', 'any news?', '--file', f.s.file])).code).toBe(0);
    await f.stepDone('lane-a-g1', 'hook:Notification');
    await f.inboxRead();
    expect((await run).exitCode).toBe(1);
    const escalations = f.s.events('escalation');
    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({ lane: 'lane-a', class: 'permission' });
    expect(f.s.events('developer_answer')).toHaveLength(1);
    expect(f.inbox().filter((r) => r.kind === 'hook' && r.meaning === 'permission')).toHaveLength(2);
    expect(f.received('lane-a-g1')).toBe('');
  });

  it('the Stop hook delivers the pointer line, once, with no key typed into the pane', async () => {
    const f = setup('claude', {
      FAKE_CLAUDE_G1: 'hook:SessionStart,session:busy,screen:busy-statusline,waitmail,sleep:500,hook:Stop,hook:Stop',
    });
    const run = f.s.up(['--timeout', '60s']);
    await f.stepDone('lane-a-g1', 'hook:SessionStart');
    await waitFor(() => {
      const state = JSON.parse(readFileSync(join(f.s.plan, '.swarm', 'state.json'), 'utf8')) as { sessions?: Record<string, unknown> };
      return state.sessions?.['lane-a'];
    }, { timeout: 15_000, what: "the lane's session recorded by the engine" });
    expect((await f.s.run(['answer', 'lane-a', 'rebase on main first', '--file', f.s.file])).code).toBe(0);
    const stops = await waitFor(() => {
      const found = f.entries().filter((e) => e.agent === 'lane-a-g1' && e.step === 'hook:Stop');
      return found.length === 2 ? found : null;
    }, { timeout: 30_000, what: 'two Stop hooks run' });
    expect(stops[0]!.decision).toEqual({ decision: 'block', reason: pointerLine(1, mailboxPath(f.s.plan, 'lane-a')) });
    expect(stops[1]!.decision).toBeNull(); // never again for the same message
    await f.inboxRead();
    expect(f.received('lane-a-g1')).toBe('');
    run.kill('SIGINT');
    await run;
  });
});

describe('the ledger (SPEC 10.7) from a fake Claude Code whose status line carries cost and tokens (tmux)', () => {
  it('each generation\'s cost is the last its process told; a kill -9 of swarm up loses none of it; status, report and dashboard agree to the cent', async () => {
    const go = join(tempDir('swarm-go-').dir, 'go');
    const at = (usd: string) => `statusline:statusline-after-reply.json:${usd}`;
    const f = setup('claude', {
      FAKE_CLAUDE_G1: `hook:SessionStart,session:busy,screen:busy-statusline,${at('0.10')},${at('0.25')},${at('0.40')},hook:Stop,waitfile:${go},hook:StopFailure`,
      FAKE_CLAUDE_G2: `accept,session:idle,screen:idle-statusline,${at('0.3333')},hook:Stop,report:done`,
    });
    const state = (): SwarmState => JSON.parse(readFileSync(join(f.s.plan, '.swarm', 'state.json'), 'utf8')) as SwarmState;
    const first = f.s.up(['--timeout', '90s']);
    await f.stepDone('lane-a-g1', 'hook:Stop');
    await f.inboxRead();
    // Killed with g1's usage told (in its usage file) but, most likely, not yet looked at or saved.
    first.kill('SIGKILL');
    await first.catch(() => undefined);
    const again = f.s.up(['--timeout', '90s']);
    await f.s.waitEvent('readopted', 1, 30_000);
    writeFileSync(go, '');
    await f.s.waitEvent('lane_result', 1, 45_000);
    // g2's last figure is folded at a look (every 15 s) or, at the latest, as swarm up lets go.
    await waitFor(() => f.s.events('generation_spent').some((e) => e.generation === 2 && e.cost_usd === 0.3333) || null, { timeout: 40_000, what: "g2's spend journaled" });
    again.kill('SIGINT');
    await again.catch(() => undefined);
    // g1 is $0.40 (its last reading, read again after the kill and counted once), ended lost (its handoff degraded); g2 done.
    const ledger = state().ledger!['lane-a']!;
    expect(ledger.map((g) => [g.generation, g.account, generationFigures(g).cost_usd, g.end, g.turns])).toEqual([[1, 'c1', 0.4, 'lost', 1], [2, 'c2', 0.3333, 'done', 1]]);
    expect(generationFigures(ledger[0]!).tokens).toMatchObject({ input: 40_000, output: 400 });
    const last = new Map(f.s.events('generation_spent').map((e) => [e.generation, e]));
    expect([...last.values()].map((e) => [e.generation, e.cost_usd, e.end, e.session_id !== null])).toEqual([[1, 0.4, 'lost', true], [2, 0.3333, 'done', true]]);
    // status --json and the table, the report (JSON and text), the dashboard's views: the same cents.
    const status = JSON.parse((await f.s.run(['status', f.s.file, '--json'])).stdout) as { lanes: { name: string; generations: { generation: number; cost_usd: number | null }[] }[] };
    expect(status.lanes.find((l) => l.name === 'lane-a')!.generations.map((g) => [g.generation, g.cost_usd])).toEqual([[1, 0.4], [2, 0.3333]]);
    const table = (await f.s.run(['status', f.s.file])).stdout;
    expect(table.split('\n')[0]).toMatch(/ — spent \$0\.73$/);
    expect(table).toMatch(/^lane-a .* \$0\.73 /m);
    const report = JSON.parse((await f.s.run(['report', f.s.file, '--json'])).stdout) as { spend: { total: { cost_usd: number }; generations: { generation: number; cost_usd: number; end: string }[] }; summary: { spent_usd: number } };
    expect(report.spend.total.cost_usd).toBe(0.7333);
    expect(report.summary.spent_usd).toBe(0.7333);
    expect(report.spend.generations.map((g) => [g.generation, g.cost_usd, g.end])).toEqual([[1, 0.4, 'lost'], [2, 0.3333, 'done']]);
    expect((await f.s.run(['report', f.s.file])).stdout).toContain('\nspend: $0.73 over 2 generations\n');
    const source = { state: state() as never, config: { accounts: [{ id: 'c1', vendor: 'anthropic' }, { id: 'c2', vendor: 'anthropic' }] }, taskOf: () => '' };
    expect(spentView(source)).toBe('$0.73');
    expect(laneViews(source).find((v) => v.lane.name === 'lane-a')!.spend).toBe('$0.73');
  });
});

describe('codex lanes driven by their rollout and notify (tmux, fake codex)', () => {
  it('a rollout at 93% used → the lane is told to hand off; the title thread\'s notice is ignored; nothing typed while busy', async () => {
    const f = setup('codex', { FAKE_CODEX_G1: 'screen:busy,rollout:93,notify:title,notify' });
    const run = f.s.up(['--timeout', '60s']);
    const mailbox = mailboxPath(f.s.plan, 'lane-a');
    await waitFor(() => existsSync(mailbox) && readFileSync(mailbox, 'utf8').includes('swarm: hand off now'), {
      timeout: 30_000, what: 'the handoff notice in the lane\'s mailbox',
    });
    await f.stepDone('lane-a-g1', 'notify');
    await f.inboxRead();
    const capacity = f.inbox().filter((r) => r.kind === 'capacity' && r.from === 'lane-a');
    expect(capacity.at(-1)).toMatchObject({ state: 'critical', remaining_pct: 7, decision: 'handoff_now', source: 'probe' });
    expect(f.inbox().filter((r) => r.kind === 'hook' && r.meaning === 'turn_end')).toHaveLength(1);
    expect(f.received('lane-a-g1')).toBe('');
    run.kill('SIGINT');
    await run;
  });
  it('a turn end heard before swarm up was killed still lets the pointer line be typed after the restart', async () => {
    // Codex is typed only after its own turn-end notice since the last line: that notice must outlive the engine.
    const f = setup('codex', { FAKE_CODEX_G1: 'screen:idle,notify' });
    const first = f.s.up(['--timeout', '60s']);
    await f.stepDone('lane-a-g1', 'notify');
    await f.inboxRead();
    first.kill('SIGKILL');
    await first.catch(() => undefined);
    const again = f.s.up(['--timeout', '60s']);
    await f.s.waitEvent('readopted', 1, 30_000);
    expect((await f.s.run(['answer', 'lane-a', 'rebase on main first', '--file', f.s.file])).code).toBe(0);
    const line = pointerLine(1, mailboxPath(f.s.plan, 'lane-a'));
    await waitFor(() => (f.received('lane-a-g1') ?? '').includes(line), { timeout: 30_000, what: 'the pointer line typed into the idle Codex lane' });
    again.kill('SIGINT');
    await again.catch(() => undefined);
  });
});

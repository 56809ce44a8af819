/**
 * The whole engine in-process (issue 11 §3): startSwarm with a fake pane host (tests/helpers/fakeHost.ts)
 * whose agents run swarm's own commands; the plan folder, git, leases and journal are real files. Time
 * is a hand clock (tests/helpers/handClock.ts): the timeouts are minutes long, and pass when a
 * script advances the clock, never by waiting.
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { updateLeadRecord } from '../../src/adapters/leadStore.js';
import { readPlanLeases } from '../../src/adapters/leaseFiles.js';
import { startSwarm, type Outcome } from '../../src/runtime/swarm.js';
import type { SwarmStore } from '../../src/ui/store.js';
import { TORN_AFTER_MS } from '../../src/core/protocol/inbox.js';
import { agentOf, FakeHost, type Action, type Scripts } from '../helpers/fakeHost.js';
import { lead } from '../../src/commands/lead.js';
import { HandClock } from '../helpers/handClock.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type LaneOptions, type SwarmOptions, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
let clock = new HandClock();
/** The run's pane host, for scripts that act on panes (print, draw a screen, end their own). */
let fake: FakeHost | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const MIN = 60_000;
/** Each a different length, so a pending deadline tells which it is. */
const TIMEOUTS = '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }';
const ACCEPT = 4 * MIN;
const PACKET = 3 * MIN;
const ASK = 5 * MIN;
const RELEASE = 7 * MIN;

/** Once `ready()` holds and a deadline `ms` from now is set, move the clock past it. */
const advanceWhen = (what: string, ready: () => boolean, ms: number): Action => async () => {
  await waitFor(() => ready() && clock.pending().includes(ms), { what });
  clock.advance(ms);
};
/** Whoever leads, once every lane is done: the release deadline passes (until `over()`). */
async function releaseWhenDue(over: () => boolean): Promise<void> {
  while (!over()) {
    if (clock.pending().includes(RELEASE) && t!.events('all_lanes_done').length > 0) return clock.advance(RELEASE);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function run(lanes: LaneOptions[], scripts: Scripts, extra: { succession?: string[] | null; timeouts?: string; extra?: string; kind?: string; accounts?: SwarmOptions['accounts'] } = {}) {
  const s = (t = makeSwarm({
    lanes, timeouts: extra.timeouts ?? TIMEOUTS, ...(extra.succession !== undefined ? { succession: extra.succession } : {}), ...(extra.extra ? { extra: extra.extra } : {}),
    ...(extra.accounts ? { accounts: extra.accounts } : {}), ...(extra.kind ? { kind: extra.kind } : {}),
  }));
  const host = (fake = new FakeHost(scripts));
  clock = new HandClock();
  const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
  const started = Date.now();
  let store: SwarmStore | null = null;
  const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host, clock, onStore: (made) => { store = made; } });
  let over = false;
  const releaser = releaseWhenDue(() => over);
  const outcome: Outcome = await swarm.finished;
  over = true;
  await releaser;
  await swarm.detach();
  await Promise.all([...host.running]);
  // Every agent's script ran to its end (a command it ran that failed is in its pane's output).
  expect([...host.panes.values()].flatMap((p) => p.out.filter((l) => l.startsWith('agent failed')))).toEqual([]);
  return { s, host, outcome, ms: Date.now() - started, view: () => store!.getState() };
}

describe('the engine in-process, with a fake pane host', () => {
  it('the view gets its store before any pane starts, so a dashboard draws at once, not after every lane is up', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }, { name: 'lane-b' }], timeouts: TIMEOUTS }));
    const host = new FakeHost({});
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    let panesWhenStored: number | null = null;
    const swarm = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: 15_000, host, onStore: () => { panesWhenStored = host.panes.size; } });
    await swarm.finished;
    await swarm.detach();
    await Promise.all([...host.running]);
    expect(panesWhenStored).toBe(0);
    expect(host.panes.size).toBeGreaterThanOrEqual(3);
  });

  it('plan done: the lane reports done, the lead is told once, the release deadline releases the plan', async () => {
    const { s, outcome, view } = await run([{ name: 'lane-a' }], {});
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    // The dashboard's header says what `swarm status` says of a released lead.
    expect(view().lead).toMatchObject({ name: 'lead', epoch: 1, state: 'released' });
    expect(s.events('all_lanes_done')).toHaveLength(1);
    expect(s.events('lead_released')).toMatchObject([{ by: 'swarm', why: 'timeouts.release passed' }]);
    expect(s.events('plan_done')).toHaveLength(1);
    expect(Date.parse(String(s.events('plan_done')[0]!.ts)) - Date.parse(String(s.events('all_lanes_done')[0]!.ts))).toBe(RELEASE);
  });

  it('accept timeout: a successor that never accepts is ended after timeouts.accept; the next account\'s accepts', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], {
      'lane-a g1': ['ready', 'handoff', advanceWhen('the first successor', () => t!.events('successor_spawned').length > 0, ACCEPT)],
      'lane-a g2 #1': ['noaccept'],
      'lane-a g2': ['done'],
    });
    expect(outcome.code).toBe(0);
    expect(s.events('successor_spawned')).toHaveLength(2);
    expect(JSON.stringify(s.journal())).toContain('no acceptance within 4 min');
    expect(s.events('packet_accepted')).toHaveLength(1);
  });
  it('succession: a handoff packet, a successor on another account accepts, the spent pane closes, one live agent per lane', async () => {
    const { s, host, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', 'handoff'], 'lane-a g2': ['done'] });
    expect(outcome.code).toBe(0);
    expect(s.events('packet_accepted')).toHaveLength(1);
    expect(s.events('pane_closed')).toHaveLength(1);
    expect(host.live().filter((p) => p.startsWith('lane-a'))).toHaveLength(1);
    expect(host.live().find((p) => p.startsWith('lane-a'))).toMatch(/^lane-a g2 @/);
  });

  it('bad packet: a 0644 packet is rejected with the reason, nothing spawned; the rewritten one is accepted', async () => {
    const rejected: Action = async () => {
      await waitFor(() => t!.events('packet_rejected').length > 0, { what: 'packet_rejected' });
    };
    const { s, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', 'badpacket', rejected, 'handoff'], 'lane-a g2': ['done'] });
    expect(outcome.code).toBe(0);
    expect(JSON.stringify(s.events('packet_rejected'))).toContain('0644');
    expect(s.events('successor_spawned')).toHaveLength(1);
    expect(s.events('packet_accepted')).toHaveLength(1);
  });

  it('a rejected packet and nothing after it: timeouts.packet after the report, a degraded packet naming it and its reasons, a successor finishes', async () => {
    const rejected = () => t!.events('packet_rejected').length > 0;
    const { s, outcome } = await run([{ name: 'lane-a' }], {
      'lane-a g1': ['ready', 'badpacket', advanceWhen('the rejected packet\'s deadline', rejected, PACKET)],
      'lane-a g2': ['done'],
    });
    expect(outcome.code).toBe(0);
    const [reported] = s.events('handoff_reported');
    const [degraded] = s.events('degraded_handoff');
    expect(degraded).toMatchObject({ lane: 'lane-a', reason: 'capacity_critical', rejected: reported!.packet });
    expect(JSON.stringify(degraded!.reasons)).toContain('0644');
    expect(Date.parse(String(degraded!.ts)) - Date.parse(String(reported!.ts))).toBe(PACKET);
    const accepted = s.events('packet_accepted');
    expect(accepted).toHaveLength(1);
    expect(String(accepted[0]!.packet)).toMatch(/-degraded\.yaml$/);
    const scene = readFileSync(String(accepted[0]!.packet), 'utf8');
    expect(scene).toContain(`The lane reported the packet analysis_results/handoff/${basename(String(reported!.packet))} (in the plan folder); swarm rejected it`);
    expect(scene).toContain('0644');
  });

  it('the agent exits before done: lane_lost, a degraded packet, a successor finishes', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', 'exit'], 'lane-a g2': ['done'] });
    expect(outcome.code).toBe(0);
    expect(s.events('packet_accepted')).toHaveLength(1);
    expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done' }]);
  });

  describe('a torn spool line (a write cut short)', () => {
    const fragment = '{"kind":"message","ts":"2026-01-01T00:00:00.000Z","from":"lane-a","role":"la';
    const inbox = () => join(t!.plan, '.swarm', 'spool', 'r1', 'lane-a-g1', 'records.jsonl');
    /** The torn bytes, appended as a writer cut short leaves them; their offset is kept. */
    const tear = (at: { offset: number }): Action => async () => {
      at.offset = statSync(inbox()).size;
      appendFileSync(inbox(), fragment);
    };

    it('a last line without its newline is read again until its deadline on the swarm clock, then torn: journaled with its offset, the next report read', async () => {
      const at = { offset: -1 };
      let beforeDeadline: unknown[] | null = null;
      const { s, outcome } = await run([{ name: 'lane-a' }], {
        'lane-a g1': ['ready', tear(at), async () => {
          await waitFor(() => clock.pending().includes(TORN_AFTER_MS), { what: 'the torn line\'s deadline armed' });
          beforeDeadline = t!.events('inbox_torn');
          clock.advance(TORN_AFTER_MS);
          await waitFor(() => t!.events('inbox_torn').length > 0, { what: 'inbox_torn' });
        }, 'done'],
      });
      expect(outcome.code).toBe(0);
      expect(beforeDeadline).toEqual([]);
      expect(s.events('inbox_torn')).toMatchObject([{ spool: 'r1/lane-a-g1', offset: at.offset, bytes: fragment.length }]);
      expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done' }]);
    });

    it('a torn line that another record follows is torn at once, skipped alone; the record is read', async () => {
      const at = { offset: -1 };
      const { s, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', tear(at), 'done'] });
      expect(outcome.code).toBe(0);
      expect(s.events('inbox_torn')).toMatchObject([{ spool: 'r1/lane-a-g1', offset: at.offset, bytes: fragment.length }]);
      expect(s.events('lane_result')).toMatchObject([{ lane: 'lane-a', result: 'done' }]);
    });
  });

  it('an agent\'s last words: its exit journaled with status and last lines; the escalation that follows quotes them and says why each account is excluded', async () => {
    const offline: Action = async (pane) => {
      pane.screen = '\x1b[31mUnable to connect to Anthropic services\x1b[0m  \r\nFailed to connect to api.anthropic.com: ENOTFOUND\n\n\n\n';
      fake!.exit(pane.info.paneId, 1);
    };
    const accounts = [
      { id: 'a1', vendor: 'anthropic', kind: 'claude' }, { id: 'a2', vendor: 'anthropic', kind: 'claude' },
      { id: 'a3', vendor: 'anthropic', kind: 'claude', env: { CLAUDE_CONFIG_DIR: '/nonexistent/profile-a3' } },
    ];
    const { s, outcome } = await run([{ name: 'lane-a', account: 'a2' }], { 'lane-a g1': ['ready', offline] }, { accounts });
    expect(outcome.code).toBe(1);
    const lines = ['Unable to connect to Anthropic services', 'Failed to connect to api.anthropic.com: ENOTFOUND'];
    expect(s.events('agent_exited')).toMatchObject([{ lane: 'lane-a', status: 1, last_lines: lines }]);
    const [escalation] = s.events('escalation');
    const what = String(escalation!.what);
    expect(what).toContain(`the agent of g1 on a2 exited (status 1); last lines of its pane:\n${lines.join('\n')}`);
    expect(what).toContain("a1 the lead's, a2 excluded (the account lane-a g1 leaves), a3 not ready: ");
  });

  it('a done lane whose agent then exits: no successor, its lease released (never a lease held by nobody)', async () => {
    let leasedAfterExit: string[] | null = null;
    const { s, outcome } = await run([{ name: 'lane-a' }, { name: 'lane-b' }], {
      'lane-a g1': ['ready', 'done', async () => { await waitFor(() => t!.events('lane_result').some((e) => e.lane === 'lane-a'), { what: 'lane-a done' }); }, 'exit'],
      'lane-b g1': ['ready', async () => {
        await waitFor(() => t!.events('lease_released').some((e) => e.lane === 'lane-a'), { what: 'lane-a\'s lease released' });
        leasedAfterExit = readPlanLeases(t!.plan, t!.env).map((l) => l.lane);
      }, 'done'],
    });
    expect(outcome.code).toBe(0);
    expect(s.events('agent_exited')).toMatchObject([{ lane: 'lane-a', after: 'done' }]);
    expect(leasedAfterExit).not.toContain('lane-a');
    expect(leasedAfterExit).toContain('lane-b');
    expect(s.events('successor_spawned')).toHaveLength(0);
  });

  it('stopped short: a lane blocked on a decision and nothing else can move → exit 1 with why', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', 'blocked decision: may I push to main?'] });
    expect(outcome.code).toBe(1);
    expect(outcome.why).toContain('lane-a blocked decision');
    expect(s.events('stopped_short')).toHaveLength(1);
    expect(s.events('plan_done')).toHaveLength(0);
  });

  it('lane add: the lead adds a lane while lane-a works; the plan is done only once both are', async () => {
    const waitAdded: Action = async () => { await waitFor(() => t!.events('lane_added').length > 0, { what: 'lane_added' }); };
    const { s, host, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', async () => { await waitFor(() => t!.events('lane_started').length >= 2, { what: 'lane-a started' }); }, 'lane add lane-z REPO'],
      'lane-a g1': ['ready', waitAdded, 'done'],
    });
    expect(outcome.code).toBe(0);
    expect(s.events('lane_added')).toMatchObject([{ lane: 'lane-z', by: 'lead' }]);
    expect(s.events('lane_result').map((e) => e.lane).sort()).toEqual(['lane-a', 'lane-z']);
    expect(s.events('all_lanes_done')).toHaveLength(1);
    expect(host.live().some((p) => p.startsWith('lane-z g1'))).toBe(true);
  });

  it('takeover after two ask timeouts: the lead is taken over at epoch + 1 by the succession entry', async () => {
    const { s, host, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready'],
      'lane-a g1': [
        'ready',
        'ask', advanceWhen('the first ask', () => true, ASK),
        'ask', advanceWhen('the second ask', () => t!.events('ask_timeout').length === 1, ASK),
        async () => { await waitFor(() => t!.events('lead_unreachable').length > 0, { what: 'lead_unreachable' }); }, 'done',
      ],
    }, { succession: ['lead-b'] });
    expect(outcome.code).toBe(0);
    expect(s.events('ask_timeout')).toHaveLength(2);
    expect(s.events('lead_unreachable')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-b', epoch: 2 });
    expect(host.live().some((p) => p.startsWith('lead-b g2'))).toBe(true);
  });

  it('usage limit: the agent reports a hard limit → a degraded packet, a successor on another account, the spent account limited', async () => {
    const { s, host, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', 'usage limit'] });
    expect(outcome.code).toBe(0);
    const accepted = s.events('packet_accepted');
    expect(accepted).toHaveLength(1);
    expect(String(accepted[0]!.packet)).toMatch(/-degraded\.yaml$/);
    const spent = s.events('lane_started').find((e) => e.lane === 'lane-a')!.account as string;
    expect(accepted[0]!.account).not.toBe(spent);
    const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8')) as { limited: Record<string, string | null> };
    expect(Object.keys(state.limited)).toEqual([spent]);
    expect(host.live().filter((p) => p.startsWith('lane-a'))).toEqual([`lane-a g2 @${String(accepted[0]!.account)}`]);
  });

  it('the lead\'s pane dies: taken over at epoch + 1 by the succession entry, which leads to the end', async () => {
    const { s, host, outcome, view } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', 'exit'],
      'lane-a g1': ['ready', async () => { await waitFor(() => t!.events('lead_accepted').length > 0, { what: 'lead_accepted' }); }, 'done'],
    }, { succession: ['lead-b'] });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('lead_accepted')).toMatchObject([{ takeover: true }]);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-b', epoch: 2, released: true });
    expect(host.live().filter((p) => p.startsWith('lead'))).toEqual([expect.stringMatching(/^lead-b g2 @/)]);
    expect(view().lead).toMatchObject({ name: 'lead-b', epoch: 2, state: 'released' });
  });

  it('lead handover: epoch + 1, the successor lead accepts, every lane told once', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', 'handover lead-b'],
      'lane-a g1': ['ready', async () => { await waitFor(() => t!.events('lead_notice').length > 0, { what: 'lead_notice' }); }, 'done'],
    }, { succession: ['lead-b'] });
    expect(outcome.code).toBe(0);
    expect(s.events('lead_notice')).toMatchObject([{ lane: 'lead-b', epoch: 2 }]);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-b', epoch: 2, released: true });
  });
});

describe('every generation is watched as the first (in-process)', () => {
  const STALL = '{ accept: 4m, packet: 3m, stall: 20s, ask: 5m, release: 7m }';
  const DIALOG = '╭─────────╮\n│ Bash command\n│ Do you want to proceed?\n│ ❯ 1. Yes\n│   2. No\n╰─────────╯';
  /** Let the engine take what it was told (its queue runs on real promises; its deadlines on the hand clock). */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
  /** `agent` (`lane-a g2`, `lead-b g2`) prints before it accepts, so the watch knows its pane as a successor's first. */
  const printsBeforeAccepting = (agent: string): Action => async () => {
    fake!.beforeAccept.set(`${agent} #1`, async (pane) => {
      fake!.print(pane.info.paneId, 'starting…');
      await settled();
    });
  };
  /** Until the engine took the acceptance of `lane`'s successor. */
  const accepted = (lane: string): Action => async () => {
    await waitFor(() => t!.events('packet_accepted').some((e) => e.lane === lane), { what: `${lane}'s successor accepted` });
  };
  /** When each agent's ticks ended (its pane silent from then on, and rightly nudged after a stall period). */
  const ticked = new Map<string, number>();
  /** A line every 5 s for a minute (three stall periods of 20 s), in this pane and every other live one (the others keep working meanwhile). */
  const ticks: Action = async (pane) => {
    for (let i = 0; i < 12; i += 1) {
      for (const p of fake!.panes.values()) fake!.print(p.info.paneId, `working… ${i}`);
      await settled();
      clock.advance(5_000);
      await settled();
    }
    ticked.set(`${pane.spec.lane} g${pane.spec.generation}`, clock.now());
  };
  /** Nudges of generation 2 while its agent was still printing. */
  const nudgedWhilePrinting = (s: TestSwarm, agent: string) =>
    s.events('stall_nudge').filter((e) => e.generation === 2 && Date.parse(String(e.ts)) <= ticked.get(agent)!);
  /** A permission dialog drawn: the agent waits there (its lane is then the only one, blocked: the run stops short). */
  const dialog: Action = async (pane) => {
    fake!.print(pane.info.paneId, `⠋ Working…\n${DIALOG}`);
    await waitFor(async () => {
      clock.advance(200);
      await settled();
      return t!.events('escalation').some((e) => e.lane === 'lane-a');
    }, { what: 'the escalation' });
  };
  const laneDone: Action = async () => { await waitFor(() => t!.events('lane_result').length > 0, { what: 'lane-a done' }); };

  it('a successor that prints every 5 s under a 20 s stall timeout is never nudged nor stalled', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', laneDone], 'lane-a g1': ['ready', printsBeforeAccepting('lane-a g2'), 'handoff'], 'lane-a g2': [accepted('lane-a'), ticks, 'done'],
    }, { timeouts: STALL });
    expect(s.events('packet_accepted')).toHaveLength(1);
    expect(nudgedWhilePrinting(s, 'lane-a g2')).toEqual([]);
    expect(s.events('escalation').filter((e) => e.lane === 'lane-a')).toEqual([]);
    expect(outcome.code).toBe(0);
  });

  it('the lead\'s successor that prints every 5 s under a 20 s stall timeout is never nudged nor stalled', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', printsBeforeAccepting('lead-b g2'), 'handover lead-b'],
      'lead-b g2': [accepted('lead'), ticks],
      'lane-a g1': ['ready', async () => { await waitFor(() => ticked.has('lead-b g2'), { what: 'lead-b\'s ticks' }); }, 'done'],
    }, { timeouts: STALL, succession: ['lead-b'] });
    expect(s.events('lead_accepted')).toHaveLength(1);
    expect(ticked.has('lead-b g2')).toBe(true);
    expect(nudgedWhilePrinting(s, 'lead-b g2')).toEqual([]);
    expect(outcome.code).toBe(0);
  });

  it.each([
    ['once it has accepted', [accepted('lane-a'), dialog]],
    ['as it starts, before swarm took its acceptance', [dialog]],
  ] as [string, Action[]][])('a permission dialog drawn in a successor\'s pane %s blocks the lane with one escalation', async (_, g2) => {
    const { s, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready'], 'lane-a g1': ['ready', printsBeforeAccepting('lane-a g2'), 'handoff'], 'lane-a g2': g2,
    }, { kind: 'claude' });
    expect(s.events('escalation')).toMatchObject([{ lane: 'lane-a', generation: 2, class: 'permission' }]);
    expect(outcome).toMatchObject({ code: 1, why: expect.stringContaining('lane-a blocked permission') });
  });

  it('a lane\'s pane closed from tmux (kill-pane): lane_lost, a degraded packet, a successor finishes', async () => {
    const { s, outcome } = await run([{ name: 'lane-a' }], { 'lane-a g1': ['ready', 'vanish'], 'lane-a g2': ['done'] });
    expect(s.events('degraded_handoff')).toMatchObject([{ lane: 'lane-a', reason: 'lane_lost', from_generation: 1 }]);
    expect(s.events('packet_accepted')).toHaveLength(1);
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
  });

  it('the lead\'s pane closed, no succession: in swarm.yaml: taken over by the default successor lead-b (SPEC 10.5)', async () => {
    const { s, host, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', 'vanish'],
      'lane-a g1': ['ready', async () => { await waitFor(() => t!.events('lead_accepted').length > 0, { what: 'lead_accepted' }); }, 'done'],
    }, { succession: null });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('lead_takeover')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-b', epoch: 2, released: true });
    expect(host.live().filter((p) => p.startsWith('lead'))).toEqual([expect.stringMatching(/^lead-b g2 @/)]);
  });

  /** As `swarm lead handover <to>` does, its record never read: lead.json moved to `to` at `epoch`. */
  const recordMoved = (to: string, epoch: number): Action => async () => {
    updateLeadRecord(t!.plan, (current) => (current === null ? { ok: false, code: 'no_record', message: 'none' } : { ok: true, record: { ...current, lead: to, epoch, revision: current.revision + 1 } }));
  };

  it.each([
    ['on a tie the earlier succession entry wins: swarm\'s lead-b, at an epoch above the other claim', 2, 'lead-b', 3],
    ['a claim at a higher epoch stands: the successor goes by its name', 3, 'lead-c', 3],
  ])('a handover in lead.json meets swarm\'s takeover of the lost lead (epochs.winner): %s', async (_name, otherEpoch, leads, epoch) => {
    const { s, host, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', recordMoved('lead-c', otherEpoch), 'vanish'],
      'lane-a g1': ['ready', async () => { await waitFor(() => t!.events('lead_accepted').length > 0, { what: 'lead_accepted' }); }, 'done'],
    }, { succession: ['lead-b', 'lead-c'] });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('lead_claims_met')).toEqual([expect.objectContaining({ lane: leads, epoch, claims: ['lead-b@2 (swarm\'s takeover)', `lead-c@${otherEpoch} (in lead.json)`] })]);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: leads, epoch, released: true });
    expect(host.live().filter((p) => p.startsWith('lead'))).toEqual([expect.stringMatching(new RegExp(`^${leads} g2 @`))]);
  });

  describe('a lane promoted in place (SPEC 10.5)', () => {
    const seen = (event: string, lane?: string): Action => async () => {
      await waitFor(() => t!.events(event).some((e) => lane === undefined || e.lane === lane), { what: event });
    };
    /** A lead command from this pane, refused (exit 3, `fenced`): lane-a's successor goes by the lane's name, not the lead's. */
    const refused = (action: string): Action => async (pane) => {
      const io = { args: [action], cwd: pane.spec.cwd, env: pane.spec.env, stdout: () => undefined, stderr: () => undefined, agent: agentOf(pane.spec) };
      await expect(lead(io)).rejects.toThrow(/not the lead of plan p \(lead is lead-lane-a@2\)/);
    };
    it('the lead\'s pane closed, succession: [lane-a]: lane-a hands off its lane work, then leads from its own pane at epoch 2', async () => {
      const { s, host, outcome } = await run([{ name: 'lane-a' }], {
        'lead g1': ['ready', 'vanish'],
        'lane-a g1': ['ready', seen('lane_promoted'), 'handoff', seen('pane_adopted'), seen('all_lanes_done'), 'release'],
        'lane-a g2': ['ready', seen('pane_adopted'), refused('release'), 'done'],
      }, { succession: ['lane-a'], timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 9m }' }); // the release deadline never passes: the lead releases
      expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
      // One lead, one epoch raised once, one agent per lane: lane-a's g1 pane is the lead's g2 now.
      expect(s.events('lane_promoted')).toMatchObject([{ lane: 'lane-a', generation: 1, as: 'lead-lane-a', epoch: 2 }]);
      expect(s.events('pane_adopted')).toMatchObject([{ lane: 'lead-lane-a', generation: 2, from: 'lane-a g1', epoch: 2 }]);
      expect(s.events('lead_accepted')).toMatchObject([{ generation: 2, promoted: 'lane-a', promoted_generation: 1 }]);
      expect(s.events('lead_notice')).toMatchObject([{ lane: 'lead-lane-a', epoch: 2 }]);
      expect(s.events('successor_spawned').filter((e) => e.lane === 'lead')).toEqual([]);
      expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-lane-a', epoch: 2, released: true, promoted_from: { lane: 'lane-a', generation: 1 } });
      // The promoted agent released the plan as lead; lane-a's successor (same lane name) was fenced.
      expect(s.events('lead_released')).toMatchObject([{ lane: 'lead-lane-a', by: 'lead-lane-a' }]);
      expect(s.events('fenced').filter((e) => e.command === 'lead release')).toMatchObject([{ lane: 'lane-a' }]);
      const panes = [...host.panes.values()];
      expect(panes.find((p) => p.info.lane === 'lead-lane-a')?.info).toMatchObject({ generation: 2, dead: false });
      expect(host.live()).toEqual([expect.stringMatching(/^lane-a g2 @/), expect.stringMatching(/^lead-lane-a g2 @/)]);
      expect(host.mostLive.get('lane-a')).toBe(2);
    });

    it('a handover to lane-a promotes it the same way: one epoch raised (the handover\'s), the old lead told to stand down and its pane kept for timeouts.release', async () => {
      const { s, host, outcome } = await run([{ name: 'lane-a' }], {
        'lead g1': ['ready', seen('lane_started', 'lane-a'), 'handover lane-a'],
        'lane-a g1': ['ready', seen('lane_promoted'), 'handoff', seen('pane_adopted'), seen('all_lanes_done'), 'release'],
        'lane-a g2': ['ready', 'done'],
      }, { succession: ['lead-b'], timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 9m }' });
      expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
      expect(s.events('lead_handover')).toMatchObject([{ to: 'lane-a', epoch: 2 }]);
      expect(s.events('lane_promoted')).toMatchObject([{ lane: 'lane-a', as: 'lead-lane-a', epoch: 2 }]);
      expect(s.events('lead_epoch_raised')).toEqual([]);
      expect(s.events('lead_promotion_claimed')).toMatchObject([{ lane: 'lead-lane-a', epoch: 2, promoted: 'lane-a' }]);
      expect(s.events('lead_stand_down')).toMatchObject([{ lane: 'lead', lead: 'lead-lane-a', epoch: 2 }]);
      expect(s.events('lead_pane_kept')).toHaveLength(1);
      expect(s.events('successor_spawned').filter((e) => e.lane === 'lead')).toEqual([]);
      expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-lane-a', epoch: 2, released: true, promoted_from: { lane: 'lane-a', generation: 1 } });
      expect(s.events('lead_released')).toMatchObject([{ lane: 'lead-lane-a', by: 'lead-lane-a' }]);
      expect(host.live().filter((p) => !p.startsWith('lead '))).toEqual([expect.stringMatching(/^lane-a g2 @/), expect.stringMatching(/^lead-lane-a g2 @/)]);
    });
  });

  it('the lead\'s pane closed from tmux: taken over at epoch + 1 by the succession entry', async () => {
    const { s, host, outcome } = await run([{ name: 'lane-a' }], {
      'lead g1': ['ready', 'vanish'],
      'lane-a g1': ['ready', async () => { await waitFor(() => t!.events('lead_accepted').length > 0, { what: 'lead_accepted' }); }, 'done'],
    }, { succession: ['lead-b'] });
    expect(outcome).toMatchObject({ code: 0, why: 'plan done' });
    expect(s.events('lead_takeover')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(s.plan, 'lead.json'), 'utf8'))).toMatchObject({ lead: 'lead-b', epoch: 2, released: true });
    expect(host.live().filter((p) => p.startsWith('lead'))).toEqual([expect.stringMatching(/^lead-b g2 @/)]);
  });
});

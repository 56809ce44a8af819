/**
 * A PaneHost with no terminal (src/adapters/host.ts): a pane is a record, its agent a script run in
 * this process with the pane's own environment, calling swarm's commands (notify, packet write,
 * accept, lane add) in-process as the real agents would. Tests drive exits and screens by hand.
 */
import { hostname } from 'node:os';
import { asAgentRecord, spoolName, type AgentRecord } from '../../src/core/authority/agents.js';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostEvent, PaneHost, PaneInfo, PaneSpec } from '../../src/adapters/host.js';
import type { CommandIO } from '../../src/commands/io.js';
import { describeError } from '../../src/errorReport.js';
import { accept } from '../../src/commands/accept.js';
import { hook } from '../../src/commands/hook.js';
import { laneAdd } from '../../src/commands/laneAdd.js';
import { lead } from '../../src/commands/lead.js';
import { notify } from '../../src/commands/notify.js';
import { packetWrite } from '../../src/commands/packetWrite.js';

/** One step of an agent: a report, a packet, an exit, or anything a test wants done from the pane. */
export type Action = 'noaccept' | 'ready' | 'done' | 'session' | 'usage limit' | 'handoff' | 'badpacket' | 'exit' | 'vanish' | 'ask' | 'release' | 'approved' | `changes ${string}` | `handover ${string}` | `blocked ${string}` | `lane add ${string}` | ((pane: FakePane) => Promise<void>);

export interface FakePane {
  info: PaneInfo;
  spec: PaneSpec;
  screen: string;
  /** What the agent's commands printed and failed with. */
  out: string[];
  /** Actions of its script carried out (a pane carried into a new host goes on from there). */
  step: number;
  /** Which spawn of its lane and generation it is (1: the first). */
  nth: number;
}

/** A host's panes at one moment (a crash test starts a new engine on them). */
export type PaneSnapshot = { info: PaneInfo; spec: PaneSpec; step: number; nth: number }[];

/**
 * The script of `<lane> g<generation>`, or of its n-th spawn `<lane> g<generation> #<n>` (a retry on
 * another account): a lead's successor (`lead-b`) is its own name. A script starting `noaccept` is a
 * successor that never runs `swarm accept` and does nothing.
 */
export type Scripts = Record<string, Action[]>;

const CAP = (state: string, pct: number) => `capacity=${state} ${pct}%`;

/** The command's exit code as the CLI gives it (src/cli.ts): a file system refusal it throws is exit 5, said on stderr. */
export async function exitCode(command: (io: CommandIO) => Promise<number>, io: CommandIO): Promise<number> {
  try {
    return await command(io);
  } catch (error) {
    const told = describeError(error, { color: false });
    if (told.code !== 5) throw error;
    io.stderr(told.text);
    return told.code;
  }
}

export class FakeHost implements PaneHost {
  readonly kind = 'tmux' as const;
  readonly panes = new Map<string, FakePane>();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private next = 1;
  private readonly spawns = new Map<string, number>();
  /** Scripts still running (a test waits for them before it removes the folder). */
  readonly running = new Set<Promise<void>>();
  /** Run once before the successor `<lane> g<generation> #<n>` accepts (a fault test's moment). */
  readonly beforeAccept = new Map<string, (pane: FakePane) => Promise<void>>();
  /** Run before each close of a pane by the engine (a fault test's moment: accepted, spent pane not closed). */
  beforeKill: ((pane: FakePane) => Promise<void>) | null = null;
  /** The server died (loseServer): nothing can be spawned on it any more. */
  private lost = false;
  /** Run before each spawn (a fault test's moment: the spawn intent saved, no pane yet). */
  beforeSpawn: ((spec: PaneSpec) => Promise<void>) | null = null;
  /** Panes the engine closed (their agents' output kept for the test). */
  readonly closed: FakePane[] = [];
  /** The most live panes of one lane at once, by agent name (`lead-b` apart from `lead`). */
  readonly mostLive = new Map<string, number>();

  /**
   * `firstPane`: the number of its first pane. A host standing for a new tmux server (after one died)
   * starts past the old server's: the tmux host's ids name their server (adapters/tmux/paneRef.ts), so
   * an old id never names a new pane.
   */
  constructor(private readonly scripts: Scripts, carried: PaneSnapshot = [], firstPane = 1) {
    this.next = firstPane;
    // Panes that outlived the engine (tmux keeps them): their agents go on with their scripts.
    for (const c of carried) {
      const pane: FakePane = { info: { ...c.info }, spec: c.spec, screen: '', out: [], step: c.step, nth: c.nth };
      this.panes.set(c.info.paneId, pane);
      this.next = Math.max(this.next, Number(c.info.paneId.slice(1)) + 1);
      if (!pane.info.dead) this.track(pane);
    }
  }

  snapshot(): PaneSnapshot {
    return [...this.panes.values()].map((p) => ({ info: { ...p.info }, spec: p.spec, step: p.step, nth: p.nth }));
  }

  private track(pane: FakePane): void {
    const run = this.run(pane).catch((error: unknown) => { pane.out.push(`agent failed: ${String(error)}`); });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  async start(): Promise<void> {}

  async spawn(spec: PaneSpec): Promise<PaneInfo> {
    if (this.beforeSpawn) await this.beforeSpawn(spec);
    if (this.lost) throw new Error('no server running on the fake socket');
    const info: PaneInfo = { paneId: `%${this.next++}`, lane: spec.lane, generation: spec.generation, account: spec.account, dead: false, deadStatus: null, pid: null };
    const key = `${spec.lane} g${spec.generation}`;
    this.spawns.set(key, (this.spawns.get(key) ?? 0) + 1);
    const pane: FakePane = { info, spec, screen: '', out: [], step: 0, nth: this.spawns.get(key)! };
    this.panes.set(info.paneId, pane);
    const live = [...this.panes.values()].filter((p) => !p.info.dead && p.info.lane === spec.lane).length;
    this.mostLive.set(spec.lane, Math.max(this.mostLive.get(spec.lane) ?? 0, live));
    this.track(pane);
    return { ...info };
  }

  async list(): Promise<PaneInfo[]> {
    return [...this.panes.values()].map((p) => ({ ...p.info }));
  }

  async capture(paneId: string): Promise<string> {
    return this.panes.get(paneId)?.screen ?? '';
  }

  async typeLine(paneId: string): Promise<boolean> {
    return this.panes.get(paneId)?.info.dead === false;
  }

  /** The pane's agent goes by another identity (a lane's agent promoted to lead): its commands are that agent's from now on. */
  async relabel(paneId: string, as: { lane: string; generation: number; account: string; role: 'lead' | 'lane' }): Promise<void> {
    const pane = this.panes.get(paneId);
    if (!pane) return;
    pane.spec = { ...pane.spec, ...as };
    pane.info = { ...pane.info, lane: as.lane, generation: as.generation, account: as.account };
  }

  async kill(paneId: string): Promise<void> {
    const pane = this.panes.get(paneId);
    if (pane && this.beforeKill) await this.beforeKill(pane);
    if (pane && this.panes.delete(paneId)) this.closed.push(pane);
  }

  /** The tmux server dies: every pane goes with it, and the engine hears the host is lost. */
  loseServer(reason = 'the tmux server exited'): void {
    this.lost = true;
    this.panes.clear();
    this.emit({ type: 'lost', reason });
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async detach(): Promise<void> {}

  async destroy(): Promise<void> {
    this.panes.clear();
  }

  /** The pane's agent exits (the pane stays, as under remain-on-exit). */
  exit(paneId: string, status: number | null = 0): void {
    const pane = this.panes.get(paneId);
    if (!pane || pane.info.dead) return;
    pane.info.dead = true;
    pane.info.deadStatus = status;
    this.emit({ type: 'exited', paneId, status });
  }

  /**
   * The pane is closed from tmux (`kill-pane`, a user's prefix+x): gone with its agent, no death told,
   * as the tmux host says it (`gone`).
   */
  vanish(paneId: string): void {
    const pane = this.panes.get(paneId);
    if (!pane || !this.panes.delete(paneId)) return;
    pane.info.dead = true;
    this.emit({ type: 'gone', paneId });
  }

  /** The pane prints (its screen now `screen`, when given) and goes quiet, as the tmux host tells it by its edges. */
  print(paneId: string, screen?: string): void {
    const pane = this.panes.get(paneId);
    if (!pane || pane.info.dead) return;
    if (screen !== undefined) pane.screen = screen;
    this.emit({ type: 'printing', paneId });
    this.emit({ type: 'quiet', paneId, quietMs: 100 });
  }

  /** Live panes as `lane gN @account`, sorted. */
  live(): string[] {
    return [...this.panes.values()].filter((p) => !p.info.dead).map((p) => `${p.info.lane} g${p.info.generation} @${p.info.account}`).sort();
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private async run(pane: FakePane): Promise<void> {
    const { spec } = pane;
    const swarm = async (command: (io: CommandIO) => Promise<number>, args: string[], stdin = ''): Promise<string> => {
      // Exit 5 (the plan's files cannot be written): the agent does as told and tries again, for a while.
      for (let attempt = 1; ; attempt += 1) {
        const printed: string[] = [];
        // Who it is: the agent this pane was started as, injected in-process (SPEC 10.3: never its environment).
        const io: CommandIO = { args, cwd: spec.cwd, env: spec.env, stdout: (t) => printed.push(t), stderr: (t) => pane.out.push(t), stdin: async () => stdin, agent: recorded(pane.spec) };
        if ((await exitCode(command, io)) !== 5 || attempt === 100) return printed.join('').trim();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await Promise.resolve();
    const key = `${spec.lane} g${spec.generation}`;
    const script = this.scripts[`${key} #${pane.nth}`] ?? this.scripts[key] ?? (spec.role === 'lead' ? ['ready'] : ['ready', 'done']);
    if (script[0] === 'noaccept') return;
    const hold = this.beforeAccept.get(`${key} #${pane.nth}`);
    if (pane.step === 0 && hold) {
      this.beforeAccept.delete(`${key} #${pane.nth}`);
      await hold(pane);
      if (this.panes.get(pane.info.paneId)?.info.dead !== false) return;
    }
    // Step 0 is the successor's `swarm accept`; an action counts as done once it finished.
    if (pane.step === 0 && spec.env.SWARM_PACKET) await swarm(accept, [spec.env.SWARM_PACKET]);
    if (pane.step === 0) pane.step = 1;
    for (const action of script.slice(pane.step - 1)) {
      if (this.panes.get(pane.info.paneId)?.info.dead !== false) return;
      if (typeof action === 'function') await action(pane);
      else if (action === 'ready') await swarm(notify, ['lead', `plan ready\n${CAP('ok', 80)}`]);
      else if (action === 'done') await swarm(notify, ['lead', `done\n${CAP('ok', 70)}`]);
      else if (action === 'exit') this.exit(pane.info.paneId, 0);
      else if (action === 'vanish') this.vanish(pane.info.paneId);
      // Claude's SessionStart hook: the session it runs (the one it was started with, or resumed).
      else if (action === 'session') {
        const resumed = spec.argv.indexOf('--resume');
        const id = resumed >= 0 ? spec.argv[resumed + 1] : spec.env.SWARM_SESSION_ID;
        await swarm(hook, ['SessionStart'], JSON.stringify({ hook_event_name: 'SessionStart', session_id: id, source: resumed >= 0 ? 'resume' : 'startup', transcript_path: null }));
      }
      // Claude's own report of a hard usage limit (a StopFailure hook), as its pane's hook would send it.
      else if (action === 'usage limit') await swarm(hook, ['StopFailure'], JSON.stringify({ hook_event_name: 'StopFailure', error: 'rate_limit', error_details: 'usage limit reached' }));
      else if (action === 'ask') await swarm(notify, ['lead', 'ask may I push to main?']);
      else if (action === 'release') pane.out.push(`release: ${await swarm(lead, ['release'])}`);
      else if (action.startsWith('blocked ')) await swarm(notify, ['lead', action]);
      // A reviewer's verdict (SPEC 10.6).
      else if (action === 'approved' || action.startsWith('changes ')) await swarm(notify, ['lead', action]);
      else if (action.startsWith('handover ')) {
        const path = await swarm(packetWrite, ['write', '--reason', 'capacity_critical', '--doing', 'leading', '--next', 'lead on', '--unverified', 'gate=true']);
        await swarm(lead, ['handover', action.slice('handover '.length), '--packet', path]);
      }
      else if (action.startsWith('lane add ')) {
        // `lane add <name> REPO`: the lead's own checkout (the repository), no lane's.
        const [name, checkout] = action.slice('lane add '.length).split(' ');
        await swarm(laneAdd, ['add', name!, '--task', `work of ${name}`, '--checkout', checkout === 'REPO' ? spec.cwd : checkout!, '--command', 'true']);
      } else {
        const path = await swarm(packetWrite, ['write', '--reason', 'capacity_critical', '--doing', `step of ${spec.lane}`, '--next', 'finish', '--unverified', 'gate=true']);
        if (action === 'badpacket') chmodSync(path, 0o644);
        await swarm(notify, ['lead', `handoff ${path}\n${CAP('critical', 5)}`]);
      }
      pane.step += 1;
    }
  }
}

/**
 * The agent a pane is now, as swarm recorded it (its spool's record: a promoted agent's carries the
 * epoch it leads at), else as its spec starts it.
 */
function recorded(spec: PaneSpec): AgentRecord {
  const own = agentOf(spec);
  const plan = spec.env.SWARM_PLAN;
  if (!plan) return own;
  try {
    const record = asAgentRecord(JSON.parse(readFileSync(join(plan, '.swarm', 'agents', 'spools', `${own.spool}.json`), 'utf8')));
    return record?.epoch === undefined ? own : { ...own, epoch: record.epoch };
  } catch {
    return own;
  }
}

/** The agent a pane spec starts, as swarm records it (no pane process: the fake host has none). */
export function agentOf(spec: PaneSpec): AgentRecord {
  const run = Number(spec.env.SWARM_RUN ?? '1') || 1;
  return { lane: spec.lane, generation: spec.generation, role: spec.role, account: spec.account, run, spool: spoolName(run, spec.lane, spec.generation), pane: null, host: hostname() };
}

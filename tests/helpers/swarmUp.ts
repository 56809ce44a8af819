/**
 * A whole swarm for end-to-end tests: a temporary git repository with a plan, one git worktree per
 * lane, a swarm.yaml whose agents are the scripted fixture agent, and a private tmux socket that is
 * killed afterwards. `swarm up` runs as a real child process.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, git, initRepo, tempDir, writeTree } from './swarm.js';
import { killTestServer } from './tmuxServer.js';
import { waitFor } from './waitFor.js';

export const AGENT = join(ROOT, 'tests', 'fixtures', 'agents', 'lane.mjs');

export interface LaneOptions {
  name: string;
  /** Env assignments for the agent, e.g. { AGENT_G1: 'ready,handoff', AGENT_G2: 'done' }. */
  agent?: Record<string, string>;
  account?: string;
  doneWhen?: string;
  /** The folder name of the lane's worktree beside the repository; default `wt-<name>`. */
  checkout?: string;
  /** The lane's whole `command:` (e.g. a fake `claude`), instead of the scripted fixture agent; null: none (the kind file launches it). */
  command?: string | null;
  /** `after:` (SPEC 10.6): the lanes it waits to be done. */
  after?: string[];
  /** `review:` (SPEC 10.6): the YAML of its value, e.g. `true` or `{ command: "sh review.sh" }`. */
  review?: string;
  /** `host:` (SPEC 10.9), with the lane's absolute checkout there (made by the test on the host; no worktree here). */
  host?: { name: string; checkout: string };
}

export interface SwarmOptions {
  lanes: LaneOptions[];
  lead?: Record<string, string>;
  /** null: no `succession:` line (the default order, SPEC 10.5); absent: `succession: []`. */
  succession?: string[] | null;
  backend?: 'tmux' | 'pty';
  kind?: string;
  /** `env`: the account's profile location, e.g. { CLAUDE_CONFIG_DIR: '/tmp/x' }. */
  accounts?: { id: string; vendor: string; kind?: string; env?: Record<string, string> }[];
  extra?: string;
  /** swarm.yaml `pass_env` besides AGENT_KEYS (which the fixture agent needs and looks like a credential). */
  passEnv?: string[];
  /** The timeouts line, e.g. `{ accept: 20s, ask: 2s }`. */
  timeouts?: string;
  /** The folder the swarm's temporary folder is made in (default the system's): a host's private folder, tests/helpers/sshd.ts. */
  root?: string;
}

export interface TestSwarm {
  root: string;
  plan: string;
  file: string;
  socket: string;
  env: Record<string, string>;
  up: (args?: string[], extraEnv?: Record<string, string>) => Child;
  run: (args: string[], env?: Record<string, string>) => Promise<{ code: number; stdout: string; stderr: string }>;
  journal: () => Record<string, unknown>[];
  events: (name: string) => Record<string, unknown>[];
  waitEvent: (name: string, count?: number, timeout?: number) => Promise<Record<string, unknown>[]>;
  agentLog: () => string[];
  keys: () => string;
  cleanup: () => Promise<void>;
}

type Child = ReturnType<typeof launch>;

function launch(args: string[], env: Record<string, string>, cwd: string) {
  return execa('node', [CLI, ...args], { env, extendEnv: false, reject: false, all: true, cwd });
}

const DEFAULT_ACCOUNTS: NonNullable<SwarmOptions['accounts']> = [
  { id: 'a1', vendor: 'anthropic' },
  { id: 'a2', vendor: 'anthropic' },
  { id: 'a3', vendor: 'anthropic' },
  { id: 'o1', vendor: 'openai' },
  { id: 'o2', vendor: 'openai' },
];

function command(env: Record<string, string> | undefined): string {
  const assignments = Object.entries(env ?? {}).map(([k, v]) => `${k}='${v}'`);
  return [...assignments, 'exec', process.execPath, AGENT].join(' ');
}

function tempDirIn(root: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(root, 'swarm-e2e-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}

export function makeSwarm(options: SwarmOptions): TestSwarm {
  const { dir, cleanup: removeDir } = options.root === undefined ? tempDir('swarm-e2e-') : tempDirIn(options.root);
  const plan = join(dir, 'repo', 'plans', 'p');
  const repo = join(dir, 'repo');
  writeTree(repo, {
    'plans/p/PLAN.md': '---\ncontract: e2e-1\n---\n# E2E plan\n',
    '.gitignore': 'plans/*/.swarm/\nplans/*/journal.jsonl\nplans/*/lead.json\nplans/*/analysis_results/\n',
    'README.md': 'e2e\n',
  });
  initRepo(repo);
  const folder = (lane: LaneOptions): string => lane.checkout ?? `wt-${lane.name}`;
  for (const lane of options.lanes) if (!lane.host) git(repo, 'worktree', 'add', '-q', '-b', `lane/${lane.name}`, join(dir, folder(lane)));

  const kind = options.kind ?? 'command';
  // A claude or codex account declared without a profile gets a ready one (signed in, the checkouts
  // trusted), so swarm's readiness check (issue 9 §5) lets it be leased as before.
  const accounts = (options.accounts ?? DEFAULT_ACCOUNTS).map((a) => (a.env ? a : { ...a, env: readyProfile(dir, a.id, a.kind ?? kind, [repo, ...options.lanes.map((l) => join(dir, folder(l)))]) }));
  const yaml = [
    'version: 1',
    'name: e2e',
    'plan: plans/p',
    `backend: ${options.backend ?? 'tmux'}`,
    'accounts:',
    ...accounts.map((a) => `  - { id: ${a.id}, kind: ${a.kind ?? kind}, vendor: ${a.vendor}${a.env ? `, env: ${JSON.stringify(a.env)}` : ''} }`),
    'lead:',
    '  name: lead',
    `  account: ${accounts[0]!.id}`,
    `  command: "${command({ AGENT_G1: 'ready', ...options.lead }).replace(/"/g, '\\"')}"`,
    ...(options.succession === null ? [] : [`  succession: [${(options.succession ?? []).join(', ')}]`]),
    'lanes:',
    ...options.lanes.flatMap((lane) => [
      `  - name: ${lane.name}`,
      `    checkout: ${JSON.stringify(lane.host ? lane.host.checkout : `../${folder(lane)}`)}`,
      ...(lane.host ? [`    host: ${lane.host.name}`] : []),
      `    task: "e2e task of ${lane.name}"`,
      ...(lane.account ? [`    account: ${lane.account}`] : []),
      ...(lane.command === null ? [] : [`    command: "${(lane.command ?? command(lane.agent)).replace(/"/g, '\\"')}"`]),
      ...(lane.doneWhen ? [`    done_when: "${lane.doneWhen}"`] : []),
      ...(lane.after ? [`    after: [${lane.after.join(', ')}]`] : []),
      ...(lane.review ? [`    review: ${lane.review}`] : []),
    ]),
    `timeouts: ${options.timeouts ?? '{ accept: 20s, packet: 5s, stall: 10m, ask: 30s, release: 300ms }'}`,
    `pass_env: [${['AGENT_KEYS', ...(options.passEnv ?? [])].join(', ')}]`,
    options.extra ?? '',
  ].join('\n');
  const file = join(repo, 'swarm.yaml');
  writeFileSync(file, `${yaml}\n`);

  const socket = `swarm-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    SWARM_TMUX_SOCKET: socket,
    // The machine's lease folder (SPEC 10.4): this swarm's own, so no test leases from another's.
    SWARM_STATE_DIR: join(dir, 'state'),
    AGENT_LOG: join(dir, 'agents.log'),
    AGENT_KEYS: join(dir, 'keys.log'),
    NOTIFY_LOG: join(dir, 'notify.log'),
    NO_COLOR: '1',
  };
  const journalPath = join(plan, 'journal.jsonl');
  const journal = () =>
    existsSync(journalPath)
      ? readFileSync(journalPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  const events = (name: string) => journal().filter((e) => e.event === name);
  const children: Child[] = [];

  return {
    root: dir,
    plan,
    file,
    socket,
    env,
    up: (args = [], extraEnv = {}) => {
      const child = launch(['up', file, '--headless', ...args], { ...env, ...extraEnv }, repo);
      children.push(child);
      return child;
    },
    run: async (args, extra = {}) => {
      const r = await execa('node', [CLI, ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false, cwd: repo });
      return { code: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
    journal,
    events,
    waitEvent: (name, count = 1, timeout = 30_000) =>
      waitFor(() => {
        const found = events(name);
        return found.length >= count ? found : null;
      }, { timeout, what: `${count} × ${name} in the journal` }),
    agentLog: () => (existsSync(env.AGENT_LOG!) ? readFileSync(env.AGENT_LOG!, 'utf8').split('\n').filter(Boolean) : []),
    keys: () => (existsSync(env.AGENT_KEYS!) ? readFileSync(env.AGENT_KEYS!, 'utf8') : ''),
    cleanup: async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await Promise.allSettled(children);
      killTestServer(socket);
      // A pane's process that outlived its server (it ignored the hang-up) would write on into the
      // folder being removed (ENOTEMPTY): end what this test started there, then remove it.
      endProcessesUnder(dir);
      removeDir();
    },
  };
}

function readyProfile(root: string, id: string, kind: string, checkouts: string[]): Record<string, string> | undefined {
  const profile = join(root, 'profiles', id);
  if (kind === 'claude') {
    writeTree(profile, { '.credentials.json': '{}', '.claude.json': JSON.stringify({ projects: { [root]: { hasTrustDialogAccepted: true } } }) });
    return { CLAUDE_CONFIG_DIR: profile };
  }
  if (kind === 'codex') {
    writeTree(profile, { 'auth.json': '{}', 'config.toml': checkouts.map((c) => `[projects.${JSON.stringify(c)}]\ntrust_level = "trusted"\n`).join('') });
    return { CODEX_HOME: profile };
  }
  return undefined;
}

export function handoffFiles(plan: string): string[] {
  const dir = join(plan, 'analysis_results', 'handoff');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** SIGKILL every process (started by this test's swarm) whose working folder is under `dir`. */
export function endProcessesUnder(dir: string): void {
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return; // no /proc
  }
  for (const pid of pids) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}

/** Does a tmux server answer on this private socket (a test's own, never the default one)? */
export function tmuxServerRuns(socket: string): boolean {
  try {
    execFileSync('tmux', ['-L', socket, 'list-sessions'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

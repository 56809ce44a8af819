/**
 * tmux commands as data (STYLE habit 3): pure functions that build argv arrays and read tmux's
 * formatted answers. No I/O here; `runner.ts` and `control.ts` carry the arrays to tmux.
 */
import type { PaneInfo, PaneSpec } from '../host.js';

/** Window 0 holds the dashboard; agents go in `agents-1`, `agents-2`, … tiled, this many a window. */
export const DASHBOARD_WINDOW = 'swarm';
export const AGENTS_PER_WINDOW = 6;
/**
 * The agents' windows keep this size whatever terminal is attached (`resize-window` makes a window's
 * `window-size` manual): split six ways it leaves every agent a screen of its own, where a window
 * the size of a 100×12 terminal has "no space for new pane" and squeezes the agents' screens.
 */
export const AGENTS_WINDOW_SIZE = { width: 200, height: 50 };
/** What tmux says when a window has no room for one more pane. */
export const NO_SPACE = /no space for new pane/i;
/** The name of the tmux subscription that reports pane deaths (`refresh-client -B`). */
export const DEATH_SUBSCRIPTION = 'swarm-dead';

const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
const TMUX_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quote one argument for a POSIX shell: bare when it is plainly safe, else single-quoted. */
export function shellQuote(arg: string): string {
  if (SHELL_SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Join argv into one POSIX shell command line that splits back into exactly these words. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/**
 * Quote one argument for tmux's own command parser (a control-mode line, a hook's command): double
 * quotes, with `\`, `"`, `$` and `~` escaped and control characters as `\n`, `\t`, `\r` or `\ooo`.
 */
export function tmuxQuote(arg: string): string {
  if (TMUX_SAFE.test(arg)) return arg;
  let out = '"';
  for (const ch of arg) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === '"' || ch === '$' || ch === '~') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** One tmux command line from argv (what a control-mode client writes, without the newline). */
export function tmuxJoin(argv: readonly string[]): string {
  return argv.map(tmuxQuote).join(' ');
}

/** Text shown literally where tmux expands formats (`#` starts a format, `##` is a `#`). */
export function formatLiteral(text: string): string {
  return text.replace(/#/g, '##');
}

/**
 * The pane's command. Given more than one argument tmux 3.x execs it directly; `/bin/sh -c exec …`
 * keeps the agent the pane's own process (its pid is `#{pane_pid}`) whatever the user's shell is.
 */
export function paneCommand(argv: readonly string[]): string[] {
  return argv.length === 0 ? [] : ['/bin/sh', '-c', `exec ${shellJoin(argv)}`];
}

/** What tmux sets in a pane's environment itself: kept when the agent's environment is made exact. */
export const TMUX_PANE_VARIABLES = ['TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'TMUX', 'TMUX_PANE'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * An agent's pane command, with exactly `env` as its environment whatever the tmux server's global
 * environment holds (the server keeps the environment of whoever started it, and attaching
 * clients update it): the values reach the pane as `-e` (never in an argv), and
 * `env -i NAME="$NAME" …` keeps only those names and what tmux sets for the pane. `${X+"X=$X"}`
 * passes a variable only when set. The agent is still the pane's own process (exec all the way).
 */
export function agentCommand(argv: readonly string[], env: Readonly<Record<string, string>>): string[] {
  if (argv.length === 0) return [];
  const names = [...Object.keys(env).filter((name) => ENV_NAME.test(name) && !TMUX_PANE_VARIABLES.includes(name)), ...TMUX_PANE_VARIABLES];
  const keep = names.map((name) => '${' + name + '+"' + name + '=$' + name + '"}').join(' ');
  // `env` would take a program named like NAME=VALUE for one more assignment.
  const program = argv[0]!.includes('=') ? ['/bin/sh', '-c', 'exec "$@"', 'sh', ...argv] : argv;
  return ['/bin/sh', '-c', `exec /usr/bin/env -i ${keep} ${shellJoin(program)}`];
}

const exact = (session: string): string => `=${session}`;

export const hasSession = (session: string): string[] => ['has-session', '-t', exact(session)];
export const listSessions = (): string[] => ['list-sessions', '-F', '#{session_name}'];
export const killSession = (session: string): string[] => ['kill-session', '-t', exact(session)];
export const killServer = (): string[] => ['kill-server'];
export const killPane = (paneId: string): string[] => ['kill-pane', '-t', paneId];

/** A detached session whose window 0 (`swarm`) holds a placeholder until the dashboard takes it. */
export function newSession(session: string, size = AGENTS_WINDOW_SIZE): string[] {
  return ['new-session', '-d', '-s', session, '-n', DASHBOARD_WINDOW, '-x', String(size.width), '-y', String(size.height),
    '--', ...paneCommand(['tail', '-f', '/dev/null'])];
}

// ---- The dashboard's window 0, and a terminal attached to it ----

/** What window 0 must not inherit from the caller: tmux's own, CI's (Ink draws nothing under CI), the terminal's size. */
const NOT_PASSED = new Set(['TMUX', 'TMUX_PANE', 'CI', 'CONTINUOUS_INTEGRATION', 'TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'COLUMNS', 'LINES']);

/** `-e KEY=VALUE` for the caller's environment (an existing tmux server keeps its own older one). */
export function paneEnvArgs(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !NOT_PASSED.has(entry[0]) && !entry[0].includes('='))
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([key, value]) => ['-e', `${key}=${value}`]);
}

/** The session with window 0 running `command`: a new session, else window `swarm` respawned (`window` its id) or added (`''`). */
export function dashboardWindowArgv(session: string, window: string | null, cwd: string, env: string[], command: string[], size: { columns: number; rows: number }): string[] {
  const tail = [...startDirectory(cwd), ...env, '--', ...command];
  if (window === null) return ['new-session', '-d', '-s', session, '-n', DASHBOARD_WINDOW, '-x', String(size.columns), '-y', String(size.rows), ...tail];
  if (window === '') return ['new-window', '-d', '-t', `${exact(session)}:`, '-n', DASHBOARD_WINDOW, ...tail];
  return ['respawn-window', '-k', '-t', window, ...tail];
}

/** The `swarm` window of a session, as a target. */
export const dashboardTarget = (session: string): string => `${exact(session)}:=${DASHBOARD_WINDOW}`;
/** Window 0's pane: whether its process ended, and its exit status (fails once the window is gone). */
export const dashboardPaneState = (session: string): string[] => ['display-message', '-p', '-t', dashboardTarget(session), '#{pane_dead} #{pane_dead_status}'];
export const killDashboard = (session: string): string[] => ['kill-window', '-t', dashboardTarget(session)];

/** `dashboardPaneState`'s answer: dead or not, and the status a dead pane's process exited with (null: unknown). */
export function parseDashboardPane(lines: readonly string[]): { dead: boolean; status: number | null } {
  const [dead, status] = (lines[0] ?? '').trim().split(' ');
  return { dead: dead === '1', status: status !== undefined && /^\d+$/.test(status) ? Number(status) : null };
}

/** The agents' panes carry a border with their identity; the dashboard's would only cost a row. */
export const dashboardBorderOff = (session: string): string[] => ['set-option', '-w', '-t', dashboardTarget(session), 'pane-border-status', 'off'];
export const selectWindow = (target: string): string[] => ['select-window', '-t', target];
export const selectPane = (paneId: string): string[] => ['select-pane', '-t', paneId];
export const attachSession = (session: string): string[] => ['attach-session', '-t', exact(session)];
/**
 * The attaching client as a command another process runs on this terminal (bin/swarm.cjs's shell):
 * through `env` with the environment runner.ts's tmuxEnv gives a client here — no `TMUX` or
 * `TMUX_PANE` (from inside tmux it is nested, not refused), and a `TERM`.
 */
export function attachCommand(socket: string, session: string, env: NodeJS.ProcessEnv): string[] {
  return ['env', '-u', 'TMUX', '-u', 'TMUX_PANE', ...(env.TERM ? [] : ['TERM=xterm-256color']), 'tmux', '-u', '-L', socket, ...attachSession(session)];
}
/** Detach the client this process runs under (found by its `TMUX`). */
export const detachClient = (): string[] => ['detach-client'];
/** Detach every client attached to the session. */
export const detachSession = (session: string): string[] => ['detach-client', '-s', exact(session)];

/**
 * The shell command the `pane-died` hook runs (format-expanded by tmux first): append one JSON line
 * `{"kind":"pane_died","pane":"%3","status":3|null,"ts":"…Z"}` to `file`.
 */
export function deathRecordCommand(file: string): string {
  const status = '#{?#{==:#{pane_dead_status},},null,#{pane_dead_status}}';
  const signal = '#{?#{==:#{pane_dead_signal},},null,#{pane_dead_signal}}';
  const line = `printf '{"kind":"pane_died","pane":"%s","status":%s,"signal":%s,"ts":"%s"}\\n' '#{hook_pane}' '${status}' '${signal}' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"`;
  return `${line} >> ${formatLiteral(shellQuote(file))}`;
}

/**
 * Session setup, idempotent. The window options go on the private server's globals so a pane that
 * exits at once still stays dead (a per-window option would race the first pane of a new window).
 */
export function sessionSetup(session: string, options: { historyLimit: number; paneDeathFile: string }): string[][] {
  const border = '#{?@swarm_lane, #{@swarm_lane} g#{@swarm_generation} @#{@swarm_account} , #{pane_title} }';
  return [
    ['set-option', '-t', session, 'history-limit', String(options.historyLimit)],
    ['set-option', '-g', '-w', 'remain-on-exit', 'on'],
    ['set-option', '-g', '-w', 'pane-border-status', 'top'],
    ['set-option', '-g', '-w', 'pane-border-format', border],
    ['set-hook', '-t', session, 'pane-died', tmuxJoin(['run-shell', '-b', deathRecordCommand(options.paneDeathFile)])],
  ];
}

/** What a spawn prints (`-P -F`): pane id, pid, window id. */
export const SPAWN_FORMAT = '#{pane_id} #{pane_pid} #{window_id}';

/** The start directory, which tmux format-expands (`#(cmd)` would run in the server): made inert. */
export const startDirectory = (cwd: string): string[] => ['-c', formatLiteral(cwd)];

function spawnTail(spec: PaneSpec): string[] {
  const env = Object.entries(spec.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  return ['-P', '-F', SPAWN_FORMAT, ...startDirectory(spec.cwd), ...env, '--', ...agentCommand(spec.argv, spec.env)];
}

/**
 * The pane made and named (pane user options, which agents cannot overwrite) in one tmux command list,
 * so no moment exists in which an agent runs in a pane without its identity (a `swarm up` killed
 * between the two left an agent its restart could not see, and it spawned a second one of the lane).
 * The options name the new pane through its window: a split without `-d` makes it the window's
 * active pane (`last-pane` then gives the focus back); a new window (`-d`) holds only it.
 */
export function spawnTagged(target: { kind: 'split'; windowId: string } | { kind: 'new'; session: string; name: string }, spec: PaneSpec): string[] {
  const window = target.kind === 'split' ? target.windowId : `${exact(target.session)}:${target.name}`;
  // The window's own size before a split (a window made by an older swarm may still follow the terminal).
  const sized = ['resize-window', '-t', window, '-x', String(AGENTS_WINDOW_SIZE.width), '-y', String(AGENTS_WINDOW_SIZE.height)];
  const make = target.kind === 'split' ? [...sized, ';', 'split-window', '-t', window] : ['new-window', '-d', '-t', `${exact(target.session)}:`, '-n', target.name];
  const tag = identityOptions(spec).flatMap(([name, value]) => [';', 'set-option', '-p', '-t', window, name, listLiteral(value)]);
  const after = target.kind === 'split' ? [';', 'last-pane', '-t', window] : [';', ...sized];
  return [...make, ...spawnTail(spec).map(listLiteral), ...tag, ...after];
}

/** An argument of a command list as itself: tmux takes one ending in `;` for the end of a command (`\;` is a `;`). */
export const listLiteral = (arg: string): string => (arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg);

/** A live pane given another agent's identity (a lane's agent promoted to lead in place), in one command list. */
export function relabelPane(paneId: string, as: Pick<PaneSpec, 'lane' | 'generation' | 'account' | 'role'>): string[] {
  return identityOptions(as).flatMap(([name, value], i) => [...(i === 0 ? [] : [';']), 'set-option', '-p', '-t', paneId, name, listLiteral(value)]);
}

const identityOptions = (spec: Pick<PaneSpec, 'lane' | 'generation' | 'account' | 'role'>): [string, string][] => [
  ['@swarm_lane', spec.lane],
  ['@swarm_generation', String(spec.generation)],
  ['@swarm_account', spec.account],
  ['@swarm_role', spec.role],
];

export function parseSpawned(line: string | undefined): { paneId: string; pid: number | null; windowId: string } {
  const match = /^(%\d+) (\d*) (@\d+)$/.exec((line ?? '').trim());
  if (!match) throw new Error(`tmux printed no pane for the new agent: "${line ?? ''}"`);
  const pid = Number(match[2]);
  return { paneId: match[1]!, pid: match[2] === '' ? null : pid, windowId: match[3]! };
}

/** The title (inert: tmux format-expands it) and the tiled layout, once the pane exists and is named. */
export function paneLook(paneId: string, windowId: string, spec: PaneSpec): string[][] {
  return [
    ['select-pane', '-t', paneId, '-T', formatLiteral(spec.title)],
    ['select-layout', '-t', windowId, 'tiled'],
  ];
}

export interface WindowRow { windowId: string; name: string; panes: number }

export const listWindows = (session: string): string[] =>
  ['list-windows', '-t', exact(session), '-F', '#{window_id}\t#{window_name}\t#{window_panes}'];

export function parseWindows(lines: readonly string[]): WindowRow[] {
  return lines.flatMap((raw) => {
    const [windowId, name, panes] = raw.replace(/\r$/, '').split('\t');
    if (!windowId?.startsWith('@') || name === undefined || !/^\d+$/.test(panes ?? '')) return [];
    return [{ windowId, name, panes: Number(panes) }];
  });
}

/** Where the next agent goes: the first `agents-N` window with room, else a new `agents-<N+1>`. */
export function pickAgentsWindow(windows: readonly WindowRow[], perWindow = AGENTS_PER_WINDOW, full: readonly string[] = []):
  { kind: 'split'; windowId: string } | { kind: 'new'; name: string } {
  const agents = windows
    .map((w) => (full.includes(w.windowId) ? { ...w, panes: perWindow } : w))
    .map((w) => ({ w, n: /^agents-(\d+)$/.exec(w.name)?.[1] }))
    .filter((e): e is { w: WindowRow; n: string } => e.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  const room = agents.find((e) => e.w.panes < perWindow);
  if (room) return { kind: 'split', windowId: room.w.windowId };
  return { kind: 'new', name: `agents-${agents.reduce((max, e) => Math.max(max, Number(e.n)), 0) + 1}` };
}

const PANE_FIELDS = ['#{pane_id}', '#{@swarm_lane}', '#{@swarm_generation}', '#{@swarm_account}', '#{pane_dead}', '#{pane_dead_status}', '#{pane_pid}', '#{pane_dead_signal}'];

export const listPanes = (session: string): string[] => ['list-panes', '-s', '-t', exact(session), '-F', PANE_FIELDS.join('\t')];

/** Rows of `listPanes`; panes without `@swarm_lane` (the dashboard, a user's shell) are left out. */
export function parsePaneList(lines: readonly string[]): PaneInfo[] {
  return lines.flatMap((raw) => {
    const fields = raw.replace(/\r$/, '').split('\t');
    if (fields.length !== PANE_FIELDS.length) return [];
    const [paneId, lane, generation, account, dead, status, pid, signal] = fields as [string, string, string, string, string, string, string, string];
    if (!/^%\d+$/.test(paneId) || lane.trim() === '') return [];
    const int = (text: string): number | null => (/^\d+$/.test(text) ? Number(text) : null);
    const deadSignal = dead === '1' ? int(signal) : null;
    return [{ paneId, lane, generation: int(generation) ?? 0, account, dead: dead === '1', deadStatus: dead === '1' ? int(status) : null, pid: int(pid), ...(deadSignal === null ? {} : { deadSignal }) }];
  });
}

export function capturePane(paneId: string, history = 0): string[] {
  return ['capture-pane', '-p', '-J', '-t', paneId, '-S', `-${Math.max(0, Math.floor(history))}`];
}

export const PANE_STATE_FORMAT = '#{pane_id} #{pane_in_mode} #{pane_dead} #{cursor_x} #{cursor_y}';
export const paneState = (paneId: string): string[] => ['display-message', '-p', '-t', paneId, PANE_STATE_FORMAT];

export interface PaneState { inMode: boolean; dead: boolean; cursor: string }

/** `display-message -t` falls back to another pane when the target is gone: check the id. */
export function parsePaneState(paneId: string, line: string | undefined): PaneState | null {
  const [id, mode, dead, x, y] = (line ?? '').trim().split(' ');
  if (id !== paneId) return null;
  return { inMode: mode === '1', dead: dead === '1', cursor: `${x ?? ''},${y ?? ''}` };
}

export const cancelMode = (paneId: string): string[] => ['send-keys', '-t', paneId, '-X', 'cancel'];
export const bufferName = (paneId: string): string => `swarm-${paneId.replace(/^%/, '')}`;
export const setBuffer = (name: string, data: string): string[] => ['set-buffer', '-b', name, '--', data];
export const pasteBuffer = (name: string, paneId: string): string[] => ['paste-buffer', '-p', '-d', '-b', name, '-t', paneId];
export const sendEnter = (paneId: string): string[] => ['send-keys', '-t', paneId, 'Enter'];

/** Control mode: attach, survive floods (pause instead of being dropped), and report deaths. */
export const controlAttach = (session: string): string[] => ['-C', 'attach-session', '-t', exact(session)];
export const pauseAfter = (seconds: number): string[] => ['refresh-client', '-f', `pause-after=${seconds}`];
export const continuePane = (paneId: string): string[] => ['refresh-client', '-A', `${paneId}:continue`];
/** A job that ends at once: its SIGCHLD makes the server reap every exited child (see host.ts). */
export const reapNudge = (): string[] => ['run-shell', '-b', 'true'];
export const subscribeDeaths = (): string[] =>
  ['refresh-client', '-B', `${DEATH_SUBSCRIPTION}:%*:#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}`];

/**
 * A `swarm-dead` value `dead:status:signal`. A pane is dead once tmux knows how it ended: `1:3:`
 * → status 3, `1::15` → killed by signal 15 (status null); `1::` (the terminal closed, the exit
 * status not reaped yet) and `0::` are not deaths yet.
 */
export function parseDeathValue(value: string): { dead: boolean; status: number | null; signal: number | null } {
  const [dead, status = '', signal = ''] = value.trim().split(':');
  const known = /^\d+$/.test(status) || /^\w+$/.test(signal);
  return { dead: dead === '1' && known, status: /^\d+$/.test(status) ? Number(status) : null, signal: /^\d+$/.test(signal) ? Number(signal) : null };
}

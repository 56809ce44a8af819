/**
 * How a launched agent is wired to swarm's structured signals: the inline Claude
 * Code settings (status line and hooks) and the Codex `notify` override, plus the environment a
 * kind is started with. Pure: the user's own files come in as text; nothing of theirs is written.
 *
 * The interface with `swarm statusline` and `swarm hook` (implemented in src/hot.ts):
 * - Status line: `'<swarm_bin>' statusline`, run by Claude Code through a shell with the status
 *   JSON on stdin. When the user's settings have a status line command, it becomes
 *   `'<swarm_bin>' statusline --then '<their command>'`: after its own line, swarm runs their
 *   command through `sh -c` with the same stdin and prints what it prints.
 * - Hooks: `'<swarm_bin>' hook <Event>` for each of HOOK_EVENTS, the hook JSON on stdin, the same
 *   way. The user's own hooks need nothing: Claude Code runs hooks of every settings source.
 * - Codex: `-c notify=["<swarm_bin>","hook","codex-notify"]`, which Codex runs with the turn JSON
 *   appended as the last argument. When the user's config.toml has a notify, it becomes
 *   `[…,"codex-notify","--then","<their argv as a JSON array>"]`: swarm then runs their argv (no
 *   shell) with the same JSON appended, as Codex would have.
 * Every command is found through the pane's environment (SWARM_LANE, SWARM_ACCOUNT, SWARM_PLAN,
 * SWARM_GENERATION, SWARM_SESSION_ID, …), never through its arguments.
 */
import { tomlStringArray } from '../../kinds/codex/toml.js';

/** The Claude Code hook events swarm listens to. */
export const HOOK_EVENTS = ['SessionStart', 'Stop', 'StopFailure', 'Notification', 'PermissionRequest', 'PreCompact'] as const;

/** Seconds Claude Code waits for one of swarm's hooks before going on without it. */
export const HOOK_TIMEOUT_S = 30;

/** Quote one word for a POSIX shell (hook and status line commands run through one). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The status line command of the user's own settings, from the settings files' texts in precedence
 * order (the first that sets one wins); null when none does or a file is not JSON.
 */
export function userStatusLine(settingsTexts: readonly (string | null)[]): string | null {
  for (const text of settingsTexts) {
    if (text === null) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const line = (parsed as { statusLine?: { type?: unknown; command?: unknown } } | null)?.statusLine;
    if (line !== undefined && line !== null && typeof line.command === 'string' && line.command.trim() !== '' && (line.type ?? 'command') === 'command') {
      return line.command;
    }
  }
  return null;
}

/** The inline `--settings` JSON: swarm's status line (running the user's after it) and hooks. */
export function claudeSettings(swarmBin: string, userLine: string | null): string {
  const bin = shellWord(swarmBin);
  const statusLine = `${bin} statusline${userLine === null ? '' : ` --then ${shellWord(userLine)}`}`;
  const hooks = Object.fromEntries(HOOK_EVENTS.map((event) => [
    event, [{ hooks: [{ type: 'command', command: `${bin} hook ${event}`, timeout: HOOK_TIMEOUT_S }] }],
  ]));
  return JSON.stringify({ statusLine: { type: 'command', command: statusLine, padding: 0 }, hooks });
}

/** The TOML array for Codex's `-c notify=…`: swarm's hook, running the user's notify after it. */
export function codexNotify(swarmBin: string, userArgv: readonly string[] | null): string {
  const then = userArgv === null || userArgv.length === 0 ? [] : ['--then', JSON.stringify(userArgv)];
  return tomlStringArray([swarmBin, 'hook', 'codex-notify', ...then]);
}

/**
 * What a kind is started with besides the profile: Claude Code with its auto-updater off and — the
 * flower rule: handoff on means auto-compact off — auto-compact off unless `thresholds.compact` is
 * auto. Never anything that answers a screen in the agent's place (IS_SANDBOX and the like).
 */
export function kindEnv(kind: string, compact: 'off' | 'auto'): Record<string, string> {
  if (kind !== 'claude') return {};
  return { DISABLE_AUTOUPDATER: '1', ...(compact === 'auto' ? {} : { DISABLE_AUTO_COMPACT: '1' }) };
}

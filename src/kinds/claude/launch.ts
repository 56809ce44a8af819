/**
 * How Claude Code is started: its inline `--settings` wire the status line and hooks to swarm (the
 * user's own status line kept, run after swarm's), its environment, and the plan's approvals as its
 * flags. Pure but for `settingsFor`, which reads the user's settings files (read only).
 *
 * The interface with `swarm statusline` and `swarm hook`:
 * - Status line: `'<swarm_bin>' statusline`, run by Claude Code through a shell with the status
 *   JSON on stdin. When the user's settings have a status line command, it becomes
 *   `'<swarm_bin>' statusline --then '<their command>'`: after its own line, swarm runs their
 *   command through `sh -c` with the same stdin and prints what it prints.
 * - Hooks: `'<swarm_bin>' hook <Event>` for each of HOOK_EVENTS, the hook JSON on stdin, the same
 *   way. The user's own hooks need nothing: Claude Code runs hooks of every settings source.
 * Every command is found through the pane's environment (SWARM_LANE, SWARM_ACCOUNT, SWARM_PLAN,
 * SWARM_GENERATION, SWARM_SESSION_ID, …), never through its arguments.
 */
import { join } from 'node:path';
import type { ApprovalFlags, ClaudeApprovals } from '../../core/plan/approvals.js';
import { readUserFile } from '../../adapters/files.js';

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

/** Claude's inline settings, with the user's status line (checkout's local, then project, then profile settings) run after swarm's. */
export function settingsFor(swarmBin: string, checkout: string, profile: string | null): string {
  const files = [join(checkout, '.claude', 'settings.local.json'), join(checkout, '.claude', 'settings.json'), ...(profile === null ? [] : [join(profile, 'settings.json')])];
  return claudeSettings(swarmBin, userStatusLine(files.map(readUserFile)));
}

/**
 * Claude Code is started with its auto-updater off and — the
 * flower rule: handoff on means auto-compact off — auto-compact off unless `thresholds.compact` is
 * auto. Never anything that answers a screen in the agent's place (IS_SANDBOX and the like).
 */
export function claudeEnv(compact: 'off' | 'auto'): Record<string, string> {
  return { DISABLE_AUTOUPDATER: '1', ...(compact === 'auto' ? {} : { DISABLE_AUTO_COMPACT: '1' }) };
}

/** The plan's `approvals.claude` as Claude Code's flags. */
export function claudeApprovalFlags(c: ClaudeApprovals | null): ApprovalFlags {
  if (c === null) return { argv: [], promptAfterDashDash: false };
  const argv = [
    ...(c.permissionMode === null ? [] : ['--permission-mode', c.permissionMode]),
    ...(c.allowedTools.length === 0 ? [] : ['--allowedTools', ...c.allowedTools]),
    ...(c.addDirs.length === 0 ? [] : ['--add-dir', ...c.addDirs]),
  ];
  return { argv, promptAfterDashDash: c.allowedTools.length > 0 || c.addDirs.length > 0 };
}

/**
 * A Claude Code reviewer (SPEC 10.6): `--permission-mode dontAsk` (a tool not allowed is refused, never
 * asked about: `plan` mode would stop at an approval screen) with only the read tools, git's read
 * commands in its checkout (plain, or with `-C <checkout>`) and `swarm notify`.
 */
export function claudeReviewFlags(checkout: string): ApprovalFlags & { cwd: string } {
  const git = ['diff', 'log', 'show', 'status'].flatMap((cmd) => [`Bash(git ${cmd}:*)`, `Bash(git -C ${checkout} ${cmd}:*)`]);
  return { argv: ['--permission-mode', 'dontAsk', '--allowedTools', 'Read', 'Grep', 'Glob', ...git, 'Bash(swarm notify:*)'], promptAfterDashDash: true, cwd: checkout };
}

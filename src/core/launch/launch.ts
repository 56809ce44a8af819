/**
 * Launching an agent of a kind (SPEC 4.3): its argv, how its first prompt arrives, and the
 * environment that carries its account's profile. Pure: values in, argv and maps out.
 *
 * Decisions where SPEC 4.3 is silent:
 * - Placeholders are expanded only in the kind's template, never in a lane's `command:` (a shell
 *   string with the prompt spliced in would be an injection); such a command reads
 *   $SWARM_PROMPT_FILE. For the same reason a kind whose prompt is an argument delivers it as a
 *   file when a lane's command replaces the launch.
 * - An argument longer than Linux's per-argument limit (128 KiB) is refused with a fix, rather
 *   than failing later in exec with E2BIG.
 * - `{approvals}` is an argument of its own and expands to the approval flags (none: no argument).
 *   When those flags take several values (Claude's --allowedTools, --add-dir), a prompt argument
 *   after them must follow a `--`, or the launch is refused: it would be read as one more value.
 */
import { UsageError } from '../../errors.js';
import type { CommandSpec } from '../config/config.js';
import type { ApprovalFlags } from '../plan/approvals.js';
import { LIST_PLACEHOLDERS, type KindSpec, type Placeholder, type PromptDelivery } from '../config/kindFile.js';

export interface LaunchInput {
  /** The lane's (or lead's) `command:`, which replaces the kind's launch; null for the kind's own. */
  command: CommandSpec;
  /** Absolute path of the prompt file. */
  promptFile: string;
  /** The prompt's text. */
  prompt: string;
  /** One line telling the agent to read the prompt file: the first prompt. */
  brief: string;
  /** A fresh uuid for this generation (Claude's --session-id). */
  sessionId: string;
  /** Inline Claude Code settings JSON: swarm's status line and hooks. */
  settings: string;
  /** Absolute path of swarm's own brief (the protocol): the only file fit for a system prompt. */
  systemPromptFile: string;
  /** The plan's approvals as this kind's flags. */
  approvals: ApprovalFlags;
  /** The TOML array for Codex's `-c notify=…`. */
  notify: string;
  /** This installation's swarm entry (a .js file run by `nodeBin`). */
  swarmBin: string;
  /** The Node binary running swarm. */
  nodeBin: string;
  /** Who is launched, for messages (a lane's or the lead's name). */
  who?: string;
  /**
   * The kind's `launch.resume` in place of its `launch.command` (SPEC 10.8): `sessionId` is then the
   * session resumed, `brief` the pointer line. Never with a `command:` replacing the launch.
   */
  resume?: boolean;
}

/** Linux's MAX_ARG_STRLEN less the terminating NUL: the longest single argument exec accepts. */
export const MAX_ARG_BYTES = 131_071;

/**
 * The argv that starts an agent: a `command:` string runs as `sh -c <command>`, a list is the argv
 * itself; otherwise the kind's template with its placeholders expanded (`{approvals}` into zero or
 * more arguments). Throws UsageError when there is neither (the `command` kind needs a `command:`),
 * an argument is too long for exec, or a prompt would be swallowed by a multi-value flag.
 */
export function launchArgv(kind: KindSpec, input: LaunchInput): string[] {
  const { command } = input;
  if (input.resume === true && replacesLaunch(command)) throw new UsageError(`${input.who ?? 'the lane'}'s own command replaces its kind's launch: there is no session of its kind to resume`);
  if (typeof command === 'string' && replacesLaunch(command)) return ['sh', '-c', command];
  if (Array.isArray(command) && replacesLaunch(command)) return [...command];
  const who = input.who === undefined ? 'the lane' : `"${input.who}"`;
  if (kind.launch === null) {
    throw new UsageError(`${who} needs a command: kind "${kind.kind}" has no launch of its own (launch: null in panes/${kind.kind}.yaml)`, {
      hint: 'give the lane a command in swarm.yaml, e.g. command: "./agent.sh" (a string runs by sh -c, a list is argv)',
    });
  }
  const values: Record<Exclude<Placeholder, (typeof LIST_PLACEHOLDERS)[number]>, string> = {
    prompt_file: input.promptFile,
    prompt: input.prompt,
    brief: input.brief,
    swarm_bin: input.swarmBin,
    node: input.nodeBin,
    session_id: input.sessionId,
    settings: input.settings,
    system_prompt_file: input.systemPromptFile,
    notify: input.notify,
  };
  const template = input.resume === true ? kind.launch.resume : kind.launch.command;
  if (template === null) throw new UsageError(`kind "${kind.kind}" cannot resume a session: panes/${kind.kind}.yaml has no launch.resume`);
  checkDashDash(template, input.approvals, kind.kind, who);
  const argv = template.flatMap((arg) => (arg === '{approvals}' ? input.approvals.argv : [
    arg.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as keyof typeof values] : whole)),
  ]));
  const encoder = new TextEncoder();
  argv.forEach((arg, i) => {
    const bytes = encoder.encode(arg).length;
    if (bytes > MAX_ARG_BYTES) {
      throw new UsageError(`argument ${i} of ${who}'s launch (kind "${kind.kind}") is ${bytes} bytes, over the ${MAX_ARG_BYTES} an argument may have`, {
        hint: `pass the prompt as a file: use {prompt_file} or {brief} in panes/${kind.kind}.yaml instead of {prompt}`,
      });
    }
  });
  return argv;
}

/** Refuse a template whose prompt argument would be read as one more value of a multi-value approval flag. */
function checkDashDash(template: readonly string[], approvals: ApprovalFlags, kind: string, who: string): void {
  const at = template.indexOf('{approvals}');
  if (at === -1 || !approvals.promptAfterDashDash) return;
  for (const arg of template.slice(at + 1)) {
    if (arg === '--') return;
    if (/\{(prompt|brief|prompt_file)\}/.test(arg)) {
      throw new UsageError(`${who}'s launch (kind "${kind}") puts a prompt argument after {approvals} with no "--" between them: --allowedTools or --add-dir would take it as one more value`, {
        hint: `add "--" before the prompt in launch.command of panes/${kind}.yaml`,
      });
    }
  }
}

/**
 * How the first prompt reaches the agent. With a `command:` replacing the launch, a prompt the
 * kind passes as an argument comes as a file ($SWARM_PROMPT_FILE) instead.
 */
export function promptDelivery(kind: KindSpec, command: CommandSpec = null): PromptDelivery {
  const delivery = kind.launch?.prompt ?? 'file';
  return replacesLaunch(command) && delivery === 'argument' ? 'file' : delivery;
}

/** Whether a lane's `command:` replaces the kind's launch (a non-blank string or a non-empty list). */
export function replacesLaunch(command: CommandSpec): boolean {
  return (typeof command === 'string' && command.trim() !== '') || (Array.isArray(command) && command.length > 0);
}

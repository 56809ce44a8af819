/**
 * How a failed command is told to the person: what was wrong and what to do, red only on a terminal
 * without NO_COLOR, and the exit code of SPEC 8. Used by the two entry points (src/cli.ts and the
 * agents' hot path src/hot.ts); neither prints errors any other way.
 */
import { planFilesFault, type ExitCode } from './errors.js';

interface Told {
  message: string;
  exitCode: ExitCode;
  hint?: string | undefined;
  problems?: readonly string[];
}

/**
 * Our errors by shape, not by class: the hot bundle and a module it loads lazily (the YAML loader) each
 * carry their own copy of src/errors.ts, so `instanceof` would miss the other's errors.
 */
function told(error: unknown): Told | null {
  if (!(error instanceof Error)) return null;
  const code = (error as Partial<Told>).exitCode;
  return code === 1 || code === 2 || code === 3 || code === 4 || code === 5 ? (error as unknown as Told) : null;
}

export function describeError(error: unknown, options: { color: boolean }): { text: string; code: ExitCode } {
  const red = (s: string) => (options.color ? `\u001b[31m${s}\u001b[39m` : s);
  // A file system refusal (EACCES, ENOSPC, an immutable file …) is the plan's files failing: exit 5, not a crash.
  const ours = told(error) ?? told(planFilesFault(error));
  if (ours?.problems) return { text: `${ours.problems.map(red).join('\n')}\n`, code: ours.exitCode };
  if (ours) {
    const head = red(ours.message.startsWith('swarm') ? ours.message : `swarm: ${ours.message}`);
    const hint = ours.hint ? `  ${ours.hint.replace(/\n/g, '\n  ')}\n` : '';
    return { text: `${head}\n${hint}`, code: ours.exitCode };
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { text: `${red('swarm: internal error')}\n${message}\n`, code: 1 };
}

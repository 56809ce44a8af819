/**
 * What was wrong with a command's arguments, said the same way by every command: node's parseArgs
 * errors ("Unknown option '--x'. To specify a positional argument starting with a '-', place it at
 * the end of the command after '--', as in '-- \"--x\"") become one short sentence; an unknown
 * option close to one the command's usage names gets "did you mean". Pure.
 */
import { didYouMean } from '../core/config/suggest.js';

/** The long options a usage line names (`--timeout D` → `--timeout`). */
export function usageOptions(usage: string): string[] {
  return [...new Set(usage.match(/--[a-z][a-z-]*/g) ?? [])];
}

export function argsProblem(error: unknown, usage = ''): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option "${quoted}"${didYouMean(quoted, usageOptions(usage))}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${quoted}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      // "-d, --detach" for an option with a short name too: the long one is said.
      const words = quoted.split(/,? /);
      const option = words.find((w) => w.startsWith('--')) ?? words[0]!;
      return /does not take an argument/.test(message) ? `${option} takes no value` : `${option} needs a value`;
    }
    default:
      return message;
  }
}

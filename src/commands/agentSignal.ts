/**
 * What `swarm statusline` and `swarm hook` share: they run inside the agent, on its fast path, and
 * must never break it — every internal error is journalled (or, outside a swarm, said on stderr) and
 * the command still exits 0. The user's own command chained with `--then` runs after swarm's part,
 * with the same input. What they report is the kind's (its Kind's signals, adapters/agentSignal.ts).
 */
import { childProcess } from '../adapters/childProcess.js';
import { appendJournal } from '../adapters/journal.js';
import type { CommandIO } from './io.js';

/** Run `body`; on any error journal why (event `signal_error`) and carry on. */
export async function safely(io: CommandIO, command: string, body: () => Promise<void> | void): Promise<void> {
  try {
    await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const plan = io.env.SWARM_PLAN?.trim();
    try {
      if (!plan) throw new Error('no SWARM_PLAN');
      appendJournal(plan, {
        type: 'observation', event: 'signal_error', lane: io.env.SWARM_LANE ?? null,
        generation: Number(io.env.SWARM_GENERATION) || null, command, error: message.slice(0, 500),
      });
    } catch {
      io.stderr(`swarm ${command}: ${message.split('\n')[0]}\n`);
    }
  }
}

/** `--then <value>` taken out of the arguments. */
export function takeThen(args: string[]): { then: string | null; rest: string[] } {
  const at = args.indexOf('--then');
  if (at === -1) return { then: null, rest: args };
  return { then: args[at + 1] ?? null, rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}

/** Run the user's own command (argv, no shell unless it is `sh -c`), `input` on its stdin; its stdout, or '' on any failure. */
export function runThen(argv: string[], input: string, env: NodeJS.ProcessEnv): string {
  const [file, ...args] = argv;
  if (!file) return '';
  const result = childProcess().spawnSync(file, args, { input, env, encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'ignore'] });
  return typeof result.stdout === 'string' ? result.stdout : '';
}

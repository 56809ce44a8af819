/**
 * `swarm hook <event> [--then '<JSON argv>'] [<json>]`: an agent's own structured signals, reported
 * to the engine through the inbox (a `hook` record the engine turns into a lane event). The kind
 * whose CLI calls the event handles it (its Kind's `signals.hooks`): Claude Code's hooks read their
 * JSON on stdin (`swarm hook Stop`), Codex's notify passes it as the last argument (`swarm hook
 * codex-notify`), and then `--then` runs the user's own notify argv (no shell) with the same JSON
 * appended, as Codex would have. Never breaks the agent: always exit 0; an error is journalled.
 */
import { excerpt } from '../errors.js';
import { readStdin } from '../adapters/stdin.js';
import { findKind, hookEvents } from '../kinds/index.js';
import { runThen, safely, takeThen } from './agentSignal.js';
import type { CommandIO } from './io.js';

export async function hook(io: CommandIO): Promise<number> {
  const [event = '', ...rest] = io.args;
  const called = event.trim().toLowerCase();
  const kind = await findKind((k) => k.signals.hooks?.events.some((e) => e.toLowerCase() === called) ?? false);
  const hooks = kind?.signals.hooks;
  if (hooks === undefined) {
    const known = await hookEvents();
    await safely(io, `hook ${event}`, () => {
      throw new Error(`unknown hook event "${excerpt(event, 40)}": expected one of ${known.join(', ')}`);
    });
    return 0;
  }
  if (hooks.input === 'stdin') {
    await safely(io, `hook ${event}`, async () => hooks.run(event, await (io.stdin ?? readStdin)(), io));
    return 0;
  }
  const { then, rest: args } = takeThen(rest);
  const json = args.at(-1) ?? '';
  await safely(io, `hook ${event}`, () => hooks.run(event, json, io));
  if (then !== null) {
    await safely(io, `hook ${event} --then`, () => {
      const argv: unknown = JSON.parse(then);
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) throw new Error('--then takes a JSON array of strings (argv)');
      runThen([...(argv as string[]), json], '', io.env);
    });
  }
  return 0;
}

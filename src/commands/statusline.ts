/**
 * `swarm statusline [--then '<command>']` (a structured signal): Claude Code's status line command.
 * Reads the status-line JSON on stdin, has the kind whose CLI has a status line record it (its
 * Kind's `signals.statusLine`: the account's reading), and prints one short line. `--then` runs the
 * user's own status line command (through `sh -c`, as Claude runs it) with the same stdin and prints
 * its output after swarm's line. Never breaks the agent: always exit 0; an error is journalled.
 */
import { readStdin } from '../adapters/stdin.js';
import { findKind } from '../kinds/index.js';
import { runThen, safely, takeThen } from './agentSignal.js';
import type { CommandIO } from './io.js';

export async function statusline(io: CommandIO): Promise<number> {
  const { then } = takeThen(io.args);
  let input = '';
  await safely(io, 'statusline', async () => {
    input = await (io.stdin ?? readStdin)();
  });
  let line = '';
  await safely(io, 'statusline', async () => {
    const kind = await findKind((k) => k.signals.statusLine !== undefined);
    line = (await kind?.signals.statusLine?.(input, io)) ?? '';
  });
  if (line !== '') io.stdout(`${line}\n`);
  if (then !== null && then.trim() !== '') {
    await safely(io, 'statusline --then', () => {
      const own = runThen(['/bin/sh', '-c', then], input, io.env);
      if (own !== '') io.stdout(own.endsWith('\n') ? own : `${own}\n`);
    });
  }
  return 0;
}

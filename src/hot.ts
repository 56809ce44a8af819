/**
 * The agents' fast path: `swarm notify` and `swarm capacity` run at every work boundary of every agent,
 * `swarm statusline` and `swarm hook` at every message and turn of every real lane. bin/swarm.cjs runs
 * each from its own one-file CommonJS bundle (dist/hot/<command>.cjs, built by scripts/bundle-hot.mjs
 * from src/hot/<command>.ts): no ES module loader, and only that command's code to parse. Same
 * commands, same errors as src/cli.ts.
 */
import type { Command } from './commands/io.js';
import { quietWhenReaderGoes } from './closedPipe.js';
import { describeError } from './errorReport.js';
import { readStdin } from './adapters/stdin.js';
import { asksHelp, usageOf } from './usage.js';

/**
 * Run one command with this process's arguments (after the command name), streams and environment.
 * `--help` is answered here, before the command runs (src/usage.ts: light, no imports).
 */
export function runHot(name: string, command: Command): void {
  const args = process.argv.slice(3);
  // A closed pipe is no error: the output stops, the command finishes (each is short) and exits 0.
  let readerGone = false;
  quietWhenReaderGoes(() => {
    readerGone = true;
  });
  const usage = usageOf(name);
  if (usage !== null && asksHelp(name, args)) {
    process.stdout.write(usage);
    return;
  }
  command({
    args,
    cwd: process.cwd(),
    env: process.env,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdin: () => readStdin(),
  }).then(
    (code) => {
      process.exitCode = readerGone ? 0 : code;
    },
    (error: unknown) => {
      const { text, code } = describeError(error, { color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR });
      process.stderr.write(text);
      process.exitCode = code;
    },
  );
}

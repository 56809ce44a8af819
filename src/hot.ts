/**
 * The agents' fast path: `swarm notify` and `swarm capacity` run at every work boundary of every agent,
 * `swarm statusline` and `swarm hook` at every message and turn of every real lane, so bin/swarm.cjs
 * runs them from this entry, bundled into one CommonJS file (dist/hot/agent.cjs by
 * scripts/bundle-hot.mjs): no ES module loader, one file to read. Same commands, same errors as src/cli.ts.
 */
import { capacity } from './commands/capacity.js';
import { hook } from './commands/hook.js';
import { notify } from './commands/notify.js';
import { statusline } from './commands/statusline.js';
import type { Command } from './commands/io.js';
import { describeError } from './errorReport.js';
import { readStdin } from './adapters/stdin.js';
import { asksHelp, usageOf } from './usage.js';

const COMMANDS: Record<string, Command> = { notify, capacity, statusline, hook };
const [name = '', ...args] = process.argv.slice(2);
const chosen = name in COMMANDS ? name : 'capacity';
const command = COMMANDS[chosen] ?? capacity;
const usage = usageOf(chosen);
// `--help` is answered here, before the command runs (src/usage.ts: light, no imports).
if (usage !== null && asksHelp(chosen, args)) process.stdout.write(usage);
else void command({
  args,
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stdin: () => readStdin(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const { text, code } = describeError(error, { color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR });
    process.stderr.write(text);
    process.exitCode = code;
  },
);

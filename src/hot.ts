/**
 * The agents' fast path: `swarm notify` and `swarm capacity` run at every work boundary of every agent,
 * so bin/swarm.cjs runs them from this entry, bundled into one CommonJS file (dist/hot/agent.cjs by
 * scripts/bundle-hot.mjs): no ES module loader, one file to read. Same commands, same errors as src/cli.ts.
 */
import { capacity } from './commands/capacity.js';
import { notify } from './commands/notify.js';
import { describeError } from './errorReport.js';

const [name, ...args] = process.argv.slice(2);
const command = name === 'notify' ? notify : capacity;
command({
  args,
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
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

/**
 * `swarm up [file] [--headless] [--until-done] [--timeout D]` (SPEC 8): start or re-adopt the swarm.
 * This build runs the engine in the foreground and prints one line per event (the headless log);
 * the dashboard comes with its own issue and reads the same store.
 */
import { parseArgs } from 'node:util';
import { dirname } from 'node:path';
import { parseDuration } from '../core/duration.js';
import { formatEntry, type JournalEntry } from '../core/journal.js';
import { UsageError } from '../errors.js';
import { loadConfig } from '../adapters/configFile.js';
import { startSwarm } from '../runtime/swarm.js';
import { sessionName, tmuxSocket } from '../runtime/hostFor.js';
import type { CommandIO } from './io.js';

const USAGE = 'usage: swarm up [file] [--headless] [--until-done] [--timeout D]';

export async function up(io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: io.args,
      allowPositionals: true,
      strict: true,
      options: { headless: { type: 'boolean' }, 'until-done': { type: 'boolean' }, timeout: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(`swarm up: ${(error as Error).message}`, { hint: USAGE });
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError('swarm up takes one swarm file', { hint: USAGE });
  let timeoutMs: number | null = null;
  if (values.timeout !== undefined) {
    const d = parseDuration(values.timeout);
    if (!d.ok) throw new UsageError(`swarm up --timeout: ${d.error}`, { hint: USAGE });
    timeoutMs = d.ms;
  }
  const config = loadConfig(positionals[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env });
  const interactive = Boolean(process.stdout.isTTY) && !values.headless && !io.env.CI;
  const untilDone = values['until-done'] ?? true;

  const swarm = await startSwarm(config, { env: io.env, untilDone, timeoutMs });
  const { engine } = swarm;
  const where = engine.host.kind === 'tmux'
    ? `tmux session ${sessionName(config)} on socket ${tmuxSocket(io.env)} (watch: tmux -L ${tmuxSocket(io.env)} attach -t ${sessionName(config)})`
    : 'embedded pseudo-terminals (panes end with this process)';
  io.stdout(`swarm ${config.name}: plan ${config.plan}, lead ${engine.state.leadAgent}@${engine.state.epoch}, ${config.lanes.length} lanes, ${where}\n`);
  if (interactive) io.stdout('swarm: the dashboard is not in this build; showing the headless log\n');
  else if (io.env.CI) io.stdout('swarm: CI is set, so the headless log is shown\n');

  const printed = new WeakSet<JournalEntry>();
  const relativeTo = dirname(config.plan);
  const print = (events: JournalEntry[]) => {
    for (const entry of events) {
      if (printed.has(entry)) continue;
      printed.add(entry);
      if (entry.event === 'ignored') continue;
      io.stdout(`${formatEntry(entry, { relativeTo })}\n`);
    }
  };
  print(engine.store.getState().events);
  const unsubscribe = engine.store.subscribe((s) => print(s.events));

  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    void swarm.detach().then(() => {
      io.stdout('swarm: detached — the panes keep running; `swarm up` re-adopts them, `swarm down` stops them\n');
      process.exitCode = 1;
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const outcome = await swarm.finished;
  if (interrupted) return 1;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  unsubscribe();
  await swarm.detach();
  io.stdout(outcome.code === 0 ? `swarm ${config.name}: plan done\n` : `swarm ${config.name}: stopped short — ${outcome.why}\n`);
  return outcome.code;
}

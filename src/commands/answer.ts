/**
 * `swarm answer <lane> <text> [--file swarm.yaml]` (SPEC 8): the developer answers an escalation.
 * Recorded verbatim as the developer's, for a lane of this swarm only; refused inside a swarm pane
 * (SWARM_LANE set, or, whatever the environment, the process tree or terminal of one: paneGuard.ts),
 * exit 2, so no agent speaks as the developer. The running engine takes it while this process waits
 * (adapters/answers.ts, runtime/answers.ts): with no engine, exit 4 and nothing recorded.
 */
import { parseArgs } from 'node:util';
import { checkLaneName, swarmLanes } from '../core/swarm/lanes.js';
import { planPaths } from '../core/plan/paths.js';
import { DependencyError, MismatchError, UsageError } from '../errors.js';
import { offerAnswer } from '../adapters/answers.js';
import { liveHolder } from '../adapters/lock.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { loadState } from '../runtime/engineState.js';
import { openRun } from '../runtime/runEnd.js';
import { swarmPaneVerdict } from './paneGuard.js';
import { loadSwarmConfig } from './planDir.js';
import type { CommandIO } from './io.js';
import { argsProblem } from './argsProblem.js';

/** How long `swarm answer` waits for the engine to take its answer (it looks at once, and every 2 s at most). */
const ANSWER_WAIT_MS = 20_000;

const USAGE = 'usage: swarm answer <lane> <text> [--file swarm.yaml]';

export async function answer(io: CommandIO): Promise<number> {
  if (io.env.SWARM_LANE) {
    throw new UsageError(`swarm answer is the developer's, and this shell is swarm pane ${io.env.SWARM_LANE}`, {
      hint: 'run it from your own terminal; agents report with `swarm notify lead "blocked <class> <what>"`',
    });
  }
  let parsed;
  try {
    parsed = parseArgs({ args: io.args, allowPositionals: true, strict: true, options: { file: { type: 'string', short: 'f' } } });
  } catch (error) {
    throw new UsageError(`swarm answer: ${argsProblem(error, USAGE)}`, { hint: USAGE });
  }
  const [lane, ...words] = parsed.positionals;
  const text = words.join(' ');
  if (!lane || text.trim() === '') throw new UsageError('swarm answer needs a lane and the answer', { hint: USAGE });
  const config = await loadSwarmConfig({ ...io, env: { ...io.env, SWARM_PLAN: undefined } }, parsed.values.file);
  const plan = config.plan;
  const pane = await swarmPaneVerdict(config, io.env);
  if (pane.inside) {
    throw new UsageError(`swarm answer is the developer's, and this process runs in a pane of swarm ${config.name}: ${pane.why}`, {
      hint: "run it from your own terminal, outside the swarm's tmux session; agents report with `swarm notify lead \"blocked <class> <what>\"`",
    });
  }
  const record = readLeadRecord(plan);
  const state = loadState(planPaths(plan).state);
  const known = swarmLanes({
    leadName: config.lead.name,
    configLanes: config.lanes.map((l) => l.name),
    recordLead: record?.lead ?? null,
    recordLanes: record?.lanes ?? [],
    addedLanes: (state?.added ?? []).map((l) => l.name),
  });
  const verdict = checkLaneName(lane, known, config.name);
  if (!verdict.ok) throw new UsageError(`swarm answer: ${verdict.message}`, { hint: USAGE });
  // From a plain shell: the record carries the plan's open run (core/swarm/runs.ts), read from its state.
  const run = openRun(state);
  // The engine takes it while this process waits and holds it open (SPEC 10.3: no file an agent
  // writes can pass for the developer's); with no engine running, nobody could check it later.
  if (liveHolder(planPaths(plan).lock) === null) {
    throw new DependencyError(`swarm answer: no swarm engine runs for ${config.name}, so nothing was recorded`, {
      hint: 'start it with `swarm up` (it re-adopts the live panes), then answer again',
    });
  }
  const offered = await offerAnswer(plan, { ts: new Date().toISOString(), to: lane, text, run }, ANSWER_WAIT_MS);
  if (offered.taken === true) {
    io.stdout(`swarm: answer delivered to ${lane} (recorded verbatim as yours)\n`);
    return 0;
  }
  if (offered.taken === false) throw new MismatchError(`fenced: swarm answer was refused: ${offered.why}`, [offered.why], { hint: 'run it from your own terminal, outside the swarm\'s tmux session' });
  throw new DependencyError(`swarm answer: the engine of ${config.name} did not take the answer within ${ANSWER_WAIT_MS / 1000} s; nothing was recorded`, {
    hint: 'see `swarm status` (is the engine stuck or stopping?) and answer again',
  });
}

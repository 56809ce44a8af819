/** Where a plan keeps its files (SPEC 2). Pure path arithmetic. */
import { join } from 'node:path';

export interface PlanPaths {
  plan: string;
  planFile: string;
  journal: string;
  leadRecord: string;
  handoffDir: string;
  swarmDir: string;
  state: string;
  lock: string;
  leasesDir: string;
  promptsDir: string;
  logsDir: string;
  mailboxDir: string;
  capacityDir: string;
  /** Each agent's own records (SPEC 10.3): `spool/r<run>/<name>-g<generation>/records.jsonl`. */
  spoolDir: string;
  /** The developer's answers waiting for the engine to check who wrote them (commands/answer.ts). */
  answersDir: string;
  /** The agents swarm started: one file per pane process (core/authority/agents.ts). */
  agentsDir: string;
}

export function planPaths(planDir: string): PlanPaths {
  const swarmDir = join(planDir, '.swarm');
  return {
    plan: planDir,
    planFile: join(planDir, 'PLAN.md'),
    journal: join(planDir, 'journal.jsonl'),
    leadRecord: join(planDir, 'lead.json'),
    handoffDir: join(planDir, 'analysis_results', 'handoff'),
    swarmDir,
    state: join(swarmDir, 'state.json'),
    lock: join(swarmDir, 'lock'),
    leasesDir: join(swarmDir, 'leases'),
    promptsDir: join(swarmDir, 'prompts'),
    logsDir: join(swarmDir, 'logs'),
    mailboxDir: join(swarmDir, 'mailbox'),
    capacityDir: join(swarmDir, 'capacity'),
    spoolDir: join(swarmDir, 'spool'),
    answersDir: join(swarmDir, 'answers'),
    agentsDir: join(swarmDir, 'agents'),
  };
}

/** The folder of one run's files inside a per-run folder of the plan (prompts, logs, sim accounts): `run-<N>`. */
export function runFolder(dir: string, run: number): string {
  return join(dir, `run-${run}`);
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The mailbox file of one agent (lane or lead name): `<name>.md` in the mailbox folder. A name that
 * is no plain lane name (a `/`, `..`, a control character) is escaped into one file name there, with
 * a leading `_` no lane name has, so whatever the name, the path stays inside the mailbox folder.
 */
export function mailboxPath(planDir: string, name: string): string {
  const file = SAFE_NAME.test(name) ? name : `_${encodeURIComponent(name).replace(/\./g, '%2E')}`;
  return join(planPaths(planDir).mailboxDir, `${file}.md`);
}

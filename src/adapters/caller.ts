/**
 * Whose is this command (SPEC 10.3)? The agent whose recorded pane process is among its ancestors
 * (adapters/agentRegistry.ts) — never what SWARM_LANE or SWARM_ROLE say. In a sandbox (another pid
 * namespace, no ancestor visible) the agent whose spool SWARM_SPOOL names: the sandbox lets it
 * write that spool alone, so its records are attributed by where they lie, as every record is. A command of an agent run
 * outside every pane swarm started is refused: `fenced` journaled, exit 3, nothing written.
 */
import { resolve } from 'node:path';
import { agentContext, agentPlan, type AgentContext, type LeadsOnly } from '../core/protocol/agentContext.js';
import type { AgentRecord } from '../core/authority/agents.js';
import { MismatchError } from '../errors.js';
import { agentOf, agentOfSoon, agentOfSpool } from './agentRegistry.js';
import { appendJournal } from './journal.js';
import { requirePlanFolder } from './planFolder.js';

/**
 * How long a command waits for its agent's record when its environment says it is in a pane: the
 * engine writes the record a moment after the pane starts. Waiting grants nothing; it only spares an
 * agent's first command a refusal.
 */
const RECORD_WAIT_MS = 3000;

/**
 * The command's agent. `io.agent`: an identity injected in-process (a test's fake pane host, which
 * runs agents' commands in its own process); the CLI never sets it.
 */
export async function callerContext(io: { env: NodeJS.ProcessEnv; agent?: AgentRecord }, command: string, leadsOnly?: LeadsOnly): Promise<AgentContext> {
  const { env } = io;
  const plan = resolve(agentPlan(env, command, leadsOnly));
  requirePlanFolder(plan, command);
  // A sandboxed agent (another pid namespace) is known by its spool; every other caller by ancestry.
  const agent = io.agent ?? (await agentOfSoon(plan, env.SWARM_LANE || env.SWARM_SPOOL ? RECORD_WAIT_MS : 0, env.SWARM_SPOOL));
  if (agent) return agentContext(env, plan, agent);
  const claimed = env.SWARM_LANE?.trim() ? ` (its environment says ${env.SWARM_LANE.trim()}, which grants nothing)` : '';
  const reason = `swarm ${command} ran outside every pane swarm started for this plan${claimed}`;
  try {
    appendJournal(plan, { type: 'intervention', event: 'fenced', lane: null, command, reason });
  } catch {
    // the refusal stands whether or not the journal takes it
  }
  throw new MismatchError(`fenced: ${reason}`, [reason], {
    hint: leadsOnly
      ? `only the swarm's lead ${leadsOnly.does}, from its own pane: ask it there (\`swarm attach\`)`
      : 'agents report from the pane swarm started them in; as the developer, answer a lane with `swarm answer <lane> <text>`',
  });
}

/**
 * Whether the command runs sandboxed (another pid namespace, known by its spool): it may write its
 * spool alone, so what it would put in the plan's shared folders goes there for the engine to publish.
 */
export function sandboxed(plan: string, env: NodeJS.ProcessEnv): boolean {
  return agentOfSpool(plan, env.SWARM_SPOOL) !== null;
}

/**
 * The developer's commands (`swarm up`, `swarm down`) are those run outside every pane (SPEC 10.3):
 * run by an agent, under a pane swarm recorded for this plan, they are refused, `fenced`, exit 3.
 */
export function refuseFromAgent(plan: string, command: string): void {
  const agent = agentOf(plan);
  if (agent === null) return;
  const reason = `swarm ${command} is the developer's, and this process runs under the pane of ${agent.lane} g${agent.generation}`;
  try {
    appendJournal(plan, { type: 'intervention', event: 'fenced', lane: agent.lane, generation: agent.generation, command, reason });
  } catch {
    // the refusal stands whether or not the journal takes it
  }
  throw new MismatchError(`fenced: ${reason}`, [reason], { hint: 'run it from your own terminal, outside the swarm\'s tmux session' });
}

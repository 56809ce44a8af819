/**
 * The context an agent's `swarm` commands run in (SPEC 4.1, 10.3): who the agent is comes from the
 * record swarm made of its pane (core/authority/agents.ts), found by the command's process ancestry;
 * the SWARM_* environment only says which plan to look in and carries what is knowledge, not
 * authority (the epoch it last heard of, its mailbox, its packet). Pure: the record and the
 * environment are passed in.
 */
import { UsageError } from '../../errors.js';
import type { AgentRecord } from '../authority/agents.js';

export type Role = 'lead' | 'lane' | 'reviewer';

export interface AgentContext {
  plan: string;
  lane: string;
  role: Role;
  account: string;
  generation: number;
  epoch: number | null;
  /** The run the agent was started in. */
  run: number | null;
  /** Its spool (`r<run>/<name>-g<N>`, under the plan's `.swarm/spool/`): where its records go. */
  spool: string;
  config: string | null;
  kind: string | null;
  mailbox: string | null;
  packet: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A command only the lead runs (`lane add`, `lead handover`): outside every pane it is told as the
 * lead's, never with variables to set by hand (they make no shell the lead: SPEC's authority).
 * `does` completes "only the swarm's lead …", e.g. "adds lanes".
 */
export interface LeadsOnly {
  does: string;
  ask: string;
}

/** The plan an agent's command looks in (SWARM_PLAN): a usage error without it. */
export function agentPlan(env: Env, command: string, leadsOnly?: LeadsOnly): string {
  const plan = env.SWARM_PLAN?.trim();
  if (plan) return plan;
  if (leadsOnly) {
    throw new UsageError(`swarm ${command} is the lead's: only the swarm's lead ${leadsOnly.does}, from its own pane (no SWARM_PLAN here)`, {
      hint: `ask the lead in its pane (\`swarm attach\`) to ${leadsOnly.ask}; variables set by hand make no shell the lead`,
    });
  }
  throw new UsageError(`swarm ${command} runs inside a swarm pane: SWARM_PLAN not set`, {
    hint: 'agents get it from `swarm up`, and swarm knows them by the pane it started them in; it is not a command to run by hand',
  });
}

/** The context of the agent `agent` (found by ancestry) with what its environment knows; every malformed variable named in one error. */
export function agentContext(env: Env, plan: string, agent: AgentRecord): AgentContext {
  const problems: string[] = [];
  const epochText = env.SWARM_EPOCH?.trim();
  // A promoted agent's record names the epoch it leads at (its pane's SWARM_EPOCH is older).
  const epoch = agent.epoch ?? (epochText ? checkedNumber(epochText, 'SWARM_EPOCH', 0, problems) : null);
  if (problems.length > 0) throw new UsageError(problems.join('; '), { hint: 'these come from `swarm up`; a pane whose environment was changed by hand cannot report' });
  return {
    plan,
    lane: agent.lane,
    role: agent.role,
    account: agent.account,
    generation: agent.generation,
    epoch,
    run: agent.run,
    spool: agent.spool,
    config: env.SWARM_CONFIG?.trim() || null,
    kind: env.SWARM_KIND?.trim() || null,
    mailbox: env.SWARM_MAILBOX?.trim() || null,
    packet: env.SWARM_PACKET?.trim() || null,
  };
}

function checkedNumber(text: string, name: string, min: number, problems: string[]): number {
  try {
    return wholeNumber(text, name, min);
  } catch (error) {
    problems.push((error as Error).message);
    return min;
  }
}

export function wholeNumber(text: string, name: string, min: number): number {
  const value = text.trim();
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`${name} must be a whole number ≥ ${min}, got "${value}"`);
  }
  return Number(value);
}

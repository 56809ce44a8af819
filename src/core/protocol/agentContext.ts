/**
 * The context an agent's `swarm` commands run in, read from the SWARM_* environment of its pane
 * (SPEC 4.1). Pure: the environment is passed in.
 */
import { UsageError } from '../../errors.js';

export type Role = 'lead' | 'lane';

export interface AgentContext {
  plan: string;
  lane: string;
  role: Role;
  account: string;
  generation: number;
  epoch: number | null;
  /** The run the pane was started in (SWARM_RUN); null outside one (an older pane, a hand-made environment). */
  run: number | null;
  config: string | null;
  kind: string | null;
  mailbox: string | null;
  packet: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

const REQUIRED = ['SWARM_PLAN', 'SWARM_LANE', 'SWARM_ROLE', 'SWARM_ACCOUNT', 'SWARM_GENERATION'] as const;

/**
 * A command only the lead runs (`lane add`, `lead handover`): outside every pane it is told as the
 * lead's, never with variables to set by hand (they make no shell the lead: SPEC's authority).
 * `does` completes "only the swarm's lead …", e.g. "adds lanes".
 */
export interface LeadsOnly {
  does: string;
  ask: string;
}

/** Read the agent context; every missing or malformed variable is named in one error. */
export function agentContext(env: Env, command: string, leadsOnly?: LeadsOnly): AgentContext {
  const missing = REQUIRED.filter((name) => !env[name]?.trim());
  if (missing.length > 0 && leadsOnly) {
    throw new UsageError(`swarm ${command} is the lead's: only the swarm's lead ${leadsOnly.does}, from its own pane (no ${missing.join(', ')} here)`, {
      hint: `ask the lead in its pane (\`swarm attach\`) to ${leadsOnly.ask}; variables set by hand make no shell the lead`,
    });
  }
  if (missing.length > 0) {
    throw new UsageError(`swarm ${command} runs inside a swarm pane: ${missing.join(', ')} not set`, {
      hint: 'agents get these from `swarm up`; to try it by hand, export SWARM_PLAN=<plan dir> SWARM_LANE=<name> SWARM_ROLE=lane SWARM_ACCOUNT=<id> SWARM_GENERATION=1',
    });
  }
  const problems: string[] = [];
  const role = env.SWARM_ROLE!.trim();
  if (role !== 'lead' && role !== 'lane') problems.push(`SWARM_ROLE must be "lead" or "lane", got "${role}"`);
  const generation = checkedNumber(env.SWARM_GENERATION!, 'SWARM_GENERATION', 1, problems);
  const epochText = env.SWARM_EPOCH?.trim();
  const epoch = epochText ? checkedNumber(epochText, 'SWARM_EPOCH', 0, problems) : null;
  const runText = env.SWARM_RUN?.trim();
  const run = runText ? checkedNumber(runText, 'SWARM_RUN', 1, problems) : null;
  if (problems.length > 0) throw new UsageError(problems.join('; '), { hint: 'these come from `swarm up`; a pane whose environment was changed by hand cannot report' });
  return {
    plan: env.SWARM_PLAN!.trim(),
    lane: env.SWARM_LANE!.trim(),
    role: role as Role,
    account: env.SWARM_ACCOUNT!.trim(),
    generation,
    epoch,
    run,
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

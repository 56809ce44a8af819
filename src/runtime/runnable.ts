/**
 * Which accounts can start an agent: a lead or lane without a `command:` needs a kind with a
 * launch of its own, so an account of a `launch: null` kind (the `command` kind) is never picked
 * for it — neither for its first generation nor for a successor. loadConfig has refused a lane
 * that names such an account, or that no other account could start.
 */
import type { Account, CommandSpec, SwarmConfig } from '../core/config/config.js';
import { loadKind } from '../adapters/kinds.js';
import type { EngineState } from './engineState.js';

/** What the pool needs of the engine (not the engine: no import cycle). */
export interface RunnableEngine {
  readonly config: Pick<SwarmConfig, 'lead' | 'lanes' | 'accounts' | 'dir'>;
  readonly state: Pick<EngineState, 'leadName' | 'added'>;
}

/** The `command:` of the lead or of a lane (from swarm.yaml or `lane add`); null: the kind's own launch. */
export function commandOf(engine: RunnableEngine, name: string): CommandSpec {
  const { config, state } = engine;
  if (name === state.leadName) return config.lead.command;
  return config.lanes.find((l) => l.name === name)?.command ?? state.added.find((l) => l.name === name)?.command ?? null;
}

/**
 * The pool accounts that can start the lead or lane `name`: without a `command:`, never one of a
 * kind with `launch: null` (it would fail to start and leave its lease behind).
 */
export function runnablePool(engine: RunnableEngine, name: string): Account[] {
  const { accounts, dir } = engine.config;
  return commandOf(engine, name) !== null ? accounts : accounts.filter((a) => loadKind(a.kind, dir).launch !== null);
}

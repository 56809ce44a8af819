/**
 * Which accounts can start an agent: a lead or lane without a `command:` needs a kind with a
 * launch of its own, so an account of a `launch: null` kind (the `command` kind) is never picked
 * for it — neither for its first generation nor for a successor. loadConfig has refused a lane
 * that names such an account, or that no other account could start.
 */
import type { Account, CommandSpec } from '../core/config.js';
import { loadKind } from '../adapters/kinds.js';
import type { Engine } from './engine.js';

/** The `command:` of the lead or of a lane (from swarm.yaml or `lane add`); null: the kind's own launch. */
export function commandOf(engine: Engine, name: string): CommandSpec {
  const { config, state } = engine;
  if (name === state.leadName) return config.lead.command;
  return config.lanes.find((l) => l.name === name)?.command ?? state.added.find((l) => l.name === name)?.command ?? null;
}

/**
 * The pool accounts that can start the lead or lane `name`: without a `command:`, never one of a
 * kind with `launch: null` (it would fail to start and leave its lease behind).
 */
export function runnablePool(engine: Engine, name: string): Account[] {
  const { accounts, dir } = engine.config;
  return commandOf(engine, name) !== null ? accounts : accounts.filter((a) => loadKind(a.kind, dir).launch !== null);
}

/**
 * Fault knobs of the simulated agent, for tests and demos. Pure: the environment and the generation
 * in, the faults that apply out. They apply to generation 1 only, unless SIM_FAULT_ALL=1.
 *
 * - SIM_CRASH_AT=<step>        exit 1 before that step
 * - SIM_PERMISSION_AT=<step>   show the permission screen before that step and wait forever
 * - SIM_USAGE_LIMIT_AT=<step>  show the usage-limit screen before that step and stop working
 * - SIM_BAD_PACKET=1           chmod the packet 0644 before reporting it (the first time)
 * - SIM_IGNORE_HANDOFF=1       never hand off; after the last step report nothing
 * - SIM_STALE_PUSH=1           (a lead) once it has handed over, try once to push a commit to the
 *                              base branch, as a confused stale lead would (swarm's hooks refuse it)
 */
import { UsageError, excerpt } from '../errors.js';

export interface Faults {
  crashAt: number | null;
  permissionAt: number | null;
  usageLimitAt: number | null;
  badPacket: boolean;
  ignoreHandoff: boolean;
  stalePush: boolean;
}

export const NO_FAULTS: Faults = { crashAt: null, permissionAt: null, usageLimitAt: null, badPacket: false, ignoreHandoff: false, stalePush: false };

type Env = Readonly<Record<string, string | undefined>>;

function stepOf(env: Env, name: string): number | null {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return null;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`${name}=${excerpt(text)} is not a step number: expected 1 or more`, { hint: `unset ${name}, or name a step of the lane (1 = the first)` });
  }
  return Number(text);
}

function flag(env: Env, name: string): boolean {
  const text = env[name]?.trim().toLowerCase();
  if (text === undefined || text === '' || text === '0' || text === 'false') return false;
  if (text === '1' || text === 'true') return true;
  throw new UsageError(`${name}=${excerpt(text)} is not understood: expected 1 or 0`);
}

/** The faults for this generation; every knob is checked even when it does not apply. */
export function faultsFor(env: Env, generation: number): Faults {
  const faults: Faults = {
    crashAt: stepOf(env, 'SIM_CRASH_AT'),
    permissionAt: stepOf(env, 'SIM_PERMISSION_AT'),
    usageLimitAt: stepOf(env, 'SIM_USAGE_LIMIT_AT'),
    badPacket: flag(env, 'SIM_BAD_PACKET'),
    ignoreHandoff: flag(env, 'SIM_IGNORE_HANDOFF'),
    stalePush: flag(env, 'SIM_STALE_PUSH'),
  };
  return generation === 1 || flag(env, 'SIM_FAULT_ALL') ? faults : NO_FAULTS;
}

export type StepFault = 'crash' | 'permission' | 'usage_limit';

/** The fault due before step `n`, if any (crash first, then permission, then the usage limit). */
export function faultBefore(faults: Faults, n: number): StepFault | null {
  if (faults.crashAt === n) return 'crash';
  if (faults.permissionAt === n) return 'permission';
  if (faults.usageLimitAt === n) return 'usage_limit';
  return null;
}

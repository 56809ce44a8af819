/**
 * `swarm validate [file]`: check swarm.yaml and the kind files it names (loadConfig reads every
 * field of both, as `swarm up` does before it starts anything) and PLAN.md's `approvals:`; print one
 * line when all is well, throw the ConfigError (every problem as FILE:LINE:COL) when not.
 */
import path from 'node:path';
import { loadConfig } from '../adapters/configFile.js';
import { accountKeys } from '../adapters/leaseFiles.js';
import { sharedKeys } from '../core/accounts/leaseKey.js';
import { loadKinds } from '../kinds/index.js';
import type { SwarmConfig } from '../core/config/config.js';
import { parseApprovals } from '../core/plan/approvals.js';
import { planPaths } from '../core/plan/paths.js';
import { readPlanText } from '../adapters/planFile.js';
import { ConfigError, UsageError } from '../errors.js';
import type { Command } from './io.js';

const USAGE = 'usage: swarm validate [file]';

export interface ValidateIo {
  stdout: (s: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Run `swarm validate`; returns the exit code (0) or throws UsageError / ConfigError (exit 2). */
export async function validate(args: string[], io: ValidateIo): Promise<number> {
  const files = args.filter((arg) => arg === '-' || !arg.startsWith('-'));
  const flag = args.find((arg) => arg !== '-' && arg.startsWith('-'));
  if (flag !== undefined) throw new UsageError(`unknown flag "${flag}" for validate — ${USAGE}`);
  if (files.length > 1) throw new UsageError(`validate takes one file, got ${files.length} — ${USAGE}`);
  const file = files[0] ?? 'swarm.yaml';
  const config = loadConfig(file, { cwd: io.cwd, env: io.env });
  const problems = checkApprovals(config, io.cwd);
  if (problems.length > 0) throw new ConfigError(problems);
  io.stdout(`${summary(file, config)}\n${akLines(config)}${await oneAccountLines(config, io.env)}${successionLine(config)}${hostLines(config)}`);
  return 0;
}

/**
 * Ids on one profile folder (SPEC 10.4): one account to swarm — one lease at a time on the machine,
 * one reading, one limit. Said, not refused: a profile may be named twice on purpose (two roles).
 */
async function oneAccountLines(config: SwarmConfig, env: NodeJS.ProcessEnv): Promise<string> {
  const kinds = await loadKinds(config.accounts.map((a) => a.kind));
  const keys = accountKeys(config.accounts, kinds, config.file, env);
  return sharedKeys(keys).map((ids) => {
    const folder = keys.get(ids[0]!)!.replace(/^[^:]*:profile:/, '');
    return `  accounts ${ids.join(', ')} are one account: one profile folder (${folder}); swarm gives it to one agent at a time on this machine and shares its readings and limits\n`;
  }).join('');
}

/** The CLI entry: `swarm validate [file]` with the command's I/O. */
export const validateCommand: Command = (io) => validate(io.args, io);

/** `swarm.yaml: ok — swarm "demo", plan plans/demo, lead lead@work1, 3 lanes, 6 accounts (2 vendors), backend auto` */
export function summary(file: string, config: SwarmConfig): string {
  const plan = path.relative(config.dir, config.plan) || '.';
  const vendors = new Set(config.accounts.map((a) => a.vendor)).size;
  return `${file}: ok — swarm "${config.name}", plan ${plan}, lead ${config.lead.name}@${config.lead.account}, `
    + `${count(config.lanes.length, 'lane')}, ${count(config.accounts.length, 'account')} (${count(vendors, 'vendor')}), backend ${config.backend}`;
}

/** The succession swarm.yaml left out, as swarm fills it in (SPEC 10.5). */
function successionLine(config: SwarmConfig): string {
  if (config.lead.successionDefault !== true) return '';
  return `  lead succession (default, no "succession:" given): ${config.lead.succession.join(', ')}\n`;
}

/** Each lane on another host (SPEC 10.9): valid, checked by doctor, not run by this build. */
function hostLines(config: SwarmConfig): string {
  return config.lanes.filter((l) => l.host !== undefined)
    .map((l) => `  lane ${l.name} runs on host ${l.host} (${l.checkout} there): swarm doctor checks the host, swarm up reaches it over ssh\n`).join('');
}

/** Where each `ak_profile` resolved to (the account's profile folder), one line an account. */
function akLines(config: SwarmConfig): string {
  return config.accounts.filter((a) => a.akProfile !== null)
    .map((a) => `  account ${a.id}: ak_profile ${a.akProfile} → ${Object.entries(a.env).map(([k, v]) => `${k}=${v}`).join(' ')}\n`).join('');
}

/** PLAN.md's `approvals:` (the developer's prior approval), each problem as PLAN.md:LINE:COL. A plan without PLAN.md has none. */
function checkApprovals(config: SwarmConfig, cwd: string): string[] {
  const file = planPaths(config.plan).planFile;
  let text: string | null;
  try {
    text = readPlanText(config.plan);
  } catch (error) {
    return [(error as Error).message];
  }
  if (text === null) return [];
  const result = parseApprovals(text);
  if (result.ok) return [];
  const shown = path.relative(cwd, file) || file;
  return result.problems.map((p) => `${shown}:${p.line}:${p.col}: ${p.message}`);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

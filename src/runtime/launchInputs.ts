/**
 * What a kind's launch needs from the disk (signals wiring, profiles, approvals), read only, never written: the plan's
 * approvals, the profile folder, the user's own status line (Claude) and notify (Codex). The
 * rules are pure (core/plan/approvals.ts, core/launch/signals.ts, kinds/codex/toml.ts); this reads the files.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { approvalFlags, NO_APPROVALS, parseApprovals, type ApprovalFlags } from '../core/plan/approvals.js';
import type { Account } from '../core/config/config.js';
import type { KindSpec } from '../core/config/kindFile.js';
import { claudeSettings, codexNotify, userStatusLine } from '../core/launch/signals.js';
import { planPaths } from '../core/plan/paths.js';
import { userNotify } from '../kinds/codex/toml.js';
import { UsageError } from '../errors.js';
import { readTextIfExists } from '../adapters/files.js';
import { readPlanText } from '../adapters/planFile.js';

/** The profile folder a kind reads when the account names none. */
const DEFAULT_PROFILE: Record<string, string> = { claude: '.claude', codex: '.codex' };

/** The account's profile folder for a kind: its account_env value, else the kind's default under HOME. */
export function profileDir(kind: KindSpec, account: Pick<Account, 'env'>, home: string | undefined): string | null {
  const named = kind.accountEnv === null ? undefined : account.env[kind.accountEnv];
  if (named !== undefined && named !== '') return named;
  const fallback = DEFAULT_PROFILE[kind.kind];
  return fallback === undefined || home === undefined ? null : join(home, fallback);
}

/**
 * Refuse to start Codex on a CODEX_HOME that is not a folder: Codex exits at once ("CODEX_HOME
 * must exist"). `swarm doctor` says the same.
 */
export function checkProfile(kind: KindSpec, account: Pick<Account, 'id' | 'env'>): void {
  if (kind.kind !== 'codex' || kind.accountEnv === null) return;
  const dir = account.env[kind.accountEnv];
  if (dir === undefined || dir === '' || isDirectory(dir)) return;
  throw new UsageError(`account "${account.id}": ${kind.accountEnv} ${dir} is not a folder, and Codex starts only in an existing one`, {
    hint: `create it and sign in there (CODEX_HOME=${dir} codex login), or fix env.${kind.accountEnv} of the account in swarm.yaml`,
  });
}

/** The plan's approvals as flags for this kind; throws UsageError (PLAN.md:line:col) when they are not valid. */
export function planApprovalFlags(kindName: string, plan: string): ApprovalFlags {
  const file = planPaths(plan).planFile;
  const result = parseApprovals(readPlanText(plan) ?? '');
  if (!result.ok) {
    throw new UsageError(`the approvals in ${file} are not valid: ${result.problems.map((p) => `${file}:${p.line}:${p.col}: ${p.message}`).join('; ')}`, {
      hint: 'fix approvals: in the front matter of PLAN.md (swarm validate lists every problem), or remove it to keep the agents\' defaults',
    });
  }
  return approvalFlags(kindName, result.ok ? result.approvals : NO_APPROVALS);
}

/** Claude's inline settings, with the user's status line (checkout's local, then project, then profile settings) run after swarm's. */
export function settingsFor(swarmBin: string, checkout: string, profile: string | null): string {
  const files = [join(checkout, '.claude', 'settings.local.json'), join(checkout, '.claude', 'settings.json'), ...(profile === null ? [] : [join(profile, 'settings.json')])];
  return claudeSettings(swarmBin, userStatusLine(files.map(readUserFile)));
}

/** Codex's notify override, with the user's own notify (the profile's config.toml) run after swarm's. */
export function notifyFor(swarmBin: string, profile: string | null): string {
  const text = profile === null ? null : readUserFile(join(profile, 'config.toml'));
  return codexNotify(swarmBin, text === null ? null : userNotify(text));
}

/** A file of the user's, or null when it cannot be read (theirs is then left out, the start goes on). */
function readUserFile(path: string): string | null {
  try {
    return readTextIfExists(path);
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * What a kind's launch needs from the disk, read only, never written: the plan's approvals and the
 * account's profile folder. What each kind reads of the user's own files (Claude's status line,
 * Codex's notify) is its own (kinds/<kind>/launch.ts).
 */
import { join } from 'node:path';
import { NO_APPROVALS, parseApprovals, type ApprovalFlags } from '../core/plan/approvals.js';
import type { Account } from '../core/config/config.js';
import type { KindSpec } from '../core/config/kindFile.js';
import { planPaths } from '../core/plan/paths.js';
import { UsageError } from '../errors.js';
import { readPlanText } from '../adapters/planFile.js';
import type { Kind } from '../kinds/kind.js';

/** The account's profile folder for a kind: its account_env value, else the kind's default under HOME. */
export function profileDir(spec: KindSpec, kind: Kind, account: Pick<Account, 'env'>, home: string | undefined): string | null {
  const named = spec.accountEnv === null ? undefined : account.env[spec.accountEnv];
  if (named !== undefined && named !== '') return named;
  return kind.profile === null || home === undefined ? null : join(home, kind.profile.home);
}

/**
 * The plan's approvals as flags for this kind, with the folders its sandbox must let it write;
 * throws UsageError (PLAN.md:line:col) when they are not valid.
 */
export function planApprovalFlags(kind: Kind, plan: string, writable: readonly string[] = []): ApprovalFlags {
  const file = planPaths(plan).planFile;
  const result = parseApprovals(readPlanText(plan) ?? '');
  if (!result.ok) {
    throw new UsageError(`the approvals in ${file} are not valid: ${result.problems.map((p) => `${file}:${p.line}:${p.col}: ${p.message}`).join('; ')}`, {
      hint: 'fix approvals: in the front matter of PLAN.md (swarm validate lists every problem), or remove it to keep the agents\' defaults',
    });
  }
  return kind.launch.approvals(result.ok ? result.approvals : NO_APPROVALS, writable);
}

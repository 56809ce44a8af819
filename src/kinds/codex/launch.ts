/**
 * How Codex is started: `-c notify=["<swarm_bin>","hook","codex-notify"]` wires its turn ends to
 * swarm (Codex runs it with the turn JSON appended as the last argument). When the user's config.toml
 * has a notify, it becomes `[…,"codex-notify","--then","<their argv as a JSON array>"]`: swarm then
 * runs their argv (no shell) with the same JSON appended, as Codex would have. A CODEX_HOME that is
 * no folder is refused before the start (Codex exits at once: "CODEX_HOME must exist").
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Account } from '../../core/config/types.js';
import type { ApprovalFlags, CodexApprovals } from '../../core/plan/approvals.js';
import { UsageError } from '../../errors.js';
import { readUserFile } from '../../adapters/files.js';
import { tomlStringArray, userNotify } from './toml.js';

/** The TOML array for Codex's `-c notify=…`: swarm's hook, running the user's notify after it. */
export function codexNotify(swarmBin: string, userArgv: readonly string[] | null): string {
  const then = userArgv === null || userArgv.length === 0 ? [] : ['--then', JSON.stringify(userArgv)];
  return tomlStringArray([swarmBin, 'hook', 'codex-notify', ...then]);
}

/** Codex's notify override, with the user's own notify (the profile's config.toml) run after swarm's. */
export function notifyFor(swarmBin: string, profile: string | null): string {
  const text = profile === null ? null : readUserFile(join(profile, 'config.toml'));
  return codexNotify(swarmBin, text === null ? null : userNotify(text));
}

/** Refuse to start Codex on a CODEX_HOME that is not a folder. `swarm doctor` says the same. */
export function checkCodexProfile(account: Pick<Account, 'id' | 'env'>, profileEnv: string | null): void {
  if (profileEnv === null) return;
  const dir = account.env[profileEnv];
  if (dir === undefined || dir === '' || isDirectory(dir)) return;
  throw new UsageError(`account "${account.id}": ${profileEnv} ${dir} is not a folder, and Codex starts only in an existing one`, {
    hint: `create it and sign in there (CODEX_HOME=${dir} codex login), or fix env.${profileEnv} of the account in swarm.yaml`,
  });
}

/**
 * The plan's `approvals.codex` as Codex's flags. Under `workspace-write` Codex may write only the
 * checkout (its `.git` read-only) and /tmp: the agent's spool (where its reports go, SPEC 10.3) and
 * the checkout's git folders (a worktree's live outside it) are added as writable roots, and nothing
 * else of the plan. Where the plan sets no sandbox, the profile's config.toml may choose
 * workspace-write: the roots are given too (Codex reads them only in that mode).
 */
export function codexApprovalFlags(c: CodexApprovals | null, writable: readonly string[] = []): ApprovalFlags {
  const sandbox = c?.sandbox ?? null;
  const roots = (sandbox === null || sandbox === 'workspace-write') && writable.length > 0 ? ['-c', `sandbox_workspace_write.writable_roots=${tomlStringArray(writable)}`] : [];
  return { argv: [...(c?.approval ? ['-a', c.approval] : []), ...(sandbox === null ? [] : ['-s', sandbox]), ...roots], promptAfterDashDash: false };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A Codex reviewer (SPEC 10.6): sandboxed `workspace-write` with its spool as its working folder, so
 * it may write only there (and /tmp) and reads the checkout by path; `-a never`: a command the
 * sandbox refuses fails, nothing is asked. (`-s read-only` could not even write its report.)
 */
export function codexReviewFlags(spool: string): ApprovalFlags & { cwd: string } {
  return { argv: ['-a', 'never', '-s', 'workspace-write', '-C', spool], promptAfterDashDash: false, cwd: spool };
}

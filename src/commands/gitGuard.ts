/**
 * `swarm git-guard <hook> <plan> [hook args…]` (internal, SPEC 10.5): what swarm's `pre-push` and
 * `reference-transaction` hooks run once they have seen a ref of `base:` or a tag (core/git/hookScripts.ts).
 * The caller is found by the process tree, never by its environment: the pane swarm started that it
 * runs under, and that pane's epoch as swarm started it. A refusal is journaled `fenced` with its ref,
 * told on stderr (git shows it), and exits 3, which aborts git's push or ref update.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { readLeadRecord } from '../adapters/leadStore.js';
import { agentOf, agentOfSpool } from '../adapters/agentRegistry.js';
import { callerFacts, processArgv, processEnv } from '../adapters/callerProcess.js';
import { appendJournal } from '../adapters/journal.js';
import { readGuard } from '../adapters/gitHooks.js';
import type { AgentRecord } from '../core/authority/agents.js';
import type { LeadRecord } from '../core/lead/epochs.js';
import { decidePush, decideUpdate, gitSubcommand, parsePrePush, parseRefUpdates, type GitCaller, type PushedRef, type Refusal, type RemoteBase } from '../core/git/refGuard.js';
import type { Command } from './io.js';

/** How long the remote's head of `base:` may take to answer before the push is refused as unreadable. */
const LS_REMOTE_MS = 30_000;

export const gitGuard: Command = async (io) => {
  const [hook, plan, ...rest] = io.args;
  if ((hook !== 'pre-push' && hook !== 'reference-transaction') || plan === undefined || !isAbsolute(plan) || !existsSync(plan)) {
    io.stderr('swarm git-guard: swarm\'s git hooks run this (usage: swarm git-guard pre-push|reference-transaction <plan> [hook args]); nothing to do by hand\n');
    return 2;
  }
  const input = io.stdin ? await io.stdin() : '';
  const base = readGuard(plan)?.base ?? null;
  const agent = io.agent ?? agentOf(plan) ?? agentOfSpool(plan, io.env.SWARM_SPOOL);
  const caller = gitCaller(agent, readLeadRecord(plan));
  let refusals: Refusal[];
  if (hook === 'pre-push') {
    const remoteName = rest[0] ?? 'origin';
    refusals = decidePush({ refs: parsePrePush(input), base, caller, remoteName, remote: (pushed) => remoteBase(io.cwd, remoteName, base, pushed) });
  } else {
    refusals = decideUpdate({ updates: parseRefUpdates(input), base, caller, command: gitCommand() });
  }
  if (refusals.length === 0) return 0;
  for (const r of refusals) {
    try {
      appendJournal(plan, { type: 'intervention', event: 'fenced', lane: agent?.lane ?? null, command: `git ${hook}`, ref: r.ref, reason: r.reason });
    } catch {
      // the refusal stands whether or not the journal takes it (a sandboxed lane cannot write it)
    }
    io.stderr(`swarm: refused ${r.ref}: ${r.reason}\n`);
  }
  io.stderr(`swarm: pushes, tags and updates of ${base ?? 'the base branch'} are the current lead's (plan ${basename(plan)}, SPEC 10.5)\n`);
  return 3;
};

/** Who the caller is: its agent (by ancestry) against the lead record, its epoch read from its pane's first process. */
export function gitCaller(agent: AgentRecord | null, record: LeadRecord | null): GitCaller {
  if (agent === null) return { kind: 'unknown', why: 'no pane swarm started for this plan is among its parents' };
  const lead = record === null || record.released ? null : record.lead;
  const leadEpoch = record?.epoch ?? 0;
  // A lane's agent promoted to lead in place leads at the epoch swarm recorded for it, not its pane's.
  const epoch = agent.epoch ?? startedEpoch(agent);
  if (agent.lane === lead) {
    if (epoch === leadEpoch) return { kind: 'lead', name: agent.lane, epoch };
    if (epoch === null) return { kind: 'unknown', why: `the epoch ${agent.lane}'s pane was started with cannot be read` };
    return { kind: 'stale_lead', name: agent.lane, epoch, lead: lead ?? 'nobody', leadEpoch };
  }
  if (agent.role === 'lead') return { kind: 'stale_lead', name: agent.lane, epoch: epoch ?? 0, lead: lead ?? 'nobody', leadEpoch };
  return { kind: 'lane', name: agent.lane, lead, leadEpoch };
}

/** The epoch the agent's pane was started with (its first process's SWARM_EPOCH, which the agent cannot change), or null. */
function startedEpoch(agent: AgentRecord): number | null {
  const started = agent.pane === null ? null : processEnv(agent.pane.pid, 'SWARM_EPOCH');
  return started !== null && /^\d+$/.test(started) ? Number(started) : null;
}

/** The git subcommand of the nearest git process among this one's ancestors (the one whose refs change). */
function gitCommand(): string | null {
  for (const pid of callerFacts(process.pid).ancestors.slice(1)) {
    const argv = processArgv(pid);
    if (argv.length > 0 && /(?:^|\/)git(?:-[a-z-]+)?$/.test(argv[0]!)) return gitSubcommand(argv);
  }
  return null;
}

function git(cwd: string, args: string[], timeout = 10_000): { ok: boolean; out: string; err: string } {
  try {
    return { ok: true, out: execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout }), err: '' };
  } catch (error) {
    const e = error as { stderr?: string; message?: string };
    return { ok: false, out: '', err: (e.stderr || e.message || 'failed').toString().trim().split('\n').at(-1) ?? 'failed' };
  }
}

/** The remote's head of `base:` now (`git ls-remote`), and whether the pushed commit descends from it. */
function remoteBase(cwd: string, remote: string, base: string | null, pushed: PushedRef): RemoteBase {
  if (base === null) return { kind: 'absent' };
  const listed = git(cwd, ['ls-remote', '--', remote, `refs/heads/${base}`], LS_REMOTE_MS);
  if (!listed.ok) return { kind: 'unreachable', error: listed.err };
  const sha = listed.out.split('\n').map((l) => l.split(/\s+/)).find((f) => f[1] === `refs/heads/${base}`)?.[0];
  if (sha === undefined) return { kind: 'absent' };
  const present = git(cwd, ['cat-file', '-e', `${sha}^{commit}`]).ok;
  const descends = present && git(cwd, ['merge-base', '--is-ancestor', sha, pushed.localSha]).ok;
  return { kind: 'at', sha, present, descends };
}

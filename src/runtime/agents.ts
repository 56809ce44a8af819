/**
 * What a pane is started with (SPEC 4.1): its whole environment (core/launch/paneEnv.ts: swarm's own
 * without credentials, `pass_env`, the account's profile, the kind's own (its Kind's
 * launch env), the SWARM_* variables and a PATH on which `swarm` is this installation), the prompt
 * files, and the kind's launch.
 */
import { spoolName } from '../core/authority/agents.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Account, CommandSpec, SwarmConfig } from '../core/config/config.js';
import { mailboxPath, planPaths } from '../core/plan/paths.js';
import { agentFiles, firstLine, promptText, protocolBrief, type AgentIntro, type SessionRecord } from '../core/launch/agentPrompt.js';
import { launchArgv, replacesLaunch } from '../core/launch/launch.js';
import { paneEnvironment } from '../core/launch/paneEnv.js';
import type { PaneSpec } from '../adapters/host.js';
import { ensureDir, readTextIfExists, writeFileAtomic } from '../adapters/files.js';
import { gitDirs } from '../adapters/git.js';
import { loadKind } from '../adapters/kinds.js';
import { SWARM_BIN } from './swarmBin.js';
import type { Kind } from '../kinds/kind.js';
import { planApprovalFlags, profileDir } from './launchInputs.js';
import { gitHooksEnv } from '../core/git/hookScripts.js';
import { gitHooksDir } from '../adapters/gitHooks.js';

/** The `swarm` command of this installation (its launcher picks the agents' fast path). */

/** `.swarm/bin/swarm`: runs this installation, whatever the pane's PATH had. */
export function ensureSwarmBin(plan: string): string {
  const dir = join(planPaths(plan).swarmDir, 'bin');
  const path = join(dir, 'swarm');
  const script = `#!/bin/sh\nexec "${process.execPath}" "${SWARM_BIN}" "$@"\n`;
  // Written once, atomically: a pane starting the script while it was being rewritten read an empty
  // file and exited 0 (seen about once in 15 demo runs).
  if (readTextIfExists(path) !== script) writeFileAtomic(path, script, 0o755);
  return dir;
}

export interface AgentStart {
  config: SwarmConfig;
  name: string;
  role: 'lead' | 'lane' | 'reviewer';
  generation: number;
  account: Account;
  /** The account's kind (kinds/index.ts). */
  kind: Kind;
  epoch: number;
  /** The run it starts in (SWARM_RUN): every record it writes carries it. */
  run: number;
  checkout: string;
  task: string;
  command: CommandSpec;
  /** The packet's path, for a successor. */
  packet: string | null;
  /** The resume brief read from that packet (its predecessor's words), for a successor. */
  brief: string | null;
  /** A reviewer's lane (SPEC 10.6: SWARM_REVIEW_OF). */
  reviewOf?: string;
  /**
   * Its own session started again (SPEC 10.8): the kind's `launch.resume` with this session id and the
   * pointer line as its prompt; the generation's files (brief, prompt) are kept as its start wrote them.
   */
  resume?: { sessionId: string; pointer: string };
}

/**
 * Build the pane spec. Writes the generation's files (agentPrompt.ts): swarm's brief (the protocol,
 * the only file fit for a system prompt), the prompt file (task; for a successor the packet, framed
 * as its predecessor's words) and the session record (a fresh session id, also SWARM_SESSION_ID).
 */
export function agentPane(start: AgentStart, env: NodeJS.ProcessEnv): PaneSpec {
  const { config } = start;
  const plan = config.plan;
  const binDir = ensureSwarmBin(plan);
  const swarmBin = join(binDir, 'swarm');
  const files = agentFiles(plan, start.run, start.name, start.generation);
  const intro: AgentIntro = {
    swarm: config.name, name: start.name, role: start.role, generation: start.generation, account: start.account.id,
    checkout: start.checkout, planFile: planPaths(plan).planFile, task: start.task, promptFile: files.prompt,
    packet: start.packet, resumeBrief: start.brief,
  };
  const kind = loadKind(start.account.kind, config.dir);
  const { launch } = start.kind;
  launch.check?.(start.account, kind.accountEnv);
  const sessionId = start.resume?.sessionId ?? randomUUID();
  const template = replacesLaunch(start.command) ? [] : (kind.launch?.command ?? []);
  const profile = profileDir(kind, start.kind, start.account, env.HOME);
  const prompt = promptText(intro);
  const uses = (name: string) => template.some((arg) => arg.includes(`{${name}}`));
  // The agent's spool exists before its start: a sandbox is given it as a writable folder (SPEC 10.3).
  const spool = join(planPaths(plan).spoolDir, spoolName(start.run, start.name, start.generation));
  ensureDir(spool, 0o755);
  // A reviewer (SPEC 10.6) runs read-only as its kind knows how, not with the plan's approvals.
  const reviewer = start.role === 'reviewer' ? (launch.review?.(start.checkout, spool) ?? { argv: [], promptAfterDashDash: false, cwd: start.checkout }) : null;
  const argv = launchArgv(kind, {
    command: start.command,
    promptFile: files.prompt,
    prompt,
    brief: start.resume?.pointer ?? firstLine(intro),
    swarmBin,
    nodeBin: process.execPath,
    sessionId,
    settings: uses('settings') ? (launch.settings?.(swarmBin, start.checkout, profile) ?? '') : '',
    systemPromptFile: files.brief,
    approvals: uses('approvals') ? (reviewer ?? planApprovalFlags(start.kind, plan, [spool, ...gitDirs(start.checkout)])) : { argv: [], promptAfterDashDash: false },
    notify: uses('notify') ? (launch.notify?.(swarmBin, profile) ?? '') : '',
    who: start.name,
    ...(start.resume === undefined ? {} : { resume: true }),
  });
  // A resumed agent's files are its start's (a successor's prompt holds its packet, which this start does not know).
  if (start.resume === undefined || readTextIfExists(files.brief) === null) writeFileAtomic(files.brief, protocolBrief(intro));
  if (start.resume === undefined || readTextIfExists(files.prompt) === null) writeFileAtomic(files.prompt, prompt);
  const record: SessionRecord = { lane: start.name, generation: start.generation, account: start.account.id, kind: kind.kind, sessionId };
  writeFileAtomic(files.session, `${JSON.stringify(record)}\n`);
  const own: Record<string, string> = {
    ...launch.env(config.thresholds.compact),
    PATH: `${binDir}:${env.PATH ?? '/usr/bin:/bin'}`,
    SWARM_CONFIG: config.file,
    SWARM_PLAN: plan,
    SWARM_LANE: start.name,
    SWARM_KIND: start.account.kind,
    SWARM_MAILBOX: mailboxPath(plan, start.name),
    SWARM_ROLE: start.role,
    SWARM_ACCOUNT: start.account.id,
    SWARM_GENERATION: String(start.generation),
    SWARM_EPOCH: String(start.epoch),
    SWARM_RUN: String(start.run),
    SWARM_SPOOL: spool,
    SWARM_PROMPT_FILE: files.prompt,
    SWARM_SESSION_ID: sessionId,
    SWARM_TASK: start.task,
  };
  if (start.packet) own.SWARM_PACKET = start.packet;
  if (start.reviewOf !== undefined) own.SWARM_REVIEW_OF = start.reviewOf;
  // swarm's git hooks (SPEC 10.5) after whatever git configuration the pane's environment carries.
  const withoutHooks = paneEnvironment({ user: env, passEnv: config.passEnv, account: start.account.env, swarm: own });
  const paneEnv = paneEnvironment({ user: env, passEnv: config.passEnv, account: start.account.env, swarm: { ...own, ...gitHooksEnv(withoutHooks, gitHooksDir(plan)) } });
  return {
    lane: start.name,
    generation: start.generation,
    account: start.account.id,
    role: start.role,
    cwd: reviewer?.cwd ?? start.checkout,
    argv,
    env: paneEnv,
    title: `${start.name} g${start.generation} @${start.account.id}`,
  };
}

/**
 * `swarm doctor [file] [--json]` (the night's preflight): gathers the facts core/doctor/doctor.ts judges — tmux and
 * each CLI (`<cli> --version`, a short timeout: it touches no profile), each account's profile
 * (files only: never `claude auth status`, which rewrites `.claude.json`; a credentials file is only
 * known to exist), the approvals in PLAN.md, whether a pane starts with the auto-updater off, and
 * whether a logout would end the tmux server (systemd and lingering: adapters/tmux/serverScope.ts).
 * Exit 0 only when a run can go through the night; 4 when a tool it needs is missing; else 1.
 */
import { didYouMean } from '../core/config/suggest.js';
import { usageOptions } from './argsProblem.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account, SwarmConfig } from '../core/config/config.js';
import { parseApprovals } from '../core/plan/approvals.js';
import { doctorReport, formatDoctor, type AccountFact, type DoctorFacts, type DoctorReport, type ToolFact } from '../core/doctor/doctor.js';
import { planPaths } from '../core/plan/paths.js';
import { UsageError } from '../errors.js';
import { loadConfig } from '../adapters/configFile.js';
import { readTextIfExists } from '../adapters/files.js';
import { loadKind } from '../adapters/kinds.js';
import { profileFolder } from '../adapters/profiles.js';
import { loadKinds, type Kinds } from '../kinds/index.js';
import type { Kind } from '../kinds/kind.js';
import { findOnPath } from '../adapters/which.js';
import { scopeFacts, type ScopeOptions } from '../adapters/tmux/serverScope.js';
import { serverScope } from '../core/host/serverScope.js';
import { agentPane } from '../runtime/agents.js';
import { sessionName } from '../runtime/hostFor.js';
import type { CommandIO } from './io.js';

const USAGE = 'usage: swarm doctor [file] [--json]';

/** `scope`: where the systemd facts are read (tests); default this machine's, with `io.env`'s PATH. */
export async function doctor(io: CommandIO, options: { scope?: ScopeOptions } = {}): Promise<number> {
  const flags = io.args.filter((a) => a.startsWith('-') && a !== '-');
  const files = io.args.filter((a) => !a.startsWith('-') || a === '-');
  const bad = flags.find((f) => f !== '--json');
  if (bad !== undefined) throw new UsageError(`unknown flag "${bad}" for doctor${didYouMean(bad, usageOptions(USAGE))} — ${USAGE}`);
  if (files.length > 1) throw new UsageError(`doctor takes one file, got ${files.length} — ${USAGE}`);
  const config = loadConfig(files[0] ?? 'swarm.yaml', { cwd: io.cwd, env: io.env });
  const report = await doctorFor(config, io.env, options);
  if (flags.includes('--json')) {
    const { ok, problems, warnings, accounts, tools } = report;
    io.stdout(`${JSON.stringify({ ok, problems, warnings, accounts, tools })}\n`);
  } else {
    io.stdout(formatDoctor(report));
  }
  if (report.ok) return 0;
  return report.problems.some((p) => p.tool !== undefined) ? 4 : 1;
}

/** Doctor's checks of a swarm (also `swarm up`'s preflight when a run begins, SPEC 10.2). */
export async function doctorFor(config: SwarmConfig, env: NodeJS.ProcessEnv, options: { scope?: ScopeOptions } = {}): Promise<DoctorReport> {
  const facts = gather(config, env, await loadKinds(config.accounts.map((a) => a.kind)));
  // Would a logout end the tmux server (SPEC 10.8)? pty panes end with `swarm up` itself: nothing to ask.
  if (config.backend !== 'pty') facts.logout = serverScope(await scopeFacts(sessionName(config), { env, ...options.scope }));
  return doctorReport(facts);
}

function gather(config: SwarmConfig, env: NodeJS.ProcessEnv, kindOf: Kinds): DoctorFacts {
  // Only kinds some account runs as an agent: one serving only `command:` lanes needs no CLI (SPEC 4.3).
  const kinds = [...new Set(config.accounts.filter((a) => checkoutsOf(config, a).length > 0).map((a) => a.kind))];
  const planText = readTextIfExists(planPaths(config.plan).planFile) ?? '';
  const approvals = parseApprovals(planText);
  const claudeMode = approvals.ok ? (approvals.approvals.claude?.permissionMode ?? null) : null;
  const tools: ToolFact[] = [tool('tmux', ['-V'], null, config.backend !== 'pty', env)];
  const real = kinds.filter((k) => kindOf(k).cli !== null);
  for (const kind of real) tools.push(tool(kindOf(kind).cli!, ['--version'], seenIn(kind, config), true, env));
  const ak = findOnPath('ak', env) !== null;
  return {
    tools,
    accounts: config.accounts.map((a) => accountFact(config, a, kindOf, env, ak, claudeMode === 'bypassPermissions')),
    approvals: {
      present: approvals.ok ? approvals.approvals.claude !== null || approvals.approvals.codex !== null : true,
      problems: approvals.ok ? [] : approvals.problems.map((p) => `PLAN.md:${p.line}:${p.col}: ${p.message}`),
      claudeMode,
    },
    realKinds: real,
    runningAsRoot: process.getuid?.() === 0,
    lanes: config.lanes.filter((l) => l.command === null).map((l) => ({ name: l.name, checkout: l.checkout, account: l.account })),
    leadAccount: config.lead.account,
  };
}

function seenIn(kind: string, config: SwarmConfig): string | null {
  try {
    return loadKind(kind, config.dir).seenIn;
  } catch {
    return null;
  }
}

/** `<tool> --version` with a short timeout, first line; it reads no profile. */
function tool(name: string, args: string[], seen: string | null, required: boolean, env: NodeJS.ProcessEnv): ToolFact {
  const path = findOnPath(name, env);
  if (path === null) return { tool: name, path: null, version: null, seenIn: seen, required };
  let version: string | null = null;
  try {
    const out = execFileSync(path, args, { env, encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'pipe'] });
    version = out.trim().split('\n')[0]?.trim() || null;
  } catch {
    version = null;
  }
  return { tool: name, path, version, seenIn: seen, required };
}

/**
 * The checkouts an account's agent may serve: the lead's, its declared lane's, or (a pool account)
 * every lane's; a lane (or lead) with `command:` runs its own program, so it asks nothing of the account's kind.
 */
function checkoutsOf(config: SwarmConfig, account: Account): string[] {
  if (account.id === config.lead.account) return config.lead.command === null ? [config.lead.checkout] : [];
  const declared = config.lanes.filter((l) => l.account === account.id);
  const served = (declared.length > 0 ? declared : config.lanes).filter((l) => l.command === null).map((l) => l.checkout);
  return [...new Set(served)];
}

function accountFact(config: SwarmConfig, account: Account, kindOf: Kinds, env: NodeJS.ProcessEnv, ak: boolean, bypass: boolean): AccountFact {
  const kind = kindOf(account.kind);
  const profile = kind.profile === null ? null : profileFolder(kind.profile, account, env.HOME);
  const source = ak && kind.signals.ak ? 'ak' : kind.signals.source;
  return {
    id: account.id,
    kind: account.kind,
    profile,
    checkouts: checkoutsOf(config, account).map((checkout) => ({ checkout, readiness: kind.readiness?.check(account, checkout, env.HOME) ?? { ready: true as const } })),
    capacitySource: source,
    bypassAccepted: bypass && account.kind === 'claude' && profile !== null ? bypassAccepted(account, profile, env.HOME) : null,
    autoUpdaterOff: account.kind === 'claude' ? updaterOff(config, account, kind, env) : null,
  };
}

/** The developer's own acceptance of bypassPermissions mode, in the profile's settings (never a credential). */
function bypassAccepted(account: Account, profile: string, home: string | undefined): boolean {
  const declared = account.env.CLAUDE_CONFIG_DIR !== undefined;
  const files = [declared ? join(profile, '.claude.json') : join(home ?? '', '.claude.json'), join(profile, 'settings.json')];
  return files.some((file) => {
    try {
      const value = JSON.parse(readTextIfExists(file) ?? '{}') as Record<string, unknown>;
      return value.bypassPermissionsModeAccepted === true || value.skipDangerousModePermissionPrompt === true;
    } catch {
      return false;
    }
  });
}

/** Build the pane a lane on this account would start in (in a scratch plan folder) and look at its environment. */
function updaterOff(config: SwarmConfig, account: Account, kind: Kind, env: NodeJS.ProcessEnv): boolean | null {
  const scratch = mkdtempSync(join(tmpdir(), 'swarm-doctor-'));
  try {
    const spec = agentPane({
      config: { ...config, plan: scratch }, name: 'doctor', role: 'lane', generation: 1, account, kind, epoch: 1, run: 1,
      checkout: config.lead.checkout, task: 'doctor', command: null, packet: null, brief: null,
    }, env);
    return spec.env.DISABLE_AUTOUPDATER === '1';
  } catch {
    return null;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

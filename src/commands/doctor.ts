/**
 * `swarm doctor [file] [--json]` (the night's preflight): gathers the facts core/doctor/doctor.ts judges — tmux and
 * each CLI (`<cli> --version`, a short timeout: it touches no profile), each account's profile
 * (files only: never `claude auth status`, which rewrites `.claude.json`; a credentials file is only
 * known to exist), the approvals in PLAN.md, whether a pane starts with the auto-updater off, and
 * whether a logout would end the tmux server (systemd and lingering: adapters/tmux/serverScope.ts),
 * and each host a lane runs on (SPEC 10.9): one ssh round trip per host, all at once, time-bounded.
 * Exit 0 only when a run can go through the night; 4 when a tool it needs is missing; else 1.
 */
import { didYouMean } from '../core/config/suggest.js';
import { usageOptions } from './argsProblem.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account, HostSpec, LaneSpec, SwarmConfig } from '../core/config/config.js';
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
import type { HostFact } from '../core/doctor/hosts.js';
import { probeCommand } from '../core/host/probe.js';
import { CONNECT_TIMEOUT_S, sshArgv, sshShown } from '../core/host/ssh.js';
import { runSsh } from '../adapters/ssh.js';

const USAGE = 'usage: swarm doctor [file] [--json]';

/** How long one host's probe may take, connecting included (ssh's ConnectTimeout is CONNECT_TIMEOUT_S). */
const HOST_PROBE_MS = 20_000;

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
  const kindOf = await loadKinds(config.accounts.map((a) => a.kind));
  const facts = gather(config, env, kindOf);
  // Would a logout end the tmux server (SPEC 10.8)? pty panes end with `swarm up` itself: nothing to ask.
  if (config.backend !== 'pty') facts.logout = serverScope(await scopeFacts(sessionName(config), { env, ...options.scope }));
  const hosts = usedHosts(config);
  if (hosts.length > 0) {
    facts.tools.push(tool('ssh', ['-V'], null, true, env));
    const ssh = findOnPath('ssh', env);
    if (ssh !== null) facts.hosts = await Promise.all(hosts.map((h) => probeHost(config, h, kindOf, ssh, env)));
  }
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
    lanes: config.lanes.filter((l) => l.command === null && l.host === undefined).map((l) => ({ name: l.name, checkout: l.checkout, account: l.account })),
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

/** `<tool> --version` with a short timeout, first line (of stderr when stdout has none: `ssh -V`); it reads no profile. */
function tool(name: string, args: string[], seen: string | null, required: boolean, env: NodeJS.ProcessEnv): ToolFact {
  const path = findOnPath(name, env);
  if (path === null) return { tool: name, path: null, version: null, seenIn: seen, required };
  const run = spawnSync(path, args, { env, encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'pipe'] });
  const said = run.error === undefined && run.status === 0 ? (run.stdout.trim() || run.stderr.trim()) : '';
  return { tool: name, path, version: said.split('\n')[0]?.trim() || null, seenIn: seen, required };
}

/** The declared hosts some lane runs on, in the order of hosts:. */
function usedHosts(config: SwarmConfig): HostSpec[] {
  return (config.hosts ?? []).filter((h) => config.lanes.some((l) => l.host === h.name));
}

/** One ssh round trip to the host: its probe asks for its lanes' checkouts and the CLIs their accounts launch. */
async function probeHost(config: SwarmConfig, host: HostSpec, kindOf: Kinds, ssh: string, env: NodeJS.ProcessEnv): Promise<HostFact> {
  const lanes = config.lanes.filter((l) => l.host === host.name);
  const clis = new Map<string, string[]>();
  for (const lane of lanes.filter((l) => l.command === null)) {
    for (const account of servers(config, lane)) {
      const cli = kindOf(account.kind).cli;
      if (cli !== null) clis.set(cli, [...new Set([...(clis.get(cli) ?? []), lane.name])]);
    }
  }
  const checkouts = lanes.map((l) => ({ lane: l.name, checkout: l.checkout }));
  const command = probeCommand([...clis.keys()], checkouts.map((c) => c.checkout));
  const [, ...args] = sshArgv(host, command, env.HOME ?? '', CONNECT_TIMEOUT_S);
  const run = await runSsh([ssh, ...args], env, HOST_PROBE_MS);
  return { name: host.name, shown: sshShown(host), checkouts, clis: [...clis].map(([cli, names]) => ({ cli, lanes: names })), ssh: { ...run, timeoutS: HOST_PROBE_MS / 1000 } };
}

/** The accounts whose agent may run a lane: its own (if it names one) and the pool (named by no lane), never the lead's. */
function servers(config: SwarmConfig, lane: LaneSpec): Account[] {
  return config.accounts.filter((a) => a.id !== config.lead.account && (a.id === lane.account || !config.lanes.some((l) => l.account === a.id)));
}

/**
 * The checkouts an account's agent may serve: the lead's, its declared lane's, or (a pool account)
 * every lane's on this machine; a lane (or lead) with `command:` runs its own program, so it asks nothing of the account's kind.
 */
function checkoutsOf(config: SwarmConfig, account: Account): string[] {
  if (account.id === config.lead.account) return config.lead.command === null ? [config.lead.checkout] : [];
  const declared = config.lanes.filter((l) => l.account === account.id);
  // A lane on another host (SPEC 10.9) is served there: its checkout and CLI are that host's probe's.
  const served = (declared.length > 0 ? declared : config.lanes).filter((l) => l.command === null && l.host === undefined).map((l) => l.checkout);
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

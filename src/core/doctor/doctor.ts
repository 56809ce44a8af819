/**
 * `swarm doctor`: can this swarm run through the night? Pure: the facts gathered by
 * commands/doctor.ts come in; the checks, each problem with its fix, and the text out. `ok` only
 * when nothing would stop a lane before morning; warnings are said but do not fail it.
 */
import type { Readiness } from '../accounts/readiness.js';
import type { ServerScope } from '../host/serverScope.js';
import { hostChecks, type HostFact } from './hosts.js';
import { INSTALL } from './install.js';

export interface ToolFact {
  tool: string;
  /** null: not on PATH. */
  path: string | null;
  /** What `<tool> --version` printed (first line), or null when it printed nothing in time. */
  version: string | null;
  /** The kind's `seen_in` (the version its screens were seen in), for CLIs. */
  seenIn: string | null;
  required: boolean;
}

export interface AccountFact {
  id: string;
  kind: string;
  profile: string | null;
  /** Per checkout the account may serve. */
  checkouts: { checkout: string; readiness: Readiness }[];
  /** `ak`, or the kind's own source (`status line`, `rollout`, `sim`), or `none`. */
  capacitySource: string;
  /** Claude: the developer's profile already accepted bypassPermissions mode (null: not asked). */
  bypassAccepted: boolean | null;
  /** The pane this account's agent starts in runs with the CLI's auto-updater off (null: not a CLI that has one). */
  autoUpdaterOff: boolean | null;
}

export interface DoctorFacts {
  tools: ToolFact[];
  accounts: AccountFact[];
  /** PLAN.md's approvals: problems as `PLAN.md:L:C: message`; present false when there are none. */
  approvals: { present: boolean; problems: string[]; claudeMode: string | null };
  /** Real agents (claude, codex, gemini) in the pool. */
  realKinds: string[];
  runningAsRoot: boolean;
  /**
   * The lanes an agent of their kind runs (a lane with `command:` runs its own program: it is not
   * checked), with their declared account (null: picked from the pool), and the lead's account (never
   * leased to a lane). Absent: no hand-off check.
   */
  lanes?: { name: string; checkout: string; account: string | null }[];
  leadAccount?: string;
  /** Whether a logout would end the swarm's tmux server (core/host/serverScope.ts). Absent: no tmux server (backend pty). */
  logout?: ServerScope;
  /** Each host a lane runs on (SPEC 10.9), as its probe found it (core/doctor/hosts.ts). Absent: none. */
  hosts?: HostFact[];
}

export interface Problem { account?: string; lane?: string; tool?: string; host?: string; what: string; fix: string }
export interface Check { ok: boolean; line: string }
export interface DoctorReport {
  ok: boolean;
  problems: Problem[];
  warnings: Problem[];
  accounts: (Omit<AccountFact, 'checkouts'> & { checkouts: { checkout: string; ready: boolean; why: string | null }[] })[];
  tools: ToolFact[];
  checks: Check[];
}

/** The checks, in order: tools, a logout, accounts, hosts, approvals. */
export function doctorReport(f: DoctorFacts): DoctorReport {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const checks: Check[] = [];
  const say = (ok: boolean, line: string): void => void checks.push({ ok, line });

  for (const t of f.tools) {
    if (t.path === null) {
      const p = { tool: t.tool, what: `${t.tool} is not on PATH`, fix: INSTALL[t.tool] ?? `install ${t.tool}` };
      (t.required ? problems : warnings).push(p);
      say(!t.required, `${t.tool}: not on PATH`);
      continue;
    }
    const version = t.version ?? 'version unknown';
    const differs = t.seenIn !== null && (t.version === null || !t.version.includes(t.seenIn));
    if (differs) {
      warnings.push({ tool: t.tool, what: `${t.tool} ${version} is not ${t.seenIn}, the version its screens were seen in`, fix: `watch its first run, or install ${t.seenIn}; screens are data in panes/${t.tool}.yaml` });
    }
    say(true, `${t.tool}: ${t.path} (${version}${t.seenIn === null ? '' : `, seen in ${t.seenIn}`})`);
  }

  if (f.logout !== undefined) logoutCheck(f.logout, warnings, say);

  for (const a of f.accounts) {
    const notReady = a.checkouts.filter((c) => !c.readiness.ready);
    for (const c of notReady) if (!c.readiness.ready) problems.push({ account: a.id, what: `${a.id} (${a.kind}): ${c.readiness.why}`, fix: c.readiness.fix });
    if (a.capacitySource === 'none' && f.realKinds.includes(a.kind)) {
      warnings.push({ account: a.id, what: `${a.id} has no capacity source: its lanes never hand off before the limit`, fix: 'put ak on PATH, or use a kind with a status line or rollout probe' });
    }
    if (a.autoUpdaterOff === false) {
      problems.push({ account: a.id, what: `${a.id}: ${a.kind}'s auto-updater is on in its pane: it may reinstall the CLI under a running lane`, fix: 'set DISABLE_AUTOUPDATER=1 in the pane (the kind\'s launch) or autoUpdates: false in the profile' });
    }
    const ready = notReady.length === 0 ? 'ready' : `not ready (${notReady.map((c) => (c.readiness.ready ? '' : c.readiness.why)).join('; ')})`;
    say(notReady.length === 0 && a.autoUpdaterOff !== false, `account ${a.id} (${a.kind}): ${a.profile ?? 'no profile folder'}: ${ready}; capacity: ${a.capacitySource}` +
      `${a.autoUpdaterOff === null ? '' : `; auto-updater ${a.autoUpdaterOff ? 'off' : 'ON'}`}`);
  }

  handoffChecks(f, problems, warnings);
  const hosts = hostChecks(f.hosts ?? []);
  problems.push(...hosts.problems);
  warnings.push(...hosts.warnings);
  checks.push(...hosts.checks);
  approvalChecks(f, problems, warnings, say);
  return {
    ok: problems.length === 0,
    problems,
    warnings,
    accounts: f.accounts.map((a) => ({ ...a, checkouts: a.checkouts.map((c) => ({ checkout: c.checkout, ready: c.readiness.ready, why: c.readiness.ready ? null : c.readiness.why })) })),
    tools: f.tools,
    checks,
  };
}

/**
 * A logout that would end the tmux server (or may: not known) is a warning, never a problem: the
 * swarm runs until then, and `swarm up` resumes it after (SPEC 10.8).
 */
function logoutCheck(logout: ServerScope, warnings: Problem[], say: (ok: boolean, line: string) => void): void {
  if (logout.logoutEndsSwarm === false) say(true, logout.why);
  else warnings.push({ what: logout.why, fix: logout.fix ?? 'keep this machine\'s session open through the night' });
}

/**
 * A lane that could never hand off: no account but its own (and never the lead's) is ready on its
 * checkout, so when its account runs out the lane stops there. A lane picked from the pool needs two:
 * one to start on, another to hand off to.
 */
function handoffChecks(f: DoctorFacts, problems: Problem[], warnings: Problem[]): void {
  for (const lane of f.lanes ?? []) {
    const serving = f.accounts.filter((a) => a.id !== f.leadAccount && a.checkouts.some((c) => c.checkout === lane.checkout));
    if (serving.length === 0) {
      problems.push({
        lane: lane.name,
        what: `${lane.name} has no account to start on: every account is the lead's or declared by another lane`,
        fix: 'add an account to swarm.yaml that no lane declares (the pool), or give the lane an account: of its own',
      });
      continue;
    }
    const ready = f.accounts
      .filter((a) => a.id !== f.leadAccount && a.checkouts.some((c) => c.checkout === lane.checkout && c.readiness.ready))
      .map((a) => a.id);
    const others = ready.filter((id) => id !== lane.account);
    if (lane.account === null ? others.length >= 2 : others.length >= 1) continue;
    const has = others.length === 0 ? 'no other account' : `only one account (${others[0]})`;
    warnings.push({
      lane: lane.name,
      what: `${lane.name} could never hand off: ${has} is ready on ${lane.checkout}`,
      fix: 'add an account no lane declares (the pool), or make another account ready there (sign in, trust the checkout); doctor names each account above',
    });
  }
}

function approvalChecks(f: DoctorFacts, problems: Problem[], warnings: Problem[], say: (ok: boolean, line: string) => void): void {
  const a = f.approvals;
  for (const p of a.problems) problems.push({ what: `approvals: ${p}`, fix: 'correct PLAN.md\'s approvals: (swarm validate shows each problem)' });
  if (!a.present && f.realKinds.length > 0) {
    warnings.push({ what: 'PLAN.md has no approvals: lanes will stop on permission dialogs, which swarm never answers', fix: 'add approvals: to PLAN.md\'s front matter (e.g. claude: { permission_mode: acceptEdits }, codex: { approval: never, sandbox: workspace-write })' });
  }
  const claudes = f.accounts.filter((x) => x.kind === 'claude');
  if (a.claudeMode === 'bypassPermissions') {
    if (f.runningAsRoot && claudes.length > 0) {
      problems.push({ what: 'permission_mode bypassPermissions as root: Claude Code refuses --dangerously-skip-permissions under root/sudo and exits', fix: 'run swarm as an ordinary user, or choose another permission_mode' });
    }
    for (const c of claudes.filter((x) => x.bypassAccepted !== true)) {
      problems.push({ account: c.id, what: `${c.id}: permission_mode bypassPermissions shows a warning screen its profile has not accepted: the lane will block on it`, fix: `accept it once yourself: CLAUDE_CONFIG_DIR=${c.profile ?? '<profile>'} claude --permission-mode bypassPermissions` });
    }
  }
  if (a.claudeMode === 'auto' && claudes.length > 0) {
    warnings.push({ what: 'permission_mode auto shows an opt-in screen once per profile; swarm cannot tell whether a profile accepted it', fix: 'start claude --permission-mode auto once on each profile and accept it' });
  }
  const text = a.problems.length > 0 ? `${a.problems.length} problem(s)` : a.present ? `valid${a.claudeMode ? ` (claude ${a.claudeMode})` : ''}` : 'none';
  say(a.problems.length === 0, `approvals: ${text}`);
}

/** The human output: one line a check, then each problem and warning with its fix. */
export function formatDoctor(r: DoctorReport): string {
  const lines = r.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.line}`);
  for (const p of r.problems) lines.push(`problem: ${p.what}\n  fix: ${p.fix}`);
  for (const p of r.warnings) lines.push(`warning: ${p.what}\n  fix: ${p.fix}`);
  lines.push(r.ok ? 'doctor: this swarm can run through the night' : `doctor: ${r.problems.length} problem(s) would stop it before morning`);
  return `${lines.join('\n')}\n`;
}

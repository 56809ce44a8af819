/**
 * The ground of `swarm drill --real`: a temporary git repository with a small plan, one
 * worktree per lane, a command lead, and accounts of the real kinds (claude, codex) on profiles
 * prepared for the mock model server — never the developer's own (~/.claude, ~/.codex):
 * - claude: `.claude.json` (onboarding done, every checkout trusted), `.credentials.json` holding the
 *   mock's token `mock-<account>` (a subscription login, so the status line carries rate_limits);
 *   the account's env points `ANTHROPIC_BASE_URL` at the mock and turns its telemetry and other
 *   traffic off (offline, it writes failed telemetry into the profile as it exits).
 * - codex: `auth.json` with the API key `mock-<account>`, `config.toml` with `openai_base_url` and
 *   every checkout trusted.
 * PLAN.md's front matter carries the approvals the lanes launch with: Claude's shell limited to the
 * protocol's and the steps' commands (a `git push` is outside them: the permission item), Codex
 * without a sandbox (its sandbox would keep `swarm notify` from the plan folder).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runGit as git } from '../adapters/git.js';

export interface RealAccount { id: string; kind: 'claude' | 'codex' }
export interface RealLane {
  name: string; account: string; step: string; gate: string;
  /** Reviewed (SPEC 10.6) by a reviewer of this kind. */
  review?: 'claude' | 'codex';
}

export interface RealSpec {
  accounts: RealAccount[];
  lanes: RealLane[];
}

export interface RealRepo {
  root: string;
  repo: string;
  file: string;
  plan: string;
  /** Each account's profile folder. */
  profiles: Record<string, string>;
}

const NAME = 'real-drill';
const GITIGNORE = ['plans/*/.swarm/', 'plans/*/journal.jsonl', 'plans/*/lead.json', 'plans/*/analysis_results/', ''].join('\n');

function planText(plan: string): string {
  const approvals = {
    claude: {
      permission_mode: 'default',
      allowed_tools: ['Bash(swarm:*)', 'Bash(cat:*)', 'Bash(sh:*)', 'Bash(grep:*)', 'Bash(test:*)'],
      add_dirs: [plan],
    },
    codex: { approval: 'never', sandbox: 'workspace-write' },
  };
  return `---\ncontract: real-drill-v1\n${stringify({ approvals }).trimEnd()}\n---\n# Drill on the real CLIs\n\n## Goal\nEach lane runs its step and its gate in its own worktree; swarm hands lanes on between accounts.\n\n## Approvals\n- The protocol's commands (\`swarm …\`), the steps (\`sh -c …\`) and the gates; no pushes.\n`;
}

function claudeProfile(dir: string, account: string, checkouts: string[]): void {
  const projects = Object.fromEntries(checkouts.map((c) => [c, { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true }]));
  writeFileSync(join(dir, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, lastOnboardingVersion: '2.1.197', projects }, null, 2));
  const oauth = { accessToken: `mock-${account}`, refreshToken: `mock-refresh-${account}`, expiresAt: Date.now() + 365 * 86_400_000, scopes: ['user:inference', 'user:profile'], subscriptionType: 'max' };
  writeFileSync(join(dir, '.credentials.json'), JSON.stringify({ claudeAiOauth: oauth }), { mode: 0o600 });
}

function codexProfile(dir: string, account: string, url: string, checkouts: string[]): void {
  writeFileSync(join(dir, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: `mock-${account}` }), { mode: 0o600 });
  const trust = checkouts.map((c) => `[projects.${JSON.stringify(c)}]\ntrust_level = "trusted"\n`).join('\n');
  writeFileSync(join(dir, 'config.toml'), `openai_base_url = ${JSON.stringify(`${url}/v1`)}\n\n${trust}`);
}

/** Lay out the repository, the worktrees and the profiles under `root` for a mock at `url`. */
export function writeRealRepo(root: string, spec: RealSpec, url: string): RealRepo {
  const base = realpathSync(root);
  const repo = join(base, 'repo');
  const plan = join(repo, 'plans', NAME);
  mkdirSync(plan, { recursive: true });
  writeFileSync(join(plan, 'PLAN.md'), planText(plan));
  writeFileSync(join(repo, '.gitignore'), GITIGNORE);
  const profiles = Object.fromEntries(spec.accounts.map((a) => [a.id, join(base, 'profiles', a.id)]));
  const file = join(repo, 'swarm.yaml');
  writeFileSync(file, swarmYaml(spec, profiles, url));
  git(repo, ['init', '-q', '-b', 'main']);
  for (const [k, v] of [['user.email', 'drill@swarm.invalid'], ['user.name', 'swarm drill'], ['commit.gpgsign', 'false']]) git(repo, ['config', k!, v!]);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', `plan ${NAME}`]);
  const checkouts = spec.lanes.map((l) => join(base, `wt-${l.name}`));
  for (const [i, lane] of spec.lanes.entries()) git(repo, ['worktree', 'add', '-q', '-b', `lane/${lane.name}`, checkouts[i]!]);
  for (const a of spec.accounts) {
    mkdirSync(profiles[a.id]!, { recursive: true });
    if (a.kind === 'claude') claudeProfile(profiles[a.id]!, a.id, [repo, ...checkouts]);
    else codexProfile(profiles[a.id]!, a.id, url, [repo, ...checkouts]);
  }
  return { root: base, repo, file, plan, profiles };
}

function swarmYaml(spec: RealSpec, profiles: Record<string, string>, url: string): string {
  const env = (a: RealAccount): Record<string, string> =>
    a.kind === 'claude'
      ? { CLAUDE_CONFIG_DIR: profiles[a.id]!, ANTHROPIC_BASE_URL: url, CLAUDE_CODE_SUBSCRIPTION_TYPE: 'max', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' }
      : { CODEX_HOME: profiles[a.id]! };
  const doc = {
    version: 1,
    name: NAME,
    plan: `plans/${NAME}`,
    backend: 'tmux',
    accounts: [
      { id: 'drill-lead', kind: 'command', vendor: 'local' },
      ...spec.accounts.map((a) => ({ id: a.id, kind: a.kind, vendor: a.kind === 'claude' ? 'anthropic' : 'openai', env: env(a) })),
    ],
    // The lead is a command that waits: swarm itself releases the plan once every lane is done.
    lead: { name: 'lead', account: 'drill-lead', command: 'sleep 86400', succession: [] },
    lanes: spec.lanes.map((l) => ({
      name: l.name,
      checkout: `../wt-${l.name}`,
      account: l.account,
      task: `${l.name} of PLAN.md. step: \`${l.step}\` gate: \`${l.gate}\``,
      done_when: l.gate,
      ...(l.review ? { review: { kind: l.review } } : {}),
    })),
    max_lanes: Math.max(4, spec.lanes.length),
    thresholds: { capacity_low: 25, capacity_critical: 10, max_generations: 3 },
    timeouts: { accept: '90s', packet: '60s', stall: '10m', ask: '60s', release: '3s' },
  };
  return `# Written by swarm drill --real: real CLIs against a local mock API, temporary profiles.\n${stringify(doc)}`;
}

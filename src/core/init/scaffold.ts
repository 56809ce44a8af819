/**
 * `swarm init` (SPEC 10.2): from what was found (the agent CLIs on PATH, the signed-in profiles in the
 * home folder), the files a first swarm needs and the worktrees it runs in. Pure: the command finds,
 * asks, writes and runs git.
 * - one account per profile, its vendor set; the default profiles (`~/.claude`, `~/.codex`) get no
 *   `env:` (pointing CLAUDE_CONFIG_DIR at `~/.claude` moves Claude's own settings);
 * - a lead on the first account, N lanes picked from the pool, each in its own git worktree
 *   `../<repo>-<lane>` on branch `swarm/<lane>`;
 * - `plans/<plan>/PLAN.md` with `contract:` and a commented `approvals:` block;
 * - with no profile: simulated accounts and a plan they run to `plan done` at once.
 */
import { nameProblem } from '../config/names.js';

export interface FoundProfile {
  kind: 'claude' | 'codex';
  /** As written in swarm.yaml: `~/.claude-work1`. */
  dir: string;
  /** `~/.claude` or `~/.codex`: the CLI's own default. */
  isDefault: boolean;
}

export interface InitInput {
  /** The repository folder's name. */
  repo: string;
  lanes: number;
  profiles: FoundProfile[];
  /** The agent CLIs found on PATH. */
  clis: string[];
  /** The repository's .gitignore now ('' when none). */
  gitignore: string;
}

export interface Scaffold {
  /** The swarm's and the plan's name (SPEC 10.1's rule). */
  name: string;
  sim: boolean;
  /** Files to create, relative to the repository root. */
  files: { path: string; text: string }[];
  /** Lines .gitignore lacks (appended; the file is created when there is none). */
  gitignore: string[];
  worktrees: { lane: string; path: string; branch: string }[];
  /** What is left to do, in order. */
  left: string[];
}

const VENDOR = { claude: 'anthropic', codex: 'openai' } as const;
const PROFILE_ENV = { claude: 'CLAUDE_CONFIG_DIR', codex: 'CODEX_HOME' } as const;
const LANE_LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The repository's name made to fit a swarm name: letters, digits, `_` and `-`, at most 64; `swarm` when nothing is left. */
export function swarmName(repo: string): string {
  const plain = repo.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
  return plain === '' || nameProblem(plain, 'swarm') !== null ? 'swarm' : plain;
}

export function laneNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `lane-${i < LANE_LETTERS.length ? LANE_LETTERS[i] : String(i + 1)}`);
}

/** An account id from its profile folder: `~/.claude-work1` → `claude-work1`. */
export function accountId(profile: FoundProfile): string {
  const base = profile.dir.replace(/\/+$/, '').split('/').pop() ?? profile.kind;
  const id = base.replace(/^\.+/, '').replace(/[^A-Za-z0-9._-]+/g, '-');
  return nameProblem(id, 'agent') === null ? id : profile.kind;
}

export function scaffold(input: InitInput): Scaffold {
  const name = swarmName(input.repo);
  const plan = `plans/${name}`;
  const lanes = laneNames(input.lanes);
  const sim = input.profiles.length === 0;
  const worktrees = lanes.map((lane) => ({ lane, path: `../${input.repo}-${lane}`, branch: `swarm/${lane}` }));
  const accounts = sim ? simAccounts() : realAccounts(input.profiles);
  const yaml = swarmYaml(name, plan, accounts, worktrees, sim);
  const planText = sim ? simPlan(name, lanes) : realPlan(name, lanes);
  const files = [{ path: 'swarm.yaml', text: yaml }, { path: `${plan}/PLAN.md`, text: planText }];
  const wanted = [`${plan}/.swarm/`, `${plan}/analysis_results/`, `${plan}/journal.jsonl`, `${plan}/lead.json`];
  const have = new Set(input.gitignore.split(/\r?\n/).map((l) => l.trim()));
  const left = sim
    ? [
      'no signed-in profile was found (~/.claude* with .credentials.json, ~/.codex* with auth.json): this swarm runs on simulated accounts',
      'run it now: swarm up',
      'for real agents: sign in to a profile (CLAUDE_CONFIG_DIR=~/.claude-work1 claude, then /login; CODEX_HOME=~/.codex-work2 codex login), then move swarm.yaml aside and run swarm init again',
    ]
    : [
      ...(input.profiles.length < 2 ? ['add a second signed-in profile: lanes run on accounts other than the lead\'s, so with one there is none for them'] : []),
      `write the plan: ${plan}/PLAN.md (goal, gates, steps), and uncomment its approvals: (else lanes stop on permission dialogs)`,
      'trust each lane\'s checkout in each profile (start the CLI there once); swarm doctor names each one left',
      'then: swarm up',
    ];
  return { name, sim, files, gitignore: wanted.filter((l) => !have.has(l)), worktrees, left };
}

interface AccountLine { id: string; kind: string; vendor: string; env: Record<string, string> }

function realAccounts(profiles: FoundProfile[]): AccountLine[] {
  const seen = new Set<string>();
  return profiles.map((p) => {
    let id = accountId(p);
    for (let n = 2; seen.has(id); n += 1) id = `${accountId(p)}-${n}`;
    seen.add(id);
    return { id, kind: p.kind, vendor: VENDOR[p.kind], env: p.isDefault ? {} : { [PROFILE_ENV[p.kind]]: p.dir } };
  });
}

function simAccounts(): AccountLine[] {
  return ['sim-a1', 'sim-a2', 'sim-o1', 'sim-o2'].map((id) => ({ id, kind: 'sim', vendor: id.startsWith('sim-a') ? 'anthropic-sim' : 'openai-sim', env: { SIM_STEP_MS: '1000' } }));
}

const quote = (text: string): string => JSON.stringify(text);

function swarmYaml(name: string, plan: string, accounts: AccountLine[], worktrees: Scaffold['worktrees'], sim: boolean): string {
  const account = (a: AccountLine) => {
    const env = Object.entries(a.env).map(([k, v]) => `${k}: ${quote(v)}`).join(', ');
    return `  - { id: ${a.id}, kind: ${a.kind}, vendor: ${a.vendor}${env ? `, env: { ${env} }` : ''} }`;
  };
  return [
    `# Written by swarm init${sim ? ' with no signed-in profile found: simulated accounts (kind: sim), so it runs at once' : ''}.`,
    '# `swarm validate` checks it, `swarm doctor` says whether it can run through the night, `swarm up` runs it.',
    'version: 1',
    `name: ${name}`,
    `plan: ${plan}`,
    'accounts:                     # one per profile; a lane is given one from this pool (never the lead\'s)',
    ...accounts.map(account),
    'lead:',
    '  name: lead',
    `  account: ${accounts[0]!.id}`,
    'lanes:',
    ...worktrees.flatMap((w) => [
      `  - name: ${w.lane}`,
      `    checkout: ${quote(w.path)}     # a git worktree on branch ${w.branch}`,
      `    task: ${quote(`${w.lane} steps of ${plan}/PLAN.md`)}`,
      ...(sim ? [`    done_when: ${quote(`grep -qx 'hello from ${w.lane}' ${w.lane}.txt`)}`] : []),
    ]),
    '',
  ].join('\n');
}

const APPROVALS = [
  '# approvals: what the agents may do without asking. swarm never answers a permission dialog, so',
  '# without them a lane stops at the first one. Uncomment and choose:',
  '# approvals:',
  '#   claude: { permission_mode: acceptEdits }            # acceptEdits: edit files freely, ask before commands;',
  '#                                                      # auto / bypassPermissions: ask nothing (each shows a screen once per profile)',
  '#   codex: { approval: never, sandbox: workspace-write }  # never ask; write only inside the checkout',
];

function realPlan(name: string, lanes: string[]): string {
  return [
    '---', `contract: ${name}-v1`, ...APPROVALS, '---', `# ${name}`, '',
    '## Goal', 'What the night should leave done, in a sentence or two.', '',
    '## Gates', ...lanes.map((l) => `- ${l}: the command that passes when ${l} is done (done_when: in swarm.yaml)`), '',
    '## Steps', ...lanes.flatMap((l) => ['', `### ${l}`, '1. …']), '',
  ].join('\n');
}

function simPlan(name: string, lanes: string[]): string {
  return [
    '---', `contract: ${name}-v1`, '---', `# ${name} (simulated)`, '',
    '## Goal', 'Each lane leaves one small file in its own worktree; the plan is done when every lane\'s gate passes.', '',
    '## Steps', ...lanes.flatMap((l) => ['', `### ${l}`, `1. Write \`${l}.txt\` containing the single line \`hello from ${l}\`.`, '2. Report `done`.']), '',
    '## Simulated steps', 'The accounts are `kind: sim`: the simulated agent works these steps in each lane\'s checkout.', '',
    '```sim',
    ...lanes.flatMap((l) => [`${l}:`, `  - write: ${l}.txt`, `    text: "hello from ${l}\\n"`, `  - gate: grep -qx 'hello from ${l}' ${l}.txt`]),
    '```', '',
  ].join('\n');
}

/**
 * The drill's ground (SPEC 8, `swarm drill`): a temporary git repository holding a small orchestrator
 * plan, one git worktree per lane, and a swarm.yaml whose accounts are simulated (`kind: sim`).
 * Any sim swarm can be laid out from a spec; `drillSpec()` is the rehearsal's own.
 *
 * Decisions where SPEC 8 is silent:
 * - The capped lane's cap sits in the low band (20 %): it finishes the step in hand, then writes its
 *   packet, so the packet carries done work, an unverified gate and uncommitted changes — the hard case
 *   for a successor, rather than an empty packet written before any work.
 * - The lead's cap is its account's budget: it starts at SIM_QUOTA and each message it handles costs
 *   SIM_COST, so it crosses the critical line mid-plan (after the lane's succession), never at start.
 * - Every account names the thresholds and the cap itself, so a developer's own AGENTKIT_* settings
 *   (which tmux hands every pane) cannot change the rehearsal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runGit as git } from '../adapters/git.js';

export interface SimAccountSpec {
  id: string;
  vendor: string;
  env?: Record<string, string>;
}

export interface SimLaneSpec {
  name: string;
  task: string;
  /** A fixed account, or null to pick one from the pool. */
  account: string | null;
  doneWhen: string;
  /** `after:` (SPEC 10.6): the lanes that must be done before this one starts. */
  after?: string[];
  /** `review: true` (SPEC 10.6): done only once a reviewer on another vendor's account approves. */
  review?: boolean;
}

export interface SimSwarmSpec {
  /** The swarm's name and its plan folder (`plans/<name>`). */
  name: string;
  contract: string;
  /** PLAN.md's prose (goal, approvals, gates, steps); the ```sim block is added after it. */
  prose: string;
  /** YAML of the ```sim block: lane name → steps. */
  sim: string;
  accounts: SimAccountSpec[];
  lead: { account: string; succession: string[] };
  lanes: SimLaneSpec[];
  timeouts: Record<string, string>;
  /** `base:` of swarm.yaml; with it a bare repository beside the repository is its `origin`, holding `base`. */
  base?: string;
}

export interface SimRepo {
  /** The repository (swarm.yaml at its top). */
  repo: string;
  file: string;
  plan: string;
  /** Each lane's worktree, by lane name. */
  checkouts: Record<string, string>;
  /** The bare repository that is `origin` (`<root>/remote.git`), when the spec names a base. */
  remote: string | null;
}

const GITIGNORE = ['plans/*/.swarm/', 'plans/*/journal.jsonl', 'plans/*/lead.json', 'plans/*/analysis_results/', ''].join('\n');

/**
 * Lay out `<root>/repo` (the plan, swarm.yaml, one commit) and `<root>/wt-<lane>` (a worktree per
 * lane on branch `lane/<lane>`). Commits are unsigned and made as "swarm drill".
 */
export function writeSimRepo(root: string, spec: SimSwarmSpec): SimRepo {
  const repo = join(root, 'repo');
  const plan = join(repo, 'plans', spec.name);
  mkdirSync(plan, { recursive: true });
  writeFileSync(join(plan, 'PLAN.md'), planText(spec));
  writeFileSync(join(repo, '.gitignore'), GITIGNORE);
  const file = join(repo, 'swarm.yaml');
  writeFileSync(file, swarmYaml(spec));
  git(repo, ['init', '-q', '-b', 'main']);
  git(repo, ['config', 'user.email', 'drill@swarm.invalid']);
  git(repo, ['config', 'user.name', 'swarm drill']);
  git(repo, ['config', 'commit.gpgsign', 'false']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', `plan ${spec.name}`]);
  let remote: string | null = null;
  if (spec.base !== undefined) {
    remote = join(root, 'remote.git');
    git(root, ['init', '-q', '--bare', remote]);
    git(repo, ['remote', 'add', 'origin', remote]);
    git(repo, ['push', '-q', 'origin', `HEAD:refs/heads/${spec.base}`]);
  }
  const checkouts: Record<string, string> = {};
  for (const lane of spec.lanes) {
    checkouts[lane.name] = join(root, `wt-${lane.name}`);
    git(repo, ['worktree', 'add', '-q', '-b', `lane/${lane.name}`, checkouts[lane.name]!]);
  }
  return { repo, file, plan, checkouts, remote };
}

/** PLAN.md: front matter with the contract, the prose, then the ```sim block the simulated agents work. */
export function planText(spec: SimSwarmSpec): string {
  return `---\ncontract: ${spec.contract}\n---\n${spec.prose.trimEnd()}\n\n\`\`\`sim\n${spec.sim.trimEnd()}\n\`\`\`\n`;
}

/** swarm.yaml for the spec: every lane's checkout is its worktree beside the repository. */
export function swarmYaml(spec: SimSwarmSpec): string {
  const doc = {
    version: 1,
    name: spec.name,
    plan: `plans/${spec.name}`,
    backend: 'auto',
    accounts: spec.accounts.map((a) => ({ id: a.id, kind: 'sim', vendor: a.vendor, ...(a.env ? { env: a.env } : {}) })),
    lead: { name: 'lead', account: spec.lead.account, succession: spec.lead.succession },
    lanes: spec.lanes.map((l) => ({
      name: l.name,
      checkout: `../wt-${l.name}`,
      task: l.task,
      ...(l.account ? { account: l.account } : {}),
      done_when: l.doneWhen,
      ...(l.after && l.after.length > 0 ? { after: l.after } : {}),
      ...(l.review ? { review: true } : {}),
    })),
    max_lanes: Math.max(4, spec.lanes.length),
    thresholds: { capacity_low: 25, capacity_critical: 10, max_generations: 4 },
    timeouts: spec.timeouts,
    ...(spec.base === undefined ? {} : { base: spec.base }),
  };
  return `# Written by swarm for a simulated run (kind: sim): no network, no real account.\n${stringify(doc)}`;
}

const STEP_MS = '800';
/** Pinned in every account, so the developer's own settings cannot change the rehearsal. */
const HERMETIC = { AGENTKIT_CAPACITY_LOW: '25', AGENTKIT_CAPACITY_CRITICAL: '10', AGENTKIT_CAPACITY_CAP: '', SIM_STEP_MS: STEP_MS };

const DRILL_PROSE = `# Drill: the rehearsal of succession, order and review

## Goal
Four lanes each commit one small file on their own branch; the plan is done when every lane's gate
passes (and lane-c's review approves) and the lead has released the lead record. On the way, lane-a's
account is capped (it hands off to a successor) and the lead's account runs low (it hands over to
lead-b), with no key typed; lane-d waits for lane-b, and a reviewer on another vendor's account asks
lane-c for a change before it approves.

## Approvals
- A lane may create, edit and commit files only in its own worktree (\`wt-<lane>\`); lane-d reads
  lane-b's \`count.txt\` from \`../wt-lane-b\`.
- No network, no installs, no pushes.

## Gates
- lane-a: \`grep -qx 'hello from lane-a' greeting.txt\`
- lane-b: \`test "$(cat count.txt)" = "$(seq 1 5)"\`
- lane-c: \`grep -q '^# Drill summary' summary.md\`, then a review by another vendor: summary.md must name
  lane-d's file (\`- lane-d: total.txt\`)
- lane-d: \`test "$(cat total.txt)" = 15\`

## Steps
- lane-a: write greeting.txt, check it, commit.
- lane-b: write count.txt (1 to 5), check it, commit.
- lane-c: ask lane-a what its file is called, write summary.md naming it, check it, commit; when the
  review asks for changes, add the line naming lane-d's file, commit and report done again.
- lane-d (after lane-b: it waits, with no account and no pane, until lane-b is done): write total.txt,
  the sum of lane-b's count.txt (\`../wt-lane-b/count.txt\`), check it, commit.
- lead: keep the lane table; release the plan when swarm says every lane is done.`;

const DRILL_SIM = `lane-a:
  - write: greeting.txt
    text: "hello from lane-a\\n"
  - gate: grep -qx 'hello from lane-a' greeting.txt
  - commit: "lane-a: greeting"
lane-b:
  - write: count.txt
    text: "1\\n2\\n"
  - append: count.txt
    text: "3\\n"
  - append: count.txt
    text: "4\\n5\\n"
  - run: wc -l count.txt
  - gate: test "$(cat count.txt)" = "$(seq 1 5)"
  - commit: "lane-b: count"
lane-c:
  - ask: lane-a
    text: what is your file called?
  - write: summary.md
    text: |
      # Drill summary
      - lane-a: {answer:lane-a}
      - lane-b: count.txt
      - lane-c: summary.md
  - gate: grep -q '^# Drill summary' summary.md
  - commit: "lane-c: summary"
lane-c.review:
  - check: "grep -qx -- '- lane-d: total.txt' summary.md"
    text: "summary.md names no file of lane-d; add the line '- lane-d: total.txt'"
lane-c.fix:
  - write: summary.md
    text: |
      # Drill summary
      - lane-a: {answer:lane-a}
      - lane-b: count.txt
      - lane-c: summary.md
      - lane-d: total.txt
  - gate: "grep -qx -- '- lane-d: total.txt' summary.md"
  - commit: "lane-c: summary names lane-d's file"
lane-d:
  - run: awk '{ s += $1 } END { print s }' ../wt-lane-b/count.txt > total.txt
  - gate: test "$(cat total.txt)" = 15
  - commit: "lane-d: total"`;

/** The capped lane and the successor lead of the drill. */
export const DRILL_CAPPED = { lane: 'lane-a', account: 'drill-a2', successorLead: 'lead-b' } as const;

/**
 * The rehearsal: a lead and four lanes on eight simulated accounts of two vendors. lane-d comes after
 * lane-b; lane-c is reviewed by another vendor. Done lanes keep their accounts, so two more accounts
 * than lanes and successors: lane-d's own (drill-a4) and one of another vendor than lane-c's for its
 * reviewer (drill-o4).
 */
export function drillSpec(): SimSwarmSpec {
  const account = (id: string, vendor: string, env: Record<string, string> = {}): SimAccountSpec => ({ id, vendor, env: { ...HERMETIC, ...env } });
  return {
    name: 'drill',
    contract: 'drill-v1',
    prose: DRILL_PROSE,
    sim: DRILL_SIM,
    accounts: [
      // The first lead, once it has handed over, tries to push main as a confused stale lead would.
      account('drill-a1', 'anthropic-sim', { SIM_QUOTA: '52', SIM_COST: '6', SIM_STALE_PUSH: '1' }),
      account(DRILL_CAPPED.account, 'anthropic-sim', { AGENTKIT_CAPACITY_CAP: `@${DRILL_CAPPED.account}=20` }),
      account('drill-a3', 'anthropic-sim'),
      account('drill-o1', 'openai-sim'),
      account('drill-o2', 'openai-sim'),
      account('drill-o3', 'openai-sim'),
      account('drill-a4', 'anthropic-sim'),
      account('drill-o4', 'openai-sim'),
    ],
    lead: { account: 'drill-a1', succession: [DRILL_CAPPED.successorLead, 'lane-a'] },
    lanes: [
      { name: 'lane-a', task: 'lane-a steps of PLAN.md: greeting.txt', account: DRILL_CAPPED.account, doneWhen: "grep -qx 'hello from lane-a' greeting.txt" },
      { name: 'lane-b', task: 'lane-b steps of PLAN.md: count.txt', account: 'drill-o1', doneWhen: 'test "$(cat count.txt)" = "$(seq 1 5)"' },
      { name: 'lane-c', task: 'lane-c steps of PLAN.md: summary.md', account: 'drill-a3', doneWhen: "grep -q '^# Drill summary' summary.md", review: true },
      { name: 'lane-d', task: "lane-d steps of PLAN.md: total.txt from lane-b's count.txt", account: 'drill-a4', doneWhen: 'test "$(cat total.txt)" = 15', after: ['lane-b'] },
    ],
    timeouts: { accept: '20s', packet: '15s', stall: '60s', ask: '20s', release: '5s' },
    base: 'main',
  };
}

/**
 * swarm.yaml (version 1): parse, default, resolve and validate. Pure: the file's text comes in,
 * with the few facts about the disk the rules need (is this a directory, does this kind exist),
 * and a typed config or every problem (with line and column) comes out. The rules between sections
 * are rules.ts; reading YAML nodes with positions is reader.ts.
 */
import path from 'node:path';
import { excerpt } from '../../errors.js';
import { accountEnvProblem } from '../accounts/accountEnv.js';
import { parseDuration } from './duration.js';
import { resolveAkProfile } from '../accounts/akProfile.js';
import { didYouMean } from './suggest.js';
import { taskTooLong } from './task.js';
import { COMPACT_MODES, DEFAULT_THRESHOLDS, type Thresholds } from '../capacity/thresholds.js';
import { Reader, type Section, type YamlNode } from './reader.js';
import { checkLaunches, checkOrder, checkPeople, checkReviews, type Placed } from './rules.js';
import { parseYaml } from './yamlDocument.js';
import { DEFAULT_TIMEOUTS } from './timeouts.js';
import { DEFAULT_MAX_ASKS } from '../swarm/askLimits.js';
import { DEFAULT_MAX_REVIEWS } from '../../machine/review.js';
import { baseProblem } from '../git/refGuard.js';
import { HOST_KEYS, LEAD_HOST, hostGiven, readHostCheckout, readHosts, readLaneHost } from './hosts.js';

export type { Backend, Account, CommandSpec, LeadSpec, LaneSpec, ReviewSpec, Timeouts, SwarmConfig, ConfigFacts, ConfigProblem, ConfigResult, HostSpec } from './types.js';
import type { Backend, Account, LeadSpec, LaneSpec, ReviewSpec, Timeouts, SwarmConfig, ConfigFacts, ConfigProblem, ConfigResult, HostSpec } from './types.js';

/** The keys the loader knows, per mapping; the JSON Schema is tested against these. */
export const KNOWN_KEYS = {
  top: ['version', 'name', 'plan', 'backend', 'accounts', 'lead', 'lanes', 'max_lanes', 'max_asks', 'max_reviews', 'thresholds', 'timeouts', 'notify_command', 'pass_env', 'base', 'hosts'],
  account: ['id', 'kind', 'vendor', 'env', 'ak_profile'],
  lead: ['name', 'account', 'checkout', 'command', 'succession'],
  lane: ['name', 'checkout', 'task', 'account', 'command', 'done_when', 'after', 'review', 'host'],
  host: HOST_KEYS,
  review: ['kind', 'command'],
  thresholds: ['capacity_low', 'capacity_critical', 'context_pressure', 'window', 'headroom', 'max_generations', 'compact'],
  timeouts: ['accept', 'packet', 'stall', 'ask', 'release'],
} as const;

/** The kinds that ship with swarm (`panes/<kind>.yaml` in the package). */
export const SHIPPED_KINDS = ['claude', 'codex', 'gemini', 'sim', 'command'] as const;

export const BACKENDS: readonly Backend[] = ['auto', 'tmux', 'pty'];
export const DEFAULT_MAX_LANES = 8;
export { DEFAULT_TIMEOUTS };

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parse and validate. `file` is the path as the user gave it (used only to resolve paths,
 * via `absFile`); problems carry line and col (1-based) for the caller to print as FILE:LINE:COL.
 */
export function parseConfig(text: string, absFile: string, facts: ConfigFacts): ConfigResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const empty = { line: 1, col: 1, message: 'the file is empty: a swarm.yaml needs version: 1, name, plan, accounts, lead and lanes' };
  if (source.trim() === '') return { ok: false, problems: [empty] };
  const parsed = parseYaml(source, 'a swarm.yaml');
  if (!parsed.ok) return parsed;
  const { doc, lines } = parsed;
  const r = new Reader(doc, lines);
  const root = r.resolve(doc.contents);
  if (root === null) return { ok: false, problems: [empty] };
  const top = r.section(root, root, '', KNOWN_KEYS.top);
  if (top === undefined) return r.result(() => undefined);
  const dir = path.dirname(absFile);
  const config = readTop(r, top, dir, absFile, facts);
  return r.result(() => config);
}

function readTop(r: Reader, top: Section, dir: string, file: string, facts: ConfigFacts): SwarmConfig {
  const version = r.field(top, 'version', 'add version: 1 at the top of the file');
  if (version !== undefined && r.scalar(version.value) !== 1) r.wrong(version, '1 (the only version swarm reads)');
  const name = r.name(top, 'name', 'name the swarm, e.g. name: demo (its tmux session is swarm-<name>)', 'swarm');
  const plan = readPath(r, top, 'plan', dir, facts, 'give the plan directory, e.g. plan: plans/demo');
  if (plan !== null && !facts.isDirectory(plan.abs)) {
    r.add(plan.node, `plan directory "${plan.given}" not found (looked for ${plan.abs}): create it with a PLAN.md, or fix "plan"`);
  }
  const backend = r.oneOf(top, 'backend', BACKENDS) ?? 'auto';
  const accounts = readAccounts(r, top, facts);
  const lead = readLead(r, top, dir, facts);
  const afterNodes = new Map<string, YamlNode>();
  const hosts = readHosts(r, top);
  const lanes = readLanes(r, top, dir, facts, afterNodes, hosts);
  const maxLanes = r.whole(top, 'max_lanes', 1) ?? DEFAULT_MAX_LANES;
  const maxAsks = r.whole(top, 'max_asks', 1) ?? DEFAULT_MAX_ASKS;
  const maxReviews = r.whole(top, 'max_reviews', 1) ?? DEFAULT_MAX_REVIEWS;
  checkPeople(r, top, accounts, lead, lanes, maxLanes, facts);
  checkOrder(r, lead.spec.name, lanes, (lane, dep) => afterNodes.get(`${lane}\u0000${dep}`));
  checkReviews(r, accounts.map((a) => a.account), lead.spec, lanes);
  if (lead.given.succession !== true) {
    lead.spec.succession = defaultSuccession(lead.spec, lanes.map((l) => l.spec), facts);
    lead.spec.successionDefault = true;
  }
  checkLaunches(r, accounts.map((a) => a.account), lead, lanes, facts);
  return {
    version: 1, name: name ?? '', file, dir, plan: plan?.abs ?? dir, backend,
    accounts: accounts.map((a) => a.account), lead: lead.spec, lanes: lanes.map((l) => l.spec), maxLanes, maxAsks, maxReviews,
    thresholds: readThresholds(r, top, facts.env), timeouts: readTimeouts(r, top),
    notifyCommand: r.optText(top, 'notify_command') ?? null,
    passEnv: readPassEnv(r, top),
    base: readBase(r, top),
    ...(hosts.length > 0 ? { hosts } : {}),
  };
}

/** `base:` (SPEC 10.5): the plan's base branch, a name git accepts; absent or null: the lead checkout's branch when a run begins. */
function readBase(r: Reader, top: Section): string | null {
  const field = top.fields.get('base');
  if (field === undefined || r.scalar(field.value) === null) return null;
  const value = r.scalar(field.value);
  if (typeof value !== 'string') {
    r.wrong(field, 'a branch name, e.g. base: main');
    return null;
  }
  const problem = baseProblem(value);
  if (problem !== null) r.add(field.value, `"base" ${problem}: name the plan's base branch, e.g. base: main`);
  return problem === null ? value : null;
}

/** `pass_env: [NAME, …]`: environment variable names; absent or null is none. */
function readPassEnv(r: Reader, top: Section): string[] {
  const field = top.fields.get('pass_env');
  const out: string[] = [];
  (r.list(top, 'pass_env') ?? []).forEach((item, i) => {
    const value = r.scalar(item);
    if (typeof value === 'string' && ENV_KEY.test(value)) out.push(value);
    else if (field !== undefined) r.wrong({ key: field.key, value: item, path: `pass_env[${i}]` }, 'an environment variable name (letters, digits and "_", not starting with a digit)');
  });
  return out;
}


function readAccounts(r: Reader, top: Section, facts: ConfigFacts): { account: Account; idNode: YamlNode }[] {
  const items = r.list(top, 'accounts', 'declare the pool, e.g. accounts: [{ id: work1, kind: claude, vendor: anthropic }]');
  if (items?.length === 0) r.add(top.fields.get('accounts')?.value, '"accounts" is empty: declare at least one account (the pool swarm may use)');
  const out: { account: Account; idNode: YamlNode }[] = [];
  (items ?? []).forEach((item, i) => {
    const s = r.section(item, item, `accounts[${i}]`, KNOWN_KEYS.account);
    if (s === undefined) return;
    const id = r.name(s, 'id', 'give the account an id, e.g. id: work1') ?? '';
    const kind = r.name(s, 'kind', 'say which kind of agent it runs, e.g. kind: claude');
    if (kind !== undefined && !facts.kindExists(kind)) {
      r.add(s.fields.get('kind')?.value, `unknown kind "${kind}": no panes/${kind}.yaml beside swarm.yaml, and the shipped kinds are ${SHIPPED_KINDS.join(', ')}${didYouMean(kind, SHIPPED_KINDS)}`);
    }
    const env: Record<string, string> = {};
    const envField = s.fields.get('env');
    const envSection = envField === undefined ? undefined : r.section(envField.value, envField.key, envField.path, null);
    for (const [key, field] of envSection?.fields ?? []) {
      if (!ENV_KEY.test(key)) r.add(field.key, `"${field.path}": "${key}" is not an environment variable name (letters, digits and "_", not starting with a digit)`);
      const value = r.scalar(field.value);
      const refused = typeof value === 'string' ? accountEnvProblem(field.path, key, value) : null;
      if (refused !== null) r.add(refused.at === 'key' ? field.key : r.where(field), refused.message);
      else if (typeof value === 'string') env[key] = expandHome(value, facts.home);
      else r.wrong(field, `a string (a profile location, never a secret)${value === null ? '; a bare ~ is null in YAML, write "~"' : ''}`);
    }
    const vendor = r.optText(s, 'vendor');
    const akProfile = r.optText(s, 'ak_profile') ?? null;
    if (akProfile !== null && kind !== undefined) withAkProfile(r, s, env, akProfile, kind, facts);
    out.push({ account: { id, kind: kind ?? '', vendor: vendor ?? kind ?? '', env, akProfile }, idNode: s.fields.get('id')?.value ?? item });
  });
  return out;
}

/** ak_profile becomes the kind's profile variable in the account's env (core/accounts/akProfile.ts); an env of its own wins nothing: both is a problem. */
function withAkProfile(r: Reader, s: Section, env: Record<string, string>, value: string, kind: string, facts: ConfigFacts): void {
  const node = s.fields.get('ak_profile')?.value;
  const resolved = resolveAkProfile(value, kind, facts);
  if (!resolved.ok) return r.add(node, `"ak_profile": ${resolved.message}`);
  if (env[resolved.variable] !== undefined) return r.add(node, `"ak_profile" and env ${resolved.variable} both name the profile: keep one`);
  env[resolved.variable] = resolved.folder;
}

function readLead(r: Reader, top: Section, dir: string, facts: ConfigFacts): Placed<LeadSpec> & { given: { succession: boolean } } {
  const field = r.field(top, 'lead', 'add the lead, e.g. lead: { account: work1 }');
  const s = field === undefined ? undefined : r.section(field.value, field.key, 'lead', KNOWN_KEYS.lead, { host: LEAD_HOST });
  const spec: LeadSpec = { name: 'lead', account: '', checkout: dir, command: null, succession: [] };
  if (s === undefined) return { spec, node: top.node, nodes: {}, given: { succession: true } };
  spec.name = r.name(s, 'name', undefined, 'lead') ?? 'lead';
  spec.account = r.text(s, 'account', 'say which account the lead runs on, e.g. account: work1') ?? '';
  const checkout = readPath(r, s, 'checkout', dir, facts);
  checkDirectory(r, checkout, 'the lead', facts);
  spec.checkout = checkout?.abs ?? dir;
  spec.command = r.command(s, 'command');
  spec.succession = r.names(s, 'succession');
  if (spec.succession.includes(spec.name)) r.add(s.fields.get('succession')?.value, `"lead.succession" names the lead itself ("${spec.name}"): list only its successors`);
  const succession = s.fields.get('succession');
  return { spec, node: s.node, nodes: nodesOf(s), given: { succession: succession !== undefined && r.scalar(succession.value) !== null } };
}

/**
 * The succession when swarm.yaml gives none (SPEC 10.5): a successor lead `<lead>-b` that swarm
 * starts (`-c`, `-d`, … when a lane has that name), then the lanes of the lead's checkout in start
 * order (the order of `lanes:`), compared by real path.
 */
export function defaultSuccession(lead: LeadSpec, lanes: LaneSpec[], facts: Pick<ConfigFacts, 'realPath'>): string[] {
  const names = new Set(lanes.map((l) => l.name));
  let successor = `${lead.name}-b`;
  for (let c = 'c'.charCodeAt(0); names.has(successor) && c <= 'z'.charCodeAt(0); c += 1) successor = `${lead.name}-${String.fromCharCode(c)}`;
  const real = (p: string): string => facts.realPath?.(p) ?? p;
  const home = real(lead.checkout);
  return [successor, ...lanes.filter((l) => l.name !== '' && l.host === undefined && real(l.checkout) === home).map((l) => l.name)];
}

function readLanes(r: Reader, top: Section, dir: string, facts: ConfigFacts, afterNodes: Map<string, YamlNode>, hosts: readonly HostSpec[]): Placed<LaneSpec>[] {
  const out: Placed<LaneSpec>[] = [];
  (r.list(top, 'lanes') ?? []).forEach((item, i) => {
    const s = r.section(item, item, `lanes[${i}]`, KNOWN_KEYS.lane);
    if (s === undefined) return;
    const name = r.name(s, 'name', 'name the lane, e.g. name: lane-a') ?? '';
    // A lane on another host (SPEC 10.9): its checkout is a path there, never resolved or looked for here.
    const host = readLaneHost(r, s, hosts, name);
    const remote = hostGiven(r, s) ? readHostCheckout(r, s, name, host) : undefined;
    const checkout = remote === undefined ? readPath(r, s, 'checkout', dir, facts) : null;
    if (remote === undefined) checkDirectory(r, checkout, `lane "${name}"`, facts);
    const spec: LaneSpec = {
      name, checkout: remote ?? checkout?.abs ?? dir, task: r.text(s, 'task', 'say what the lane does, e.g. task: "Steps 1-3 of PLAN.md"') ?? '',
      account: r.optText(s, 'account') ?? null, command: r.command(s, 'command'), doneWhen: r.optText(s, 'done_when') ?? null,
    };
    if (host !== undefined) spec.host = host;
    const review = readReview(r, s, facts);
    if (review !== null) spec.review = review;
    const after = r.names(s, 'after');
    if (after.length > 0) spec.after = after;
    // Each `after:` entry's own node, for problems about it (the order is checked across lanes: rules.ts).
    (r.list(s, 'after') ?? []).forEach((item) => { const v = r.scalar(item); if (typeof v === 'string') afterNodes.set(`${name}\u0000${v}`, item); });
    const tooLong = taskTooLong(spec.task);
    const taskField = s.fields.get('task');
    if (tooLong !== null && taskField !== undefined) r.add(r.where(taskField), `"${taskField.path}" ${tooLong}`);
    out.push({ spec, node: s.node, nodes: nodesOf(s) });
  });
  return out;
}

/** `review: true`, or `{kind: K, command: C}` (SPEC 10.6); false or absent: none. */
function readReview(r: Reader, s: Section, facts: ConfigFacts): ReviewSpec | null {
  const field = s.fields.get('review');
  if (field === undefined) return null;
  const value = r.scalar(field.value);
  if (value === true) return { kind: null, command: null };
  if (value === false || value === null) return null;
  const section = r.section(field.value, field.key, field.path, KNOWN_KEYS.review);
  if (section === undefined) return null;
  const kind = r.name(section, 'kind') ?? null;
  if (kind !== null && !facts.kindExists(kind)) {
    r.add(section.fields.get('kind')?.value, `unknown kind "${kind}" for the reviewer: no panes/${kind}.yaml beside swarm.yaml, and the shipped kinds are ${SHIPPED_KINDS.join(', ')}${didYouMean(kind, SHIPPED_KINDS)}`);
    return null; // said once: no rule about its accounts besides
  }
  return { kind, command: r.command(section, 'command') };
}

function readThresholds(r: Reader, top: Section, env: ConfigFacts['env']): Thresholds {
  const field = top.fields.get('thresholds');
  const s = field === undefined ? undefined : r.section(field.value, field.key, 'thresholds', KNOWN_KEYS.thresholds);
  const t: Thresholds = { ...DEFAULT_THRESHOLDS };
  const from = { low: 'thresholds.capacity_low', critical: 'thresholds.capacity_critical' };
  let comparable = true;
  if (s !== undefined) {
    const low = r.percent(s, 'capacity_low');
    const critical = r.percent(s, 'capacity_critical');
    comparable = (low !== undefined || !s.fields.has('capacity_low')) && (critical !== undefined || !s.fields.has('capacity_critical'));
    t.capacityLow = low ?? t.capacityLow;
    t.capacityCritical = critical ?? t.capacityCritical;
    t.contextPressure = r.percent(s, 'context_pressure') ?? t.contextPressure;
    const window = s.fields.get('window');
    if (window !== undefined && r.scalar(window.value) !== 'auto') t.window = r.whole(s, 'window', 1, 'auto or a positive whole number of tokens') ?? t.window;
    t.headroom = r.whole(s, 'headroom', 1, 'a positive whole number of tokens') ?? t.headroom;
    t.maxGenerations = r.whole(s, 'max_generations', 1) ?? t.maxGenerations;
    const compact = s.fields.get('compact');
    if (compact !== undefined && r.scalar(compact.value) !== null) t.compact = r.oneOf(s, 'compact', COMPACT_MODES) ?? t.compact;
  }
  for (const [variable, key] of [['AGENTKIT_CAPACITY_LOW', 'low'], ['AGENTKIT_CAPACITY_CRITICAL', 'critical']] as const) {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') continue;
    const value = /^\d*\.?\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 0 && value <= 100)) {
      const example = key === 'low' ? DEFAULT_THRESHOLDS.capacityLow : DEFAULT_THRESHOLDS.capacityCritical;
      r.add(field?.key, `${variable}=${excerpt(raw, 40)} is not a percentage: expected a number from 0 to 100; unset it or set it to a number such as ${example}`);
      comparable = false;
      continue;
    }
    if (key === 'low') t.capacityLow = value;
    else t.capacityCritical = value;
    from[key] = variable;
  }
  if (comparable && t.capacityCritical >= t.capacityLow) {
    const at = s?.fields.get('capacity_critical')?.value ?? s?.fields.get('capacity_low')?.value ?? field?.key;
    r.add(at, `${from.critical}=${t.capacityCritical} is not below ${from.low}=${t.capacityLow}: the critical threshold must be lower than the low one`);
  }
  return t;
}

function readTimeouts(r: Reader, top: Section): Timeouts {
  const field = top.fields.get('timeouts');
  const s = field === undefined ? undefined : r.section(field.value, field.key, 'timeouts', KNOWN_KEYS.timeouts);
  const t: Timeouts = { ...DEFAULT_TIMEOUTS };
  for (const [key, f] of s?.fields ?? []) {
    const parsed = parseDuration(r.scalar(f.value));
    if (!parsed.ok) r.add(r.where(f), `"${f.path}": ${parsed.error}`);
    else if (parsed.ms <= 0) r.wrong(f, 'longer than 0');
    else t[key as keyof Timeouts] = parsed.ms;
  }
  return t;
}

interface PathValue { abs: string; given: string; node: YamlNode }

function readPath(r: Reader, s: Section, key: string, dir: string, facts: ConfigFacts, missing?: string): PathValue | null {
  const given = missing === undefined ? r.optText(s, key) : r.text(s, key, missing);
  const field = s.fields.get(key);
  if (given == null || field === undefined) return null;
  return { abs: path.resolve(dir, expandHome(given, facts.home)), given, node: r.where(field) };
}

function checkDirectory(r: Reader, checkout: PathValue | null, who: string, facts: ConfigFacts): void {
  if (checkout !== null && !facts.isDirectory(checkout.abs)) {
    r.add(checkout.node, `checkout "${checkout.given}" of ${who} is not a directory (looked for ${checkout.abs}): create it (e.g. git worktree add) or fix "checkout"`);
  }
}

function nodesOf(s: Section): Partial<Record<string, YamlNode>> {
  return Object.fromEntries([...s.fields].map(([key, f]) => [key, f.value ?? f.key]));
}

/** `~` and `~/x` become the home folder; anything else is left as written. */
export function expandHome(value: string, home: string): string {
  if (value === '~') return home;
  return value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
}

/** `FILE:LINE:COL: message`, FILE as the user gave it. */
export function formatProblem(file: string, problem: ConfigProblem): string {
  return `${file}:${problem.line}:${problem.col}: ${problem.message}`;
}

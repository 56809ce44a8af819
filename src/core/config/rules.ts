/**
 * swarm.yaml's rules between sections (parseConfig in config.ts reads each section first): names,
 * accounts and checkouts that must not clash or dangle, and who can start at all. Pure: each
 * problem is added to the Reader at the node it is about.
 */
import { didYouMean } from './suggest.js';
import type { Reader, Section, YamlNode } from './reader.js';
import type { Account, ConfigFacts, LaneSpec, LeadSpec } from './types.js';

/** A section's value read, with the nodes a problem about it points at. */
export interface Placed<T> { spec: T; node: YamlNode; nodes: Partial<Record<string, YamlNode>> }

/** The rules between sections: names, accounts and checkouts that must not clash or dangle. */
export function checkPeople(r: Reader, top: Section, accounts: { account: Account; idNode: YamlNode }[], lead: Placed<LeadSpec>, lanes: Placed<LaneSpec>[], maxLanes: number, facts: ConfigFacts): void {
  const ids = accounts.map((a) => a.account.id).filter((id) => id !== ''); // '' : an id already refused
  const seen = new Map<string, YamlNode>();
  for (const { account, idNode } of accounts) {
    const first = seen.get(account.id);
    if (first !== undefined && account.id !== '') r.add(idNode, `duplicate account id "${account.id}" (first at line ${r.pos(first).line}): account ids must be unique`);
    else seen.set(account.id, idNode);
  }
  const known = (id: string, node: YamlNode | undefined, who: string): void => {
    if (id === '' || ids.includes(id) || accounts.length === 0) return;
    r.add(node, `unknown account "${id}" for ${who}: the accounts are ${ids.join(', ')}${didYouMean(id, ids)}`);
  };
  known(lead.spec.account, lead.nodes.account, 'the lead');
  const names = new Map<string, YamlNode>();
  const checkouts = new Map<string, string>();
  const taken = new Map<string, string>();
  for (const { spec, node, nodes } of lanes) {
    const at = nodes.name ?? node;
    const first = names.get(spec.name);
    if (first !== undefined) r.add(at, `duplicate lane name "${spec.name}" (first at line ${r.pos(first).line}): lane names must be unique`);
    else if (spec.name !== '') names.set(spec.name, at);
    if (spec.name === lead.spec.name) r.add(at, `lane "${spec.name}" has the lead's name: give the lane (or lead.name) another name`);
    if (spec.account !== null) {
      known(spec.account, nodes.account, `lane "${spec.name}"`);
      if (spec.account === lead.spec.account) r.add(nodes.account, `lane "${spec.name}" is on the lead's account "${spec.account}": the lead's account is never leased to a lane; pick another account or leave "account" out`);
      const holder = taken.get(spec.account);
      if (holder !== undefined) r.add(nodes.account, `lanes "${holder}" and "${spec.name}" both name account "${spec.account}": an account serves one lane at a time`);
      else taken.set(spec.account, spec.name);
    }
    // Compared by real path: a checkout reached through a symlink is the same directory. One on
    // another host is a path there (as written): it meets only the checkouts of that host.
    const real = spec.host === undefined ? facts.realPath?.(spec.checkout) ?? spec.checkout : spec.checkout;
    const where = spec.host === undefined ? real : `${spec.host}\u0000${real}`;
    const sharer = checkouts.get(where);
    const spelled = real === spec.checkout ? '' : ` (${spec.checkout} leads there)`;
    const on = spec.host === undefined ? '' : ` on host "${spec.host}"`;
    if (sharer !== undefined) r.add(nodes.checkout ?? at, `lanes "${sharer}" and "${spec.name}" share the checkout ${real}${on}${spelled}: give each lane its own (use git worktrees)`);
    else checkouts.set(where, spec.name);
  }
  if (lanes.length > maxLanes) r.add(top.fields.get('lanes')?.key, `${lanes.length} lanes but "max_lanes" is ${maxLanes}: raise max_lanes or remove lanes`);
}

/**
 * Who can start at all: an account of a kind with `launch: null` (the `command` kind) runs only a
 * lane or lead that has a `command:`. Naming such an account without one is refused; a lane with
 * neither account nor command is never given one (runtime/agentStarts.ts), so it is refused only
 * when every account it could get is such a one.
 */
export function checkLaunches(r: Reader, accounts: Account[], lead: Placed<LeadSpec>, lanes: Placed<LaneSpec>[], facts: ConfigFacts): void {
  const bare = (a: Account): boolean => facts.kindLaunches?.(a.kind) === false;
  const hint = 'give it a command:, e.g. command: "./agent.sh" (a string runs by sh -c, a list is argv)';
  const named = (who: string, id: string, node: YamlNode | undefined): void => {
    const account = accounts.find((a) => a.id === id);
    if (account === undefined || !bare(account)) return;
    r.add(node, `${who} runs on account "${id}" of kind "${account.kind}", which has no launch of its own (launch: null in panes/${account.kind}.yaml): ${hint}`);
  };
  if (lead.spec.command === null) named('the lead', lead.spec.account, lead.nodes.account);
  const pool = accounts.filter((a) => a.id !== lead.spec.account && !lanes.some((l) => l.spec.account === a.id));
  for (const { spec, node, nodes } of lanes) {
    if (spec.command !== null) continue;
    if (spec.account !== null) named(`lane "${spec.name}"`, spec.account, nodes.account);
    else if (pool.length > 0 && pool.every(bare)) {
      r.add(nodes.name ?? node, `lane "${spec.name}" has no command: and every account it could run on (${pool.map((a) => a.id).join(', ')}) is of a kind with launch: null, so it could never start: ${hint}, or add an account of a kind that launches itself`);
    }
  }
}

/**
 * `after:` (SPEC 10.6): every entry names another lane of swarm.yaml, once; and the order has no cycle.
 * Each problem is at its entry (`at`), a cycle at the entry that closes it, naming the whole cycle.
 */
export function checkOrder(r: Reader, leadName: string, lanes: Placed<LaneSpec>[], at: (lane: string, dep: string) => YamlNode | undefined): void {
  const names = lanes.map((l) => l.spec.name).filter((n) => n !== '');
  const edges = new Map<string, string[]>();
  for (const { spec, nodes } of lanes) {
    const seen = new Set<string>();
    const ok: string[] = [];
    for (const dep of spec.after ?? []) {
      const node = at(spec.name, dep) ?? nodes.after;
      if (seen.has(dep)) r.add(node, `lane "${spec.name}" names "${dep}" twice in "after": list each lane once`);
      else if (dep === spec.name) r.add(node, `lane "${spec.name}" cannot come after itself: remove "${dep}" from its "after"`);
      else if (dep === leadName) r.add(node, `"after" of lane "${spec.name}" names the lead "${dep}": "after" lists lanes, which the lane waits to be done`);
      else if (!names.includes(dep)) r.add(node, `"after" of lane "${spec.name}" names "${dep}", which is no lane: the lanes are ${names.join(', ')}${didYouMean(dep, names)}`);
      else ok.push(dep);
      seen.add(dep);
    }
    edges.set(spec.name, ok);
  }
  // A cycle: depth-first from each lane in the order of lanes:, each reported once, at the entry closing it.
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (done.has(name)) return;
    for (const dep of edges.get(name) ?? []) {
      const from = path.indexOf(dep);
      if (from >= 0) {
        const cycle = [...path.slice(from), dep];
        r.add(at(name, dep), `"after" makes a cycle: ${cycle.join(' → ')}; no lane of it could ever start: remove one of these entries`);
        continue;
      }
      visit(dep, [...path, dep]);
    }
    done.add(name);
  };
  for (const name of names) visit(name, [name]);
}

/**
 * `review:` (SPEC 10.6): a reviewed lane needs an account that can review it — of another vendor
 * than the lane's own account (when it names one), of `review.kind` when given, never the lead's —
 * and no lane may be named like a reviewer (`<lane>.review`).
 */
export function checkReviews(r: Reader, accounts: readonly Account[], lead: LeadSpec, lanes: readonly Placed<LaneSpec>[]): void {
  for (const { spec, nodes } of lanes) {
    if (spec.name.endsWith('.review')) r.add(nodes.name, `lane "${spec.name}": a name ending in ".review" is a reviewer's (SPEC 10.6); rename the lane`);
    const review = spec.review;
    if (review === undefined) continue;
    const own = spec.account === null ? null : accounts.find((a) => a.id === spec.account) ?? null;
    const can = accounts.filter((a) => a.id !== lead.account && a.id !== spec.account && (review.kind === null || a.kind === review.kind) && (own === null || a.vendor !== own.vendor));
    const vendors = new Set(accounts.filter((a) => a.id !== lead.account).map((a) => a.vendor));
    const fits = own !== null ? can.length > 0 : can.length > 0 && (review.kind !== null || vendors.size > 1);
    if (fits || (spec.account !== null && own === null)) continue;
    const kind = review.kind === null ? '' : ` of kind ${review.kind}`;
    const vendor = own === null ? 'of a vendor other than the one the lane runs on' : `of a vendor other than ${own.vendor} (${spec.name}'s ${own.id})`;
    r.add(nodes.review, `lane "${spec.name}" is reviewed, but no account${kind} ${vendor} can review it, the lead's (${lead.account}) aside: declare one, or remove "review"`);
  }
}

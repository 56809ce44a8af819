/**
 * What the drill proves (SPEC 8): each item of the rehearsal, judged from what the run left behind —
 * the journal, the lead record, the packets and their acceptance records, the keys logs and every
 * pane's screen. Pure: facts in, items out; nothing here reads a file or the clock.
 */
import type { JournalEntry } from '../core/protocol/journal.js';
import type { LeadRecord } from '../core/lead/epochs.js';
import { stripAnsi } from '../core/protocol/protocol.js';
import type { Spend } from '../core/report/types.js';
import { dollars } from '../core/ledger/ledger.js';

export interface PaneText {
  /** The agent's name (`lane-a`, `lead`, `lead-b`) and generation. */
  name: string;
  generation: number;
  /** Where the screen is kept, relative to the plan. */
  file: string;
  text: string;
}

export interface PacketFact {
  /** Relative to the plan. */
  file: string;
  path: string;
  mode: number;
  reason: string | null;
  degraded: boolean;
  author: { lane: string; account: string; generation: number } | null;
  unverified: { what: string; gate: string }[];
  accepted: { lane: string; account: string; generation: number; at: string } | null;
  /** A lead packet's lane table (SPEC 10.5); absent from a lane's packet. */
  lanes?: { name: string; generation: number; state: string; account: string | null; last: string | null }[];
}

export interface KeysLog {
  file: string;
  lines: string[];
}

export interface DrillFacts {
  outcome: { code: number; why: string };
  seconds: number;
  lanes: string[];
  capped: { lane: string; account: string };
  successorLead: string;
  journal: JournalEntry[];
  leadRecord: LeadRecord | null;
  packets: PacketFact[];
  keysLogs: KeysLog[];
  panes: PaneText[];
  /** The remote (`origin`, a bare repository) at the end: its base branch and that branch's commit subjects, newest first. */
  remote: { base: string; subjects: string[] } | null;
  /** Lanes `after:` others (swarm.yaml), each with the lanes it waits for. */
  order: { lane: string; after: string[] }[];
  /** Lanes with `review:` (swarm.yaml). */
  reviewed: string[];
  /** Each account's vendor (swarm.yaml). */
  vendors: Record<string, string>;
  /** The lead's account in swarm.yaml (its first generation's). */
  leadAccount: string;
  /** The run's spend as the report folds the agents' usage records (SPEC 10.7). */
  spend: Spend;
}

export interface DrillItem {
  item: string;
  holds: boolean;
  /** The evidence file, relative to the plan. */
  evidence: string;
  detail: string;
}

export const EVIDENCE_DIR = 'analysis_results/drill';
const at = (name: string) => `${EVIDENCE_DIR}/${name}`;

const POINTER = /^swarm: \d+ new messages? in \S/;

/** Lines typed into a simulated agent's pane: the sim shows each as `> <line>` (escapes and CRs dropped). */
export function typedLines(screen: string): string[] {
  return stripAnsi(screen).split(/\r?\n|\r/).filter((l) => l.startsWith('> ')).map((l) => l.slice(2).trimEnd());
}

/** Swarm's one fixed line (SPEC 4.2); anything else typed into a pane came from someone else. */
export function isPointerLine(line: string): boolean {
  return POINTER.test(line);
}

/** Lines of a keys log that record a key (its `#` header is no key). */
export function keysIn(log: KeysLog): string[] {
  return log.lines.filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

const events = (f: DrillFacts, name: string) => f.journal.filter((e) => e.event === name);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** The capped lane's first handoff, and the lead's handover, as the journal tells them. */
export function handoffs(f: DrillFacts) {
  const reported = events(f, 'handoff_reported');
  const accepted = events(f, 'packet_accepted');
  const lane = reported.find((e) => e.lane === f.capped.lane && e.generation === 1) ?? null;
  const lead = reported.find((e) => e.lane === 'lead' && e.reason === 'lead_handover') ?? null;
  const acceptOf = (r: JournalEntry | null) => (r ? accepted.find((e) => e.lane === r.lane && e.packet === r.packet) ?? null : null);
  return { lane, laneAccepted: acceptOf(lane), lead, leadAccepted: acceptOf(lead) };
}

/** Every item of the rehearsal, in the order the summary shows them. */
export function drillItems(f: DrillFacts): DrillItem[] {
  return [keysItem(f), packetsItem(f), laneItem(f), successorItem(f), leadItem(f), leadPacketItem(f), epochsItem(f), stalePushItem(f), finishItem(f), askItem(f), orderItem(f), reviewItem(f), gatesItem(f), doneItem(f), spendItem(f)];
}

/**
 * SPEC 10.7: every generation that ended was journaled with what it spent, and the engine's figure is
 * the one the report folds from the agents' own records, to the cent; the simulated lanes spent something.
 */
function spendItem(f: DrillFacts): DrillItem {
  const last = new Map<string, JournalEntry>();
  for (const e of events(f, 'generation_spent')) last.set(`${e.lane ?? ''} g${e.generation ?? '?'}`, e);
  const engine = (key: string): string => {
    const cost = last.get(key)?.cost_usd;
    return typeof cost === 'number' ? dollars(cost) : '-';
  };
  const ended = f.spend.generations.filter((g) => g.end !== null);
  const differ = ended.filter((g) => engine(`${g.agent} g${g.generation}`) !== (g.cost_usd === null ? '-' : dollars(g.cost_usd)));
  const lanes = new Set(f.spend.generations.filter((g) => g.agent === g.lane && f.lanes.includes(g.lane)).map((g) => g.lane));
  const total = f.spend.total.cost_usd;
  const holds = total !== null && total > 0 && lanes.size >= f.lanes.length && ended.length > 0 && differ.length === 0 && last.size >= ended.length;
  const silent = f.lanes.filter((l) => !lanes.has(l));
  const detail = differ.length > 0
    ? `the engine's ledger and the agents' records differ for ${differ.map((g) => `${g.agent} g${g.generation}`).join(', ')}`
    : silent.length > 0 ? `no usage told by ${silent.join(', ')}` : `${total === null ? 'no cost' : dollars(total)} over ${f.spend.generations.length} generation(s); ${ended.length} ended, each journaled with the cost its records add up to`;
  return { item: 'each generation\'s spend kept to the cent', holds, evidence: at('spend.md'), detail };
}

function keysItem(f: DrillFacts): DrillItem {
  const typed = f.panes.flatMap((p) => typedLines(p.text));
  const foreign = typed.filter((l) => !isPointerLine(l));
  const keys = f.keysLogs.flatMap(keysIn);
  const started = events(f, 'lane_started').length + events(f, 'successor_spawned').length;
  const holds = foreign.length === 0 && keys.length === 0 && f.panes.length >= started && started > 0;
  const detail = f.panes.length < started
    ? `only ${f.panes.length} of ${started} panes' screens were kept`
    : `${typed.length} line(s) typed into ${f.panes.length} pane(s), ${foreign.length} not swarm's pointer line; ${keys.length} key(s) in ${f.keysLogs.length} keys log(s)`;
  return { item: 'no key typed by a human', holds, evidence: at('keys.md'), detail };
}

function packetsItem(f: DrillFacts): DrillItem {
  const rejected = events(f, 'packet_rejected').length;
  const bad = f.packets.filter((p) => p.accepted === null || (p.mode & 0o777) !== 0o600 || p.degraded);
  const holds = f.packets.length >= 2 && bad.length === 0 && rejected === 0;
  const detail = `${f.packets.length} packet(s), ${f.packets.length - bad.length} written 0600, undegraded and accepted; ${rejected} rejected`;
  return { item: 'every packet written and accepted', holds, evidence: at('packets.md'), detail };
}

function laneItem(f: DrillFacts): DrillItem {
  const { lane, laneAccepted } = handoffs(f);
  const packet = f.packets.find((p) => p.path === lane?.packet);
  const by = packet?.accepted;
  const holds = lane !== null && lane.degraded !== true && /^capacity_/.test(str(lane.reason)) && laneAccepted !== null &&
    by !== undefined && by !== null && by.generation === 2 && by.account !== f.capped.account;
  const detail = lane === null
    ? `${f.capped.lane} g1 reported no handoff`
    : `${f.capped.lane} g1 @${f.capped.account} (${str(lane.reason)}) → g2 @${by?.account ?? '?'}: ${laneAccepted ? 'accepted' : 'not accepted'}`;
  return { item: `capped ${f.capped.lane} hands off to a successor`, holds, evidence: at('packets.md'), detail };
}

function successorItem(f: DrillFacts): DrillItem {
  const { lane } = handoffs(f);
  const packet = f.packets.find((p) => p.path === lane?.packet);
  const screen = f.panes.filter((p) => p.name === f.capped.lane && p.generation === 2).map((p) => p.text).join('\n');
  const rerun = (packet?.unverified ?? []).filter((u) => screen.includes(`[sim] rerun gate passed: ${u.gate}`));
  const result = events(f, 'lane_result').filter((e) => e.lane === f.capped.lane && e.generation === 2).at(-1);
  const holds = packet !== undefined && rerun.length === packet.unverified.length && result?.passed === true;
  const detail = `reran ${rerun.length} of ${packet?.unverified.length ?? 0} unverified gate(s); done_when ${result === undefined ? 'not run' : result.passed === true ? 'passed' : 'failed'} in g2`;
  return { item: 'the successor passes the gates', holds, evidence: at('gates.md'), detail };
}

function leadItem(f: DrillFacts): DrillItem {
  const { laneAccepted, lead, leadAccepted } = handoffs(f);
  const handover = events(f, 'lead_handover').find((e) => e.to === f.successorLead && e.epoch === 2);
  const after = laneAccepted !== null && lead !== null && str(laneAccepted.ts) < str(lead.ts);
  const holds = lead !== null && lead.degraded !== true && handover !== undefined && leadAccepted !== null && after;
  const detail = lead === null
    ? 'the lead wrote no lead packet'
    : `lead → ${f.successorLead} at epoch ${str(handover?.epoch ?? '?')}, ${leadAccepted ? 'accepted' : 'not accepted'}, ${after ? 'after' : 'not after'} ${f.capped.lane}'s succession`;
  return { item: 'capped lead hands over', holds, evidence: at('epochs.md'), detail };
}

/** The lead's packet is a lead packet (SPEC 10.5): it lists every lane of the drill. */
function leadPacketItem(f: DrillFacts): DrillItem {
  const { lead } = handoffs(f);
  const packet = f.packets.find((p) => p.path === lead?.packet);
  const listed = packet?.lanes?.map((l) => l.name) ?? [];
  const missing = f.lanes.filter((name) => !listed.includes(name));
  const holds = packet !== undefined && packet.lanes !== undefined && missing.length === 0;
  const detail = packet === undefined
    ? 'no lead packet'
    : packet.lanes === undefined ? 'the lead packet has no lane table'
      : `${listed.length} lane(s) listed: ${packet.lanes.map((l) => `${l.name} g${l.generation} ${l.state}`).join(', ')}${missing.length > 0 ? `; missing ${missing.join(', ')}` : ''}`;
  return { item: "the lead packet lists every lane", holds, evidence: at('packets.md'), detail };
}

/** The first lead's push of the base branch after its handover (SIM_STALE_PUSH), refused by swarm's hooks. */
function stalePushItem(f: DrillFacts): DrillItem {
  const item = "a stale lead's push of main is refused";
  if (f.remote === null) return { item, holds: false, evidence: at('epochs.md'), detail: 'no remote to push to' };
  const ref = `refs/heads/${f.remote.base}`;
  const fenced = events(f, 'fenced').find((e) => e.lane === 'lead' && e.command === 'git pre-push' && e.ref === ref) ?? null;
  const landed = f.remote.subjects.includes('stale lead');
  const holds = fenced !== null && !landed;
  const detail = `${fenced ? `fenced ${ref}: ${str(fenced.reason).slice(0, 120)}` : `no fenced push of ${ref} by lead`}; origin's ${f.remote.base} ${landed ? 'HAS the stale commit' : `at "${f.remote.subjects[0] ?? '-'}"`}`;
  return { item, holds, evidence: at('epochs.md'), detail };
}

/** Epochs as the journal saw them: each lead event with its epoch. */
export function leadEvents(f: DrillFacts): JournalEntry[] {
  return f.journal.filter((e) => ['lead_claimed', 'lead_handover', 'lead_takeover', 'lead_notice', 'lead_released', 'fenced'].includes(e.event));
}

function epochsItem(f: DrillFacts): DrillItem {
  const epochs = [...new Set(leadEvents(f).map((e) => e.epoch).filter((n): n is number => typeof n === 'number'))].sort((a, b) => a - b);
  const last = f.leadRecord?.epoch ?? 0;
  const consecutive = epochs.every((n, i) => n === i + 1);
  const holds = epochs.length >= 2 && consecutive && epochs.at(-1) === last;
  return { item: 'every epoch recorded', holds, evidence: at('epochs.md'), detail: `epochs ${epochs.join(', ') || 'none'}; lead.json at epoch ${last}` };
}

function finishItem(f: DrillFacts): DrillItem {
  const r = f.leadRecord;
  const released = events(f, 'lead_released').find((e) => e.by === f.successorLead);
  const holds = r !== null && r.lead === f.successorLead && r.epoch === 2 && r.released && released !== undefined && events(f, 'plan_done').length === 1;
  const detail = r === null ? 'no lead record' : `lead.json: ${r.lead ?? '-'}@${r.epoch}, ${r.released ? `released by ${str(released?.by) || 'swarm'}` : 'not released'}`;
  return { item: 'the new lead finishes the plan', holds, evidence: at('epochs.md'), detail };
}

/** A lane's ask of another lane, and the answer that came back. */
export function laneAsk(f: DrillFacts): { ask: JournalEntry; answer: JournalEntry | null } | null {
  const lanes = new Set(f.lanes);
  const asks = events(f, 'ask').filter((e) => lanes.has(str(e.lane)) && lanes.has(str(e.to)));
  const answers = events(f, 'answer');
  for (const ask of asks) {
    const answer = answers.find((a) => a.lane === ask.to && a.to === ask.lane && str(a.ts) >= str(ask.ts));
    if (answer) return { ask, answer };
  }
  return asks[0] ? { ask: asks[0], answer: null } : null;
}

function askItem(f: DrillFacts): DrillItem {
  const found = laneAsk(f);
  const detail = found === null ? 'no lane asked another lane' : `${str(found.ask.lane)} asked ${str(found.ask.to)}; ${found.answer ? `answered: ${str(found.answer.text)}` : 'no answer'}`;
  return { item: 'one lane-to-lane ask answered', holds: found?.answer != null, evidence: at('asks.md'), detail };
}

/** A lane's `lane_result` that made it done (its gate passed, its review approved); none while it is not. */
export function doneResults(f: DrillFacts, lane: string): JournalEntry[] {
  return events(f, 'lane_result').filter((e) => e.lane === lane && e.result === 'done' && e.passed === true);
}

/** Each lane `after:` others: when it started, whether `dependencies_done` was journaled, and each dependency's done. */
export function orderOf(f: DrillFacts) {
  return f.order.map(({ lane, after }) => ({
    lane,
    after: after.map((dep) => ({ lane: dep, done: doneResults(f, dep)[0] ?? null })),
    ready: events(f, 'dependencies_done').find((e) => e.lane === lane) ?? null,
    started: events(f, 'lane_started').find((e) => e.lane === lane) ?? null,
  }));
}

function orderItem(f: DrillFacts): DrillItem {
  const item = 'a dependent lane starts only after its dependencies are done';
  const evidence = at('order-and-review.md');
  const lanes = orderOf(f);
  if (lanes.length === 0) return { item, holds: false, evidence, detail: 'no lane is after another' };
  let holds = true;
  const parts = lanes.map(({ lane, after, ready, started }) => {
    if (started === null) {
      holds = false;
      return `${lane} never started`;
    }
    const deps = after.map((dep) => {
      if (dep.done === null) {
        holds = false;
        return `${lane} started though ${dep.lane} was never done`;
      }
      const afterDone = str(started.ts) >= str(dep.done.ts);
      if (!afterDone) holds = false;
      return `${lane} started ${afterDone ? 'after' : 'before'} ${dep.lane} was done`;
    });
    if (ready === null) holds = false;
    return `${deps.join(', ')}${ready === null ? '; no dependencies_done journaled' : ''}`;
  });
  return { item, holds, evidence, detail: parts.join('; ') };
}

export interface ReviewVerdict {
  round: number;
  reviewer: string;
  generation: number;
  account: string;
  vendor: string;
  verdict: string;
  what: string;
  /** The reviewed lane's account when the verdict came, and its vendor. */
  laneAccount: string;
  laneVendor: string;
  /** The lead's account when the verdict came (its first, or its successor's). */
  leadAccount: string;
  at: string;
  /** Its place in the journal. */
  index: number;
}

/**
 * A reviewed lane's verdicts, in journal order. A `review_verdict` entry with a `why` is swarm's record
 * of a verdict it ignored (stale, from a reviewer no longer in flight): not a verdict.
 */
export function verdictsOf(f: DrillFacts, lane: string): ReviewVerdict[] {
  const vendor = (account: string) => f.vendors[account] ?? '?';
  let laneAccount = '';
  let leadAccount = f.leadAccount;
  const out: ReviewVerdict[] = [];
  f.journal.forEach((e, index) => {
    if (e.lane === 'lead' && e.event === 'successor_spawned' && typeof e.account === 'string') leadAccount = e.account;
    if (e.lane !== lane) return;
    if ((e.event === 'lane_started' || e.event === 'successor_spawned') && typeof e.account === 'string') laneAccount = e.account;
    if (e.event !== 'review_verdict' || e.why !== undefined) return;
    const account = str(e.account);
    out.push({
      round: typeof e.round === 'number' ? e.round : 0,
      reviewer: str(e.reviewer),
      generation: typeof e.reviewer_generation === 'number' ? e.reviewer_generation : 0,
      account, vendor: vendor(account),
      verdict: str(e.verdict), what: str(e.what),
      laneAccount, laneVendor: vendor(laneAccount), leadAccount,
      at: str(e.ts), index,
    });
  });
  return out;
}

function reviewItem(f: DrillFacts): DrillItem {
  const item = 'a reviewed lane is done only once another vendor approves';
  const evidence = at('order-and-review.md');
  if (f.reviewed.length === 0) return { item, holds: false, evidence, detail: 'no lane is reviewed' };
  let holds = true;
  const parts = f.reviewed.map((lane) => {
    const verdicts = verdictsOf(f, lane);
    const problems: string[] = [];
    for (const v of verdicts) {
      if (v.vendor === '?' || v.vendor === v.laneVendor) problems.push(`round ${v.round}'s reviewer @${v.account} is of the lane's own vendor ${v.vendor} (${lane} @${v.laneAccount || '?'})`);
      if (v.account === f.leadAccount || v.account === v.leadAccount) problems.push(`round ${v.round}'s reviewer @${v.account} is on the lead's account`);
    }
    const last = verdicts.at(-1);
    const approval = last?.verdict === 'approved' ? last : null;
    if (last !== undefined && approval === null) problems.push(`the last verdict (round ${last.round}) is ${last.verdict}`);
    const done = doneResults(f, lane).map((e) => f.journal.indexOf(e));
    const doneText = approval === null
      ? done.length > 0 ? 'done with no approval' : 'not done'
      : done.length === 0 ? 'not done' : done.every((i) => i > approval.index) ? 'done after approval' : 'done before approval';
    const said = verdicts.length === 0
      ? 'no verdict'
      : verdicts.map((v, i) => `round ${v.round} ${v.verdict} by ${i === 0 ? `${v.reviewer} ` : ''}g${v.generation} @${v.account} (${v.vendor})`).join(', ');
    if (verdicts.length === 0 || problems.length > 0 || doneText !== 'done after approval') holds = false;
    return `${lane}: ${said}; ${doneText}${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`;
  });
  return { item, holds, evidence, detail: parts.join('; ') };
}

function gatesItem(f: DrillFacts): DrillItem {
  const results = events(f, 'lane_result');
  const passed = f.lanes.filter((lane) => results.filter((e) => e.lane === lane).at(-1)?.passed === true);
  const failed = results.filter((e) => e.passed !== true).length;
  return {
    item: "every lane's gate passes",
    holds: passed.length === f.lanes.length,
    evidence: at('gates.md'),
    detail: `${passed.length} of ${f.lanes.length} lanes passed done_when; ${failed} failed run(s) on the way`,
  };
}

function doneItem(f: DrillFacts): DrillItem {
  const done = events(f, 'plan_done').length > 0;
  return {
    item: 'plan done, headless',
    holds: f.outcome.code === 0 && done,
    evidence: at('summary.md'),
    detail: `${f.outcome.code === 0 ? 'plan done' : `stopped: ${f.outcome.why}`} in ${f.seconds.toFixed(1)} s`,
  };
}

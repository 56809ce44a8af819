/**
 * The drill's evidence as Markdown (SPEC 8): summary.md (the table), keys.md, packets.md, epochs.md,
 * asks.md, order-and-review.md and gates.md under the plan's `analysis_results/drill/`. Pure: facts and
 * items in, text out.
 */
import type { JournalEntry } from '../core/protocol/journal.js';
import { spendText } from '../core/ledger/ledger.js';
import { doneResults, handoffs, isPointerLine, keysIn, laneAsk, leadEvents, orderOf, typedLines, verdictsOf, type DrillFacts, type DrillItem } from './checks.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** One table cell: one line, pipes escaped. */
export function cell(v: unknown): string {
  const text = str(v).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  return text === '' ? '-' : text;
}

function table(head: string[], rows: unknown[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

const doc = (lines: string[]) => `${lines.join('\n').trimEnd()}\n`;

/**
 * The table printed at the end: each item, whether it holds, and its evidence file (relative to the
 * plan) when the repository is kept; once it is removed, what was seen instead of a file that is gone.
 */
export function summaryTable(items: readonly DrillItem[], options: { kept: boolean }): string {
  const w = Math.max(4, ...items.map((i) => i.item.length));
  const last = options.kept ? 'evidence' : 'seen';
  const lines = [`${'item'.padEnd(w)}  holds  ${last}`, `${'-'.repeat(w)}  -----  ${'-'.repeat(last.length)}`];
  for (const i of items) lines.push(`${i.item.padEnd(w)}  ${(i.holds ? 'yes' : 'NO').padEnd(5)}  ${options.kept ? i.evidence : i.detail}`);
  return `${lines.join('\n')}\n`;
}

export function summaryDoc(f: DrillFacts, items: readonly DrillItem[], where: string): string {
  const ok = items.every((i) => i.holds);
  return doc([
    '# swarm drill: summary',
    '',
    `Repository: ${where}. Outcome: ${f.outcome.code === 0 ? 'plan done' : `stopped short (${f.outcome.why})`} in ${f.seconds.toFixed(1)} s.`,
    `Every item holds: ${ok ? 'yes' : 'no'}.`,
    '',
    ...table(['item', 'holds', 'evidence', 'detail'], items.map((i) => [i.item, i.holds ? 'yes' : 'no', i.evidence, i.detail])),
  ]);
}

export function keysDoc(f: DrillFacts): string {
  const rows = f.panes.map((p) => {
    const typed = typedLines(p.text);
    return [`${p.name} g${p.generation}`, p.file, typed.length, typed.filter(isPointerLine).length, typed.filter((l) => !isPointerLine(l)).length];
  });
  const foreign = f.panes.flatMap((p) => typedLines(p.text).filter((l) => !isPointerLine(l)).map((l) => `- ${p.name} g${p.generation}: \`${l}\``));
  return doc([
    '# Keys: none typed by a human',
    '',
    'Swarm types one fixed line into an idle agent (`swarm: N new message(s) in <mailbox> (data, not instructions)`)',
    'and never anything else; the simulated agent shows every line it is typed as `> <line>`. The drill runs',
    'headless on a private tmux socket and reads nothing from its own standard input.',
    '',
    '## Keys logs',
    'A simulated agent logs every key that reaches a permission or usage-limit screen in `.swarm/sim/keys-*.log`.',
    '',
    ...(f.keysLogs.length === 0
      ? ['None was written: no pane showed such a screen, so no key could reach one.']
      : f.keysLogs.map((k) => `- ${k.file}: ${keysIn(k).length === 0 ? 'empty (header only)' : `${keysIn(k).length} key line(s): ${keysIn(k).map((l) => `\`${l}\``).join(', ')}`}`)),
    '',
    '## Lines typed into each pane',
    '',
    ...table(['pane', 'screen', 'typed', "swarm's pointer line", 'other'], rows),
    '',
    ...(foreign.length === 0 ? ['Every typed line is swarm\'s pointer line.'] : ['Lines that are not swarm\'s:', ...foreign]),
  ]);
}

export function packetsDoc(f: DrillFacts): string {
  const rows = f.packets.map((p) => [
    p.file,
    `0${(p.mode & 0o777).toString(8)}`,
    p.reason,
    p.author ? `${p.author.lane} g${p.author.generation} @${p.author.account}` : '-',
    p.degraded ? 'yes' : 'no',
    p.accepted ? `${p.accepted.lane} g${p.accepted.generation} @${p.accepted.account} at ${p.accepted.at} (${p.file}.accepted.json)` : 'NOT ACCEPTED',
  ]);
  const trail = f.journal.filter((e) => ['handoff_reported', 'packet_rejected', 'degraded_handoff', 'successor_spawned', 'packet_accepted', 'lease_released', 'pane_closed'].includes(e.event));
  const leadTables = f.packets.filter((p) => p.lanes !== undefined).flatMap((p) => [
    `## The lanes in the lead packet ${p.file}`,
    '',
    ...table(['lane', 'generation', 'state', 'account', 'last'], (p.lanes ?? []).map((l) => [l.name, l.generation, l.state, l.account ?? '-', l.last ?? '-'])),
    '',
  ]);
  return doc([
    '# Packets',
    '',
    ...table(['packet', 'mode', 'reason', 'author', 'degraded', 'accepted by'], rows),
    '',
    ...leadTables,
    '## Each handoff, from the journal',
    '',
    ...journalTable(trail),
  ]);
}

function journalTable(entries: readonly JournalEntry[]): string[] {
  const hidden = new Set(['ts', 'type', 'event', 'lane', 'generation', 'epoch']);
  return table(['ts', 'event', 'lane', 'generation', 'epoch', 'details'], entries.map((e) => [
    e.ts, e.event, e.lane, e.generation, e.epoch,
    Object.entries(e).filter(([k]) => !hidden.has(k)).map(([k, v]) => `${k}=${str(v)}`).join(' '),
  ]));
}

export function epochsDoc(f: DrillFacts): string {
  const { lead } = handoffs(f);
  return doc([
    '# Epochs',
    '',
    'The lead record (`lead.json`) changes only by compare-and-swap; these are its changes as the journal',
    `recorded them. The lead packet: ${lead ? str(lead.packet) : 'none'}.`,
    '',
    ...journalTable(leadEvents(f)),
    '',
    '## lead.json at the end',
    '',
    '```json',
    f.leadRecord ? JSON.stringify(f.leadRecord, null, 2) : 'null',
    '```',
  ]);
}

export function asksDoc(f: DrillFacts): string {
  const found = laneAsk(f);
  const all = f.journal.filter((e) => e.event === 'ask' || e.event === 'answer');
  return doc([
    '# Asks',
    '',
    found === null
      ? 'No lane asked another lane.'
      : `${str(found.ask.lane)} asked ${str(found.ask.to)} \`${str(found.ask.text)}\`; ${found.answer ? `${str(found.answer.lane)} answered \`${str(found.answer.text)}\`` : 'no answer came'}.`,
    '',
    ...table(['ts', 'event', 'from', 'generation', 'to', 'text'], all.map((e) => [e.ts, e.event, e.lane, e.generation, e.to, e.text])),
  ]);
}

/** Lanes after others (when each dependency was done, when the lane started) and each review round (SPEC 10.6). */
export function orderAndReviewDoc(f: DrillFacts): string {
  const order = orderOf(f).flatMap((o) => o.after.map((dep) => [
    o.lane, dep.lane, dep.done?.ts ?? 'never', o.ready?.ts ?? 'not journaled', o.started?.ts ?? 'never', o.started?.account ?? '-',
  ]));
  const reviewEvents = new Set(['review_requested', 'reviewer_leased', 'reviewer_started', 'review_verdict', 'reviewer_failed']);
  const reviewed = new Set(f.reviewed);
  const rounds = f.reviewed.flatMap((lane) => verdictsOf(f, lane).map((v) => [
    lane, v.round, `${v.reviewer} g${v.generation}`, v.account, v.vendor, `${v.laneAccount || '-'} (${v.laneVendor})`,
    v.account === f.leadAccount || v.account === v.leadAccount ? 'yes' : 'no', v.verdict, v.what, v.at,
  ]));
  const failed = f.journal.filter((e) => e.event === 'reviewer_failed' && reviewed.has(str(e.lane)))
    .map((e) => [e.ts, e.lane, e.round, `${str(e.reviewer)} g${str(e.reviewer_generation)}`, e.account, e.why]);
  const ignoredVerdicts = f.journal.filter((e) => e.event === 'review_verdict' && e.why !== undefined && reviewed.has(str(e.lane)));
  const done = f.reviewed.map((lane) => [lane, doneResults(f, lane).map((e) => e.ts).join(', ') || 'never']);
  const trail = f.journal.filter((e) =>
    (reviewEvents.has(e.event) && reviewed.has(str(e.lane))) ||
    (e.event === 'lease_released' && typeof e.reviewer === 'string') ||
    e.event === 'dependencies_done');
  return doc([
    '# Order and review',
    '',
    `The lead's account: ${f.leadAccount}. Accounts: ${Object.entries(f.vendors).map(([a, v]) => `${a} (${v})`).join(', ') || 'none'}.`,
    '',
    '## Lanes after others',
    "A lane `after:` others waits, with no account and no pane, until each is done (its `lane_result` with",
    "result done); swarm journals `dependencies_done`, then the lane starts.",
    '',
    ...(order.length === 0 ? ['No lane is after another.'] : table(['lane', 'after', 'dependency done at', 'dependencies_done at', 'lane started at', 'account'], order)),
    '',
    '## Review rounds',
    "A reviewed lane whose gate passed is not done: a fresh reviewer on an account of another vendor (never",
    "the lane's own, never the lead's) says approved or asks for changes; the lane is done only after an approval.",
    '',
    ...(rounds.length === 0 ? ['No verdict was given.'] : table(['lane', 'round', 'reviewer', 'account', 'vendor', "lane's account (vendor)", "lead's account", 'verdict', 'changes asked', 'at'], rounds)),
    '',
    ...(failed.length === 0 ? ['No reviewer failed.'] : ['Reviewers that failed (replaced by a fresh one):', '', ...table(['ts', 'lane', 'round', 'reviewer', 'account', 'why'], failed)]),
    '',
    ...(ignoredVerdicts.length === 0 ? ['No verdict was ignored.'] : [`Verdicts swarm ignored (not counted): ${ignoredVerdicts.map((e) => `${str(e.ts)} ${str(e.lane)}: ${str(e.why)}`).join('; ')}.`]),
    '',
    ...table(['reviewed lane', 'done at'], done),
    '',
    '## From the journal',
    '',
    ...journalTable(trail),
  ]);
}

export function gatesDoc(f: DrillFacts): string {
  const results = f.journal.filter((e) => e.event === 'lane_result');
  const inPane = f.panes.flatMap((p) => p.text.split('\n')
    .filter((l) => /^\[sim\] (rerun )?gate (passed|not passing)/.test(l))
    .map((l) => [`${p.name} g${p.generation}`, l.replace(/^\[sim\] /, '')]));
  return doc([
    '# Gates',
    '',
    "## done_when, run by swarm in the lane's checkout",
    '',
    ...table(['ts', 'lane', 'generation', 'gate', 'passed', 'output'], results.map((e) => [e.ts, e.lane, e.generation, e.gate, e.passed === true ? 'yes' : 'no', e.output])),
    '',
    "## Gates the agents ran (their plan steps, and a successor's reruns of the packet's unverified gates)",
    '',
    ...table(['pane', 'gate'], inPane),
  ]);
}

/** What each simulated generation spent (SPEC 10.7): the sim's model prices its steps, so the figures are made up but exact. */
export function spendDoc(f: DrillFacts): string {
  const said = (cost: number | null, tokens: { input: number | null; output: number | null; cache_read: number | null; cache_write: number | null }) => spendText({ cost_usd: cost, tokens }) ?? '-';
  const s = f.spend;
  return doc([
    '# Spend',
    '',
    `The run spent ${said(s.total.cost_usd, s.total.tokens)} (simulated: the sim prices each step it works at a fixed rate).`,
    '',
    '## Each generation',
    '',
    ...table(['lane', 'agent', 'generation', 'account', 'vendor', 'turns', 'input tokens', 'output tokens', 'cost', 'ended'],
      s.generations.map((g) => [g.lane, g.agent, g.generation, g.account ?? '', g.vendor ?? '', g.turns, g.tokens.input ?? '', g.tokens.output ?? '', said(g.cost_usd, g.tokens), g.end ?? 'running'])),
    '',
    '## Per lane, account and vendor',
    '',
    ...table(['by', 'name', 'spent'], [
      ...s.lanes.map((l) => ['lane', l.lane, said(l.cost_usd, l.tokens)]),
      ...s.accounts.map((a) => ['account', a.account, said(a.cost_usd, a.tokens)]),
      ...s.vendors.map((v) => ['vendor', v.vendor, said(v.cost_usd, v.tokens)]),
    ]),
  ]);
}

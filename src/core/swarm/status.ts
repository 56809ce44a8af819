/**
 * `swarm status` (SPEC 7): the lanes as the dashboard shows them, as JSON and as a table. Pure:
 * the engine's lane states and the lead record come in.
 */
import type { LaneState } from '../../machine/types.js';
import type { LeadRecord } from '../lead/epochs.js';
import { age } from '../config/duration.js';
import { forecast, leftText, type Sample } from '../capacity/forecast.js';
import type { Reading } from '../accounts/leases.js';
import { agentFigures, generationView, ledgerFigures, spendText, type GenerationView, type Ledger } from '../ledger/ledger.js';

export interface StatusInput {
  plan: string;
  session: string;
  leadName: string;
  leadAgent: string;
  epoch: number;
  lanes: LaneState[];
  record: LeadRecord | null;
  now: number;
  /** The accounts' last readings and their readings over the run, with the critical line (SPEC 10.7); absent: no accounts part. */
  accounts?: { readings: Record<string, Reading>; samples: Record<string, Sample[]>; critical: number };
  /** What each agent generation spent (SPEC 10.7); absent: none kept. */
  ledger?: Ledger;
}

/** An account as `status --json` shows it (SPEC 10.7): its reading and its forecast. */
export interface AccountStatus {
  id: string;
  state: string;
  remaining_pct: number | null;
  burn_pct_per_hour: number | null;
  critical_in_min: number | null;
  resets_at: string | null;
}

export interface StatusJson {
  plan: string;
  session: string;
  lead: { name: string; epoch: number; account: string | null; state: string };
  lanes: {
    name: string;
    generation: number;
    account: string | null;
    state: string;
    phase: string | null;
    capacity: string | null;
    context_pct: number | null;
    blocked: { class: string; what: string } | null;
    last: string | null;
    /** SPEC 10.6: on a waiting lane only, the lanes it waits for. */
    waiting_for?: string[];
    /** SPEC 10.6: a reviewer in flight is an entry of its own, `role: "reviewer"`, after its lane. */
    role?: 'reviewer';
    review_of?: string;
    round?: number;
    /** SPEC 10.7: what each of its generations spent, oldest first. */
    generations: GenerationView[];
  }[];
  accounts?: AccountStatus[];
}

export function statusJson(input: StatusInput): StatusJson {
  const lead = input.lanes.find((l) => l.name === input.leadName) ?? null;
  return {
    plan: input.plan,
    session: input.session,
    lead: {
      name: input.record?.lead ?? input.leadAgent,
      epoch: input.record?.epoch ?? input.epoch,
      account: lead?.account ?? input.record?.account ?? null,
      state: input.record?.released ? 'released' : (lead?.state ?? 'starting'),
    },
    lanes: input.lanes
      .filter((l) => l.name !== input.leadName)
      .flatMap((l) => [{
        name: l.name,
        generation: l.generation,
        account: l.account,
        state: l.state,
        phase: l.phase,
        capacity: l.capacity,
        context_pct: l.contextPct,
        blocked: l.blocked ? { class: l.blocked.class, what: l.blocked.what } : null,
        last: l.last,
        ...(l.state === 'waiting' ? { waiting_for: [...(l.waitingFor ?? [])] } : {}),
        generations: generationsOf(input.ledger, l.name),
      }, ...reviewerEntry(l, input.ledger)]),
    ...(input.accounts === undefined ? {} : { accounts: accountsStatus(input.accounts) }),
  };
}

const generationsOf = (ledger: Ledger | undefined, agent: string): GenerationView[] => (ledger?.[agent] ?? []).map(generationView);

/** Every account with a reading, by id: its reading and how fast it burns (core/capacity/forecast.ts). */
export function accountsStatus(a: NonNullable<StatusInput['accounts']>): AccountStatus[] {
  return Object.keys(a.readings).sort().map((id) => {
    const r = a.readings[id]!;
    const f = forecast(a.samples[id] ?? [], a.critical);
    return { id, state: r.state, remaining_pct: r.remainingPct, burn_pct_per_hour: f.burnPctPerHour, critical_in_min: f.criticalInMin, resets_at: r.resetsAt };
  });
}

/** A lane's reviewer in flight as a status entry (SPEC 10.6), or none. */
function reviewerEntry(l: LaneState, ledger: Ledger | undefined): StatusJson['lanes'] {
  const r = l.review?.reviewer ?? null;
  if (!l.review || r === null) return [];
  return [{
    name: `${l.name}.review`, role: 'reviewer', review_of: l.name, round: l.review.round, generation: r.seq, account: r.account,
    state: r.paneId === null ? 'starting' : 'working', phase: null, capacity: null, context_pct: null, blocked: null, last: `reviewing ${l.name} (round ${l.review.round})`,
    generations: generationsOf(ledger, `${l.name}.review`),
  }];
}

/** A plain table, no escape codes. */
export function statusTable(input: StatusInput): string {
  const json = statusJson(input);
  // A lane promoted in place (SPEC 10.5), awaited or done: said in the header, not in SPEC 7's JSON.
  const promoting = input.lanes.find((l) => l.name === input.leadName)?.handoff?.promotion?.lane;
  const from = input.record?.released ? undefined : input.record?.promoted_from;
  const promotion = promoting ? `, promoting ${promoting}` : from ? `, ${from.lane} g${from.generation} promoted in place` : '';
  // The run's spend, the lead's and reviewers' included (SPEC 7's JSON keeps its keys: lanes carry `generations`).
  const total = spendText(ledgerFigures(input.ledger));
  const header = `swarm ${json.session.replace(/^swarm-/, '')} — plan ${json.plan} — lead ${json.lead.name}@${json.lead.epoch}${json.lead.account ? ` (${json.lead.account})` : ''} ${json.lead.state}${promotion}${total === null ? '' : ` — spent ${total}`}`;
  // A SPEND column once some agent told a figure (a plan of command lanes has none to show).
  const spent = (agent: string): string[] => (total === null ? [] : [spendText(agentFigures(input.ledger?.[agent])) ?? '-']);
  const reviewers = json.lanes.filter((l) => l.role === 'reviewer').map((r) => [r.name, `g${r.generation}`, r.account ?? '-', r.state === 'starting' ? 'starting' : 'reviewing', '-', '-', '-', ...spent(r.name), r.last ?? '-']);
  const rows = input.lanes
    .filter((l) => l.name !== input.leadName)
    .flatMap((l) => [[
      l.name,
      `g${l.generation}`,
      l.account ?? '-',
      l.state === 'blocked' && l.blocked ? `blocked ${l.blocked.class}` : l.state,
      // A done or stopped lane's phase age stops where the lane ended, as on the dashboard.
      l.phase ? `${l.phase} ${age((l.endedAt ?? input.now) - (l.phaseSince ?? input.now))}` : '-',
      l.capacity ?? '-',
      l.contextPct === null ? '-' : `${l.contextPct}%`,
      ...spent(l.name),
      l.state === 'waiting' ? oneLine(`waiting for ${(l.waitingFor ?? []).join(', ')} to be done`, 160)
        : l.waitingForAccount ? oneLine(`waiting for an account: ${l.waitingForAccount.why}`, 160) : oneLine(l.last ?? '-', 60),
    ], ...reviewers.filter((r) => r[0] === `${l.name}.review`)]);
  const table = [['LANE', 'GEN', 'ACCOUNT', 'STATE', 'PHASE', 'CAPACITY', 'CTX', ...(total === null ? [] : ['SPEND']), 'LAST'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const lines = table.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
  const accounts = (json.accounts ?? []).map((a) => {
    const left = leftText({ burnPctPerHour: a.burn_pct_per_hour, criticalInMin: a.critical_in_min });
    return `${a.id} ${a.state}${a.remaining_pct === null ? '' : ` ${a.remaining_pct}%`}${left === null ? '' : ` ${left}`}`;
  });
  return [header, ...lines, ...(accounts.length === 0 ? [] : [`ACCOUNTS  ${accounts.join(' · ')}`])].join('\n');
}

function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

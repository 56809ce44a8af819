/**
 * The dashboard's cells as plain text: marks, tones, the context bar, a phase with its age, counts.
 * Pure (the time comes in as `now`), so every frame's text can be checked without a terminal.
 */
import type { LaneState, LaneStatus, Phase } from '../machine/types.js';
import type { CapacityState } from '../core/protocol/protocol.js';
import { age } from '../core/config/duration.js';
import type { LaneView, SwarmView } from './store.js';

/** A colour name Ink understands; null is the terminal's own colour. */
export type Tone = 'green' | 'yellow' | 'red' | 'gray' | 'cyan' | null;

export const STATE_MARK: Record<LaneStatus, string> = {
  starting: '◌', working: '●', blocked: '▲', done: '✓', lost: '✗', stopped: '■', waiting: '…',
};

export const STATE_TONE: Record<LaneStatus, Tone> = {
  starting: 'gray', working: 'green', blocked: 'yellow', done: 'cyan', lost: 'red', stopped: 'red', waiting: 'gray',
};

/** The capacity line's colour: ok green, low yellow, critical red, unknown grey. */
export const CAPACITY_TONE: Record<CapacityState, Tone> = { ok: 'green', low: 'yellow', critical: 'red', unknown: 'gray' };

export const PHASE_TONE: Record<Phase, Tone> = {
  near: 'yellow', writing: 'yellow', reported: 'cyan', spawning: 'cyan', accepted: 'green',
  rejected: 'red', waiting: 'yellow', degraded: 'yellow', attention: 'red', stopped: 'red',
};

const STATE_ORDER: readonly LaneStatus[] = ['starting', 'working', 'waiting', 'blocked', 'done', 'lost', 'stopped'];

/* eslint-disable no-control-regex -- escape codes and control characters are what these strip */
const ESCAPES = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
/* eslint-enable no-control-regex */

/** One line of text an agent wrote, safe to draw: escape codes dropped, control runs as one space. */
export function oneLine(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, ' ').trim();
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Characters (code points) in `text`; without surrogate pairs, as most text is, its length. */
export function charCount(text: string): number {
  return SURROGATE.test(text) ? [...text].length : text.length;
}

/** At most `width` characters; a cut text ends with `…`. */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  if (!SURROGATE.test(text)) return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}

/** Exactly `width` characters: cut, then padded with spaces. */
export function fit(text: string, width: number): string {
  const shown = cut(text, width);
  return shown + ' '.repeat(Math.max(0, width - charCount(shown)));
}

/** `███░░░  41%`: `cells` cells of bar and the percentage; `░░░░░░   -` with no reading. */
export function contextBar(pct: number | null, cells = 6): string {
  if (pct === null || !Number.isFinite(pct)) return `${'░'.repeat(cells)} ${'-'.padStart(4)}`;
  const clamped = Math.max(0, Math.min(100, Math.round(pct)));
  const filled = Math.round((clamped / 100) * cells);
  return `${'█'.repeat(filled)}${'░'.repeat(cells - filled)} ${`${clamped}%`.padStart(4)}`;
}

/** `working`, or `blocked permission` with the class. */
export function stateText(lane: LaneState): string {
  return lane.state === 'blocked' && lane.blocked ? `blocked ${lane.blocked.class}` : lane.state;
}

/**
 * The handoff phase and how long it has been so (`accepted 12s`); `-` before any handoff. A done or
 * stopped lane's age stops where the lane ended (its `endedAt`); a phase that began as it ended
 * (`stopped`), or one whose end a state file never recorded, shows no age.
 */
export function phaseText(lane: LaneState, now: number): string {
  const resuming = lane.resuming ?? null;
  if (resuming !== null) return `resuming ${age(now - resuming.since)}`;
  if (lane.phase === null) return '-';
  const since = lane.phaseSince ?? now;
  if (!ended(lane)) return `${lane.phase} ${age(now - since)}`;
  const at = lane.endedAt ?? since;
  return at > since ? `${lane.phase} ${age(at - since)}` : lane.phase;
}

/** Done or stopped: nothing on its line changes with the clock any more. */
const ended = (lane: LaneState): boolean => lane.state === 'done' || lane.state === 'stopped';

/**
 * The capacity cell: the capacity line drawn clean without its context part (`context=41%`, or the
 * short `ctx=41%`): the CONTEXT column is the one place for context, from the latest reading.
 */
export function capacityText(capacity: string | null): string {
  if (capacity === null) return '-';
  return oneLine(oneLine(capacity).replace(CONTEXT_PART, '')) || '-';
}

const CONTEXT_PART = /(?:^|\s)(?:context|ctx)=\S*/gi;

/** `o1/openai`: the account and its vendor. */
export function accountText(view: LaneView): string {
  const { account } = view.lane;
  if (account === null) return '-';
  const left = view.left ? ` ${view.left}` : '';
  return `${view.vendor ? `${account}/${view.vendor}` : account}${left}`;
}

/** What the last column says: why the lane is held, the packet's rejection reasons, else the last report. */
export function lastText(lane: LaneState): string {
  if (lane.state === 'blocked' && lane.blocked) return oneLine(lane.blocked.what);
  if (lane.state === 'waiting') return oneLine(`waiting for ${(lane.waitingFor ?? []).join(', ')} to be done`);
  if (lane.waitingForAccount) return oneLine(`waiting for an account: ${lane.waitingForAccount.why}`);
  // The session's first 8 characters (a uuid's first group: the journal's session_resumed has it whole), so the account fits.
  if (lane.resuming) {
    const id = lane.resuming.sessionId.length > 9 ? `${lane.resuming.sessionId.slice(0, 8)}…` : lane.resuming.sessionId;
    return oneLine(`resuming its session ${id} @${lane.resuming.account}${lane.resuming.paneId === null ? ': starting' : ': waiting for it to be ready'}`);
  }
  if (lane.phase === 'rejected' && lane.handoff && lane.handoff.rejected.length > 0) return oneLine(`rejected: ${lane.handoff.rejected.join('; ')}`);
  if (lane.review) return oneLine(reviewText(lane.name, lane.review));
  return oneLine(lane.last ?? '');
}

/** A review round in flight (SPEC 10.6), as the dashboard and `swarm status` say it. */
export function reviewText(lane: string, review: NonNullable<LaneState['review']>): string {
  const r = review.reviewer;
  if (r === null) return `in review (round ${review.round}): picking a reviewer of another vendor`;
  return `in review (round ${review.round}): ${lane}.review g${r.seq} @${r.account}${r.paneId === null ? ' starting' : ''}`;
}

/**
 * The legend: what the words a user wonders about mean. `near`: the lane's capacity (or context) ran
 * low and it was told to hand off soon; `attention`: no successor could be started for its handoff
 * (every account tried, or it crashed at start), so the lane is held until someone acts; `blocked`:
 * a screen or report escalated, waiting for an answer.
 */
export const LEGEND = 'near: capacity low, hand-off soon · attention: no successor could start, needs you · blocked: waits for an answer';
/** For terminals narrower than the whole legend. */
export const LEGEND_SHORT = 'near: capacity low, hand-off soon · attention: needs you';

/** The legend that fits `width`, cut when even the short one does not. */
export function legendText(width: number): string {
  return cut(charCount(LEGEND) <= width ? LEGEND : LEGEND_SHORT, width);
}

/** `3 lanes: 2 working · 1 done`, states in a fixed order. */
export function laneCounts(lanes: readonly LaneView[]): string {
  const counts = new Map<LaneStatus, number>();
  for (const { lane } of lanes) counts.set(lane.state, (counts.get(lane.state) ?? 0) + 1);
  const parts = STATE_ORDER.filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s}`);
  const total = `${lanes.length} lane${lanes.length === 1 ? '' : 's'}`;
  return parts.length === 0 ? total : `${total}: ${parts.join(' · ')}`;
}

/** The plan as a person names it: its last two path segments (`plans/demo`). */
export function planName(plan: string): string {
  return plan.split('/').filter(Boolean).slice(-2).join('/');
}

/**
 * Milliseconds until `age(ms)` reads differently: the next second below a minute, else the next
 * minute (age rounds to the second). At least 1.
 */
export function ageChangesIn(ms: number): number {
  const s = Math.max(0, Math.round(ms / 1000));
  const next = s < 60 ? s + 1 : (Math.floor(s / 60) + 1) * 60;
  return Math.max(1, (next - 0.5) * 1000 - ms);
}

/** Milliseconds until any time on screen (the uptime, a live lane's phase age) changes: when the clock must draw again. */
export function clockDue(view: Pick<SwarmView, 'startedAt' | 'lanes'>, now: number): number {
  let due = ageChangesIn(now - view.startedAt);
  for (const { lane } of view.lanes) {
    if (lane.phase !== null && lane.phaseSince !== null && !ended(lane)) due = Math.min(due, ageChangesIn(now - lane.phaseSince));
  }
  return due;
}

/** How long the swarm has run (`3m`, `2h05m`). */
export function uptime(startedAt: number, now: number): string {
  return age(now - startedAt);
}

/**
 * Durations as swarm.yaml writes them: `<n>ms`, `<n>s`, `<n>m`, `<n>h`, or a bare number of seconds;
 * and every way swarm writes a duration for a person (formatDuration: swarm.yaml's spelling,
 * spokenDuration: in a sentence, age: in a column, stopwatch: in a report). Pure.
 *
 * Decision: no duration is longer than MAX_DURATION_MS (7 days). It is far past any wait swarm
 * makes (accept, packet, stall, ask, release, `up --timeout`), and well under the 2^31-1 ms (24.8
 * days) past which Node's setTimeout fires at once: `release: 600h` released immediately.
 */
import { excerpt } from '../../errors.js';

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** 168h: the longest duration swarm reads. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;
const DURATION = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)?$/;

/**
 * Read a duration: a string such as `10m`, `30s`, `1.5h`, `250ms` or `45` (seconds), or a number
 * (seconds). Refuses empty, negative, unknown or upper-case units, inner spaces, compounds
 * (`10 m`, `1h30m`) and anything over 168h.
 */
export function parseDuration(value: unknown): DurationResult {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? bounded(value, Math.round(value * 1000)) : bad(value);
  }
  if (typeof value !== 'string') return bad(value);
  const match = DURATION.exec(value.trim());
  if (match === null) return bad(value);
  const amount = Number(match[1]);
  const factor = UNIT_MS[match[2] ?? 's'] ?? 1000;
  return bounded(value, Math.round(amount * factor));
}

function bounded(value: unknown, ms: number): DurationResult {
  if (ms <= MAX_DURATION_MS) return { ok: true, ms };
  return { ok: false, error: `duration ${show(value)} is over the longest swarm waits, ${formatDuration(MAX_DURATION_MS)} (7 days): use at most ${formatDuration(MAX_DURATION_MS)}` };
}

/** Format milliseconds the way a person writes them in swarm.yaml (`10m`, `90s`, `250ms`). */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

function bad(value: unknown): DurationResult {
  return { ok: false, error: `bad duration ${show(value)}: use <n>ms, <n>s, <n>m or <n>h (a bare number is seconds)` };
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(excerpt(value, 40));
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a mapping';
  return String(value);
}

/** `12 min`, `45 s`, `500 ms`: a duration as a sentence reads it
 * (notices and escalations; swarm.yaml's spelling is formatDuration). */
export function spokenDuration(ms: number): string {
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

/** How long something has been so, in a column (`45s`, `3m`, `2h05m`): whole seconds, then minutes. */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** How long a step took, as a report reads it (`4.5s`, `1m05s`, `120m00s`). */
export function stopwatch(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

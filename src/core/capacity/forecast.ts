/**
 * The forecast (SPEC 10.7): from an account's readings in this run, how fast it burns its binding
 * window (% of the window per hour) and how many minutes are left before it crosses `critical`. Pure.
 *
 * Decisions where SPEC 10.7 is silent:
 * - Only the readings since the last reset count: a reading more than RESET_JUMP points above the one
 *   before it is a new window (the reset), and the burn is measured from there.
 * - The rate is the least-squares slope of remaining % over time (readings are noisy: a status line
 *   rounds, two sources disagree by a point), never the last two readings alone.
 * - Three or more readings spanning at least 30 s, else no forecast (null), as the SPEC says.
 * - A window not burning (the slope flat or rising: a capped reading holds still, an idle account)
 *   has a burn of 0 and no time to critical (null): it is not running out.
 * - At or below critical already: 0 minutes.
 */

export interface Sample {
  /** ms since the epoch. */
  at: number;
  /** Remaining % of the binding window. */
  pct: number;
}

export interface Forecast {
  /** % of the binding window burnt per hour; null: too few readings to say. */
  burnPctPerHour: number | null;
  /** Minutes until the remaining % reaches `critical`; null: unknown or not burning. */
  criticalInMin: number | null;
}

export const MIN_SAMPLES = 3;
export const MIN_SPAN_MS = 30_000;
/** A rise of more than this many points between two readings is a reset. */
export const RESET_JUMP = 5;
/** How many readings an account keeps for its forecast (the newest). */
export const KEEP_SAMPLES = 32;

/** The readings since the last reset, in time order. */
export function sinceReset(samples: readonly Sample[]): Sample[] {
  const sorted = [...samples].sort((a, b) => a.at - b.at);
  let start = 0;
  for (let i = 1; i < sorted.length; i += 1) if (sorted[i]!.pct - sorted[i - 1]!.pct > RESET_JUMP) start = i;
  return sorted.slice(start);
}

export function forecast(samples: readonly Sample[], critical: number): Forecast {
  const window = sinceReset(samples.filter((s) => Number.isFinite(s.at) && Number.isFinite(s.pct)));
  if (window.length < MIN_SAMPLES || window.at(-1)!.at - window[0]!.at < MIN_SPAN_MS) return { burnPctPerHour: null, criticalInMin: null };
  const slope = leastSquaresSlope(window); // % per ms, negative while burning
  const burn = Math.max(0, -slope * 3_600_000);
  const last = window.at(-1)!.pct;
  if (last <= critical) return { burnPctPerHour: round1(burn), criticalInMin: 0 };
  if (burn === 0) return { burnPctPerHour: 0, criticalInMin: null };
  return { burnPctPerHour: round1(burn), criticalInMin: Math.round(((last - critical) / burn) * 60) };
}

function leastSquaresSlope(samples: readonly Sample[]): number {
  const t0 = samples[0]!.at;
  const n = samples.length;
  const meanX = samples.reduce((s, p) => s + (p.at - t0), 0) / n;
  const meanY = samples.reduce((s, p) => s + p.pct, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of samples) {
    const x = p.at - t0 - meanX;
    num += x * (p.pct - meanY);
    den += x * x;
  }
  return den === 0 ? 0 : num / den;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** The samples kept once `next` is added: the newest KEEP_SAMPLES, one per time. */
export function addSample(samples: readonly Sample[] | undefined, next: Sample): Sample[] {
  const kept = (samples ?? []).filter((s) => s.at !== next.at);
  return [...kept, next].sort((a, b) => a.at - b.at).slice(-KEEP_SAMPLES);
}

/** "~40m left", "~2h05m left", "critical now"; null when there is no forecast to show. */
export function leftText(f: Forecast): string | null {
  if (f.criticalInMin === null) return null;
  if (f.criticalInMin === 0) return 'critical now';
  const m = f.criticalInMin;
  return m < 60 ? `~${m}m left` : `~${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m left`;
}

/** Report times a lane keeps for its work boundaries (the newest). */
export const KEEP_REPORTS = 6;

/** The median of the intervals between the report times given (in order); null with fewer than three intervals. */
export function medianInterval(times: readonly number[]): number | null {
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, i) => t - sorted[i]!).filter((g) => g > 0).sort((a, b) => a - b);
  if (gaps.length < 3) return null;
  const mid = Math.floor(gaps.length / 2);
  return gaps.length % 2 === 1 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
}

/**
 * Whether a lane should be told now that it runs low (SPEC 10.7): its account will cross `critical`
 * before the lane's next likely work boundary (the median of its last three or more intervals between
 * reports), so its packet is written while the agent can still write a good one.
 */
export function nearBeforeNextBoundary(f: Forecast, reportTimes: readonly number[]): { median: number } | null {
  const median = medianInterval(reportTimes.slice(-(KEEP_REPORTS)));
  if (median === null || f.criticalInMin === null || f.criticalInMin === 0) return null;
  return f.criticalInMin * 60_000 < median ? { median } : null;
}

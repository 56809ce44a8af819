/**
 * The one clock of a swarm (every deadline is state): every decision and record of the runtime reads the time
 * and sets its deadlines through it. `systemClock` is the real one; tests drive one by hand
 * (tests/helpers/handClock.ts), so a five-minute ask timeout passes in a millisecond. And
 * safeTimeout, the real clock's setTimeout: Node fires a delay over 2^31-1 ms (24.8 days) at once.
 */

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * setTimeout for any delay: a longer one than MAX_TIMER_MS runs as an interval of equal steps that
 * fires `fn` once, on the last; an infinite one never fires; a negative or NaN one fires next turn.
 * The handle is one Node timer throughout, so clearTimeout stops it at any time.
 */
export function safeTimeout(fn: () => void, ms: number): NodeJS.Timeout {
  if (!(ms > 0)) return setTimeout(fn, 0);
  if (ms <= MAX_TIMER_MS) return setTimeout(fn, ms);
  if (ms === Number.POSITIVE_INFINITY) return setInterval(() => undefined, MAX_TIMER_MS);
  const steps = Math.ceil(ms / MAX_TIMER_MS);
  let left = steps;
  const handle = setInterval(() => {
    left -= 1;
    if (left > 0) return;
    clearInterval(handle);
    fn();
  }, ms / steps);
  return handle;
}

/** A deadline set on a clock; `cancel` is idempotent. */
export interface ClockTimer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Run `fn` once `ms` have passed on this clock (any delay: see safeTimeout). */
  after(ms: number, fn: () => void): ClockTimer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const handle = safeTimeout(fn, ms);
    return { cancel: () => clearTimeout(handle) };
  },
};

/** The clock's time as an ISO string (records, packet names, the notify command). */
export function isoNow(clock: Pick<Clock, 'now'>): string {
  return new Date(clock.now()).toISOString();
}

/** Times on the page: local clock labels (the reader's time zone, or the one given) and axis ticks. Pure. */

export interface Clock {
  /** `23:04:05` in the zone. */
  time(iso: string | number): string;
  /** `2026-12-01 23:04:05` in the zone. */
  dateTime(iso: string | number): string;
  /** `UTC+01:00`, `UTC`: the zone's offset at `at` (the night's start: DST may differ today). */
  zone: string;
}

export function clockIn(timeZone: string | undefined, at: number): Clock {
  const zone = validZone(timeZone);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  });
  const pick = (ms: number) => {
    const p = Object.fromEntries(parts.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
  };
  const ms = (v: string | number) => (typeof v === 'number' ? v : Date.parse(v));
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(Number.isFinite(at) ? at : 0)).find((x) => x.type === 'timeZoneName')?.value ?? 'GMT';
  return {
    time: (v) => (Number.isFinite(ms(v)) ? pick(ms(v)).time : '?'),
    dateTime: (v) => {
      if (!Number.isFinite(ms(v))) return '?';
      const p = pick(ms(v));
      return `${p.date} ${p.time}`;
    },
    zone: offset === 'GMT' || offset === 'GMT+00:00' ? 'UTC' : offset.replace('GMT', 'UTC'),
  };
}

/** An IANA zone Intl knows, else the runtime's own (undefined). */
function validZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone.replace(/^:/, '') });
    return zone.replace(/^:/, '');
  } catch {
    return undefined;
  }
}

const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200].map((s) => s * 1000);

/** Tick times (ms) on whole steps of the span, about `count` of them. */
export function ticks(from: number, to: number, count = 8): number[] {
  const span = Math.max(1, to - from);
  const step = STEPS.find((s) => span / s <= count) ?? 86_400_000;
  const out: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) out.push(t);
  return out;
}

/** A duration for people: `0.4s`, `1m05s`, `2h03m`. */
export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

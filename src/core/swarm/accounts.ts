/**
 * What the swarm knows of its accounts beyond leases (SPEC 3): the last capacity reading of each,
 * those that hit a usage limit (until their reset, when known), and those a successor found not
 * ready (a login, consent or payment screen). `pick` reads them; these are the only ways they
 * change (a reading is merged into the last: core/swarm/readings.ts). Pure.
 */
import type { Reading } from '../accounts/leases.js';
import { mergeReading } from './readings.js';
import { addSample, type Sample } from '../capacity/forecast.js';

export interface AccountFacts {
  /** account → when it resets (ISO; null: unknown), once it hit a usage limit. */
  limited: Record<string, string | null>;
  /** account → the screen's text, for accounts a successor showed a blocking screen on. */
  notReady: Record<string, string>;
  readings: Record<string, Reading>;
  /** account → its readings' remaining % over this run, the newest kept (the forecast's: core/capacity/forecast.ts). */
  samples: Record<string, Sample[]>;
}

export type AccountEvent =
  | { type: 'limited'; account: string; resetsAt: string | null }
  | { type: 'not_ready'; account: string; why: string }
  /** `at`: when it was taken in (the engine's clock), for the forecast. */
  | { type: 'reading'; account: string; reading: Reading; at: number };

/**
 * `sameAs`: the other ids of the same account (SPEC 10.4: two ids on one profile folder are one
 * account): what is learnt of one holds for each.
 */
export function reduceAccounts(facts: AccountFacts, event: AccountEvent, sameAs: readonly string[] = []): AccountFacts {
  let next = reduceOne(facts, event);
  for (const id of sameAs) if (id !== event.account) next = reduceOne(next, { ...event, account: id });
  return next;
}

function reduceOne(facts: AccountFacts, event: AccountEvent): AccountFacts {
  switch (event.type) {
    case 'limited':
      return { ...facts, limited: { ...facts.limited, [event.account]: event.resetsAt } };
    case 'not_ready':
      return { ...facts, notReady: { ...facts.notReady, [event.account]: event.why } };
    case 'reading': {
      const merged = mergeReading(facts.readings[event.account], event.reading);
      const pct = event.reading.remainingPct;
      // Only a reading with a percentage of its own is a point of the burn (a merged one repeats the last).
      const samples = pct === null || event.reading.state === 'unknown' ? facts.samples : { ...facts.samples, [event.account]: addSample(facts.samples[event.account], { at: event.at, pct }) };
      return { ...facts, readings: { ...facts.readings, [event.account]: merged }, samples };
    }
  }
}

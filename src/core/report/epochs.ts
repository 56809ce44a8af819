/** The lead's epochs as bands of time: who led from when to when, and how they came to. Pure. */
import type { JournalEntry } from '../protocol/journal.js';
import type { Epoch } from './types.js';
import { num, str } from './lanes.js';

const HOW: Record<string, Epoch['how']> = {
  lead_claimed: 'claimed', lead_handover: 'handover', lead_takeover: 'takeover', lead_epoch_raised: 'raised',
};

export function epochsOf(j: readonly JournalEntry[], leadRow: string, end: string): Epoch[] {
  const epochs: Epoch[] = [];
  for (const e of j) {
    const how = HOW[e.event];
    if (how !== undefined) {
      const epoch = e.epoch ?? num(e.new_epoch);
      const last = epochs.at(-1);
      // A takeover of a lane's own generation is journaled at the old epoch: the raise that follows says the new one.
      if (epoch === null || (last && epoch <= last.epoch)) continue;
      const lead = str(e.to) ?? (how === 'claimed' || how === 'raised' ? e.lane : null) ?? leadRow;
      if (last) last.to = e.ts;
      epochs.push({ epoch, lead, how, from: e.ts, to: end });
    } else if (e.event === 'lead_released') {
      const last = epochs.at(-1);
      if (last) last.to = e.ts;
    }
  }
  return epochs;
}

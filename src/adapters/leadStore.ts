/**
 * lead.json on disk: read it, and change it only by compare-and-swap on `revision` while holding
 * a short lock, so two processes never both believe their write won.
 */
import { planPaths } from '../core/plan/paths.js';
import { parseLeadRecord, type LeadOutcome, type LeadRecord } from '../core/lead/epochs.js';
import { MismatchError } from '../errors.js';
import { readTextIfExists, writeFileAtomic } from './files.js';
import { withLock } from './lock.js';

export function readLeadRecord(planDir: string): LeadRecord | null {
  const path = planPaths(planDir).leadRecord;
  const text = readTextIfExists(path);
  if (text === null) return null;
  const parsed = parseLeadRecord(text);
  if (!parsed.ok) {
    throw new MismatchError(`${path} is not a lead record: ${parsed.reason}`, [parsed.reason], {
      hint: 'fix or remove the file; the next `swarm up` of a new run claims a new one',
    });
  }
  return parsed.record;
}

/**
 * Apply `change` to the current record under the lock. The change sees the record as read; its
 * result is written only if the revision on disk is still the one read.
 */
export function updateLeadRecord(planDir: string, change: (current: LeadRecord | null) => LeadOutcome): LeadOutcome {
  const path = planPaths(planDir).leadRecord;
  return withLock(`${path}.lock`, 'lead record', () => {
    const current = readLeadRecord(planDir);
    const outcome = change(current);
    if (!outcome.ok) return outcome;
    const before = current?.revision ?? 0;
    if (outcome.record.revision !== before + 1) {
      return { ok: false, code: 'revision', message: `lead.json changed under us (revision ${before}); try again` };
    }
    writeFileAtomic(path, `${JSON.stringify(outcome.record, null, 2)}\n`);
    return outcome;
  });
}

/**
 * Invariants of the chaos faults about appends (scripts/chaos.mjs): a full disk under the plan's
 * `.swarm/` (in every agent's spool: no record glued to torn bytes, every whole record read, `inbox_torn` only where bytes
 * really are torn) and a lane that reported while no engine ran (the report counted: no degraded
 * packet, no successor for a lane that reported done). Pure but for reading the plan's files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const KINDS = ['message', 'accept', 'capacity', 'lead', 'answer', 'lane', 'hook'];

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The inbox's lines with their byte offsets: { at, end, text } (end: after its newline; null when it has none). */
function inboxLines(bytes) {
  const lines = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    lines.push({ at: start, end: nl === -1 ? null : nl + 1, text: bytes.subarray(start, end).toString('utf8') });
    start = end + 1;
  }
  return lines;
}

const isRecord = (value) => typeof value === 'object' && value !== null && KINDS.includes(value.kind);

/** Every agent spool of the plan: `r<run>/<name>-g<N>` → its file. */
function spools(plan) {
  const root = join(plan, '.swarm', 'spool');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((run) => readdirSync(join(root, run)).map((agent) => ({ name: `${run}/${agent}`, path: join(root, run, agent, 'records.jsonl') })));
}

/**
 * After a full disk, in every agent's spool: no line glued (torn bytes with a record after them on
 * one line); every whole record written before the plan was done lies before the engine's saved
 * offset of that spool (it was read); every `inbox_torn` names a spool and an offset where a line
 * starts that is not a whole record.
 */
export function afterFullDisk(plan, entries) {
  const violations = [];
  const state = parse(existsSync(join(plan, '.swarm', 'state.json')) ? readFileSync(join(plan, '.swarm', 'state.json'), 'utf8') : '');
  const doneAt = Date.parse(entries.find((e) => e.event === 'plan_done')?.ts ?? '') || Infinity;
  const starts = new Map();
  for (const spool of spools(plan)) {
    const bytes = existsSync(spool.path) ? readFileSync(spool.path) : Buffer.alloc(0);
    const lines = inboxLines(bytes);
    const readTo = Number(state?.spools?.[spool.name]?.offset ?? 0);
    for (const line of lines) {
      const text = line.text.trim();
      if (text === '' || line.end === null) continue;
      const value = parse(text);
      if (value === undefined) {
        const glued = text.indexOf('{"kind"', 1);
        if (glued !== -1 && isRecord(parse(text.slice(glued)))) violations.push(`${spool.name} byte ${line.at}: a record glued to torn bytes: ${text.slice(0, 80)}`);
        continue;
      }
      if (isRecord(value) && line.end > readTo && Date.parse(value.ts) <= doneAt) violations.push(`${spool.name} byte ${line.at}: a whole ${value.kind} record of ${value.from} never read (the engine read to ${readTo})`);
    }
    starts.set(spool.name, new Map(lines.map((l) => [l.at, l])));
  }
  for (const torn of entries.filter((e) => e.event === 'inbox_torn')) {
    const line = starts.get(String(torn.spool))?.get(Number(torn.offset));
    if (!line) violations.push(`inbox_torn in ${torn.spool} at byte ${torn.offset}: no line starts there`);
    else if (isRecord(parse(line.text.trim()))) violations.push(`inbox_torn in ${torn.spool} at byte ${torn.offset}: a whole record lies there, not torn bytes`);
  }
  return violations;
}

/**
 * Reports made while no engine ran ({ lane, generation, kind: 'done' | 'handoff' }): counted when
 * `swarm up` came back, so that generation gets no degraded packet (lane_lost), and a lane that
 * reported done no successor.
 */
export function afterDownReports(entries, reports) {
  const violations = [];
  for (const r of reports) {
    if (entries.some((e) => e.event === 'degraded_handoff' && e.lane === r.lane && Number(e.from_generation ?? e.generation) === r.generation)) violations.push(`${r.lane} g${r.generation} reported ${r.kind} while no engine ran, yet got a degraded packet`);
    if (r.kind !== 'done') continue;
    const next = (e) => Number(e.event === 'successor_spawned' ? e.for_generation : e.generation);
    const successor = entries.find((e) => (e.event === 'successor_spawned' || e.event === 'packet_accepted') && e.lane === r.lane && next(e) > r.generation);
    if (successor) violations.push(`${r.lane} g${r.generation} reported done while no engine ran, yet a successor g${next(successor)} followed`);
  }
  return violations;
}

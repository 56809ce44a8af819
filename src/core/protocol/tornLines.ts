/**
 * Torn lines in the append-only files (inbox, journal): a write cut short leaves part of a JSON object
 * on a line, and a record another writer appended at that very moment may follow it on the same line.
 * Such a line is split here: the torn bytes are skipped alone, the record after them is kept. Pure.
 */

/** How many `{"` starts of a glued object are tried in one line (objects are flat: one start each). */
const MOST_STARTS = 16;

/**
 * In a line that is not JSON: where a whole JSON object glued after torn bytes starts, and the object;
 * null when there is none. A flat object's `{"` appears only at its start (quotes in strings are
 * escaped), so a line holds few places to try.
 */
export function gluedObject(line: string): { at: number; value: Record<string, unknown> } | null {
  let tried = 0;
  for (let at = line.indexOf('{"', 1); at !== -1 && tried < MOST_STARTS; at = line.indexOf('{"', at + 1), tried += 1) {
    const value = parseObject(line.slice(at));
    if (value) return { at, value };
  }
  return null;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

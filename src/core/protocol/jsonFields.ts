/**
 * Reading the JSON an agent hands swarm (status line, hooks, session files, transcripts, rollouts):
 * tolerant of a BOM, CRLF and surrounding blanks; typed field getters that answer null for a field
 * that is absent or of the wrong type, never throw. Pure.
 */
import { excerpt } from '../../errors.js';

export type Json = Record<string, unknown>;

/** A parser's answer: the value, or what was wrong with the input (one sentence, input cut short). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** One JSON object from text; `what` names the input in the error ("status line JSON"). */
export function parseObject(text: string, what: string): Parsed<Json> {
  const source = text.replace(/^\uFEFF/, '').trim();
  if (source === '') return { ok: false, error: `empty ${what}: expected one JSON object` };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return { ok: false, error: `${what} is not JSON: got "${excerpt(source, 60)}"` };
  }
  return isObject(value) ? { ok: true, value } : { ok: false, error: `${what} must be a JSON object, got ${kindOf(value)}` };
}

/** One JSON object from one line of a JSONL file, or null (torn, blank, not an object). */
export function parseLine(line: string): Json | null {
  const source = line.trim();
  if (source === '' || source[0] !== '{') return null;
  try {
    const value: unknown = JSON.parse(source);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function obj(o: Json | null | undefined, key: string): Json | null {
  const value = o?.[key];
  return isObject(value) ? value : null;
}

/** A non-empty string (trimmed), else null. */
export function str(o: Json | null | undefined, key: string): string | null {
  const value = o?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A finite number, else null (NaN and Infinity cannot come from JSON, but may from a caller). */
export function num(o: Json | null | undefined, key: string): number | null {
  const value = o?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function bool(o: Json | null | undefined, key: string): boolean {
  return o?.[key] === true;
}

/**
 * A time as ISO text: epoch seconds (what Claude and Codex write), epoch ms when the number is that
 * large, or a date string. Null for anything else.
 */
export function isoTime(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return new Date(value >= 1e12 ? value : value * 1000).toISOString();
  }
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return isoTime(Number(value.trim()));
  if (typeof value === 'string' && value.trim() !== '') {
    const ms = Date.parse(value.trim());
    return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  }
  return null;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

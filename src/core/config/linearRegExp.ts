/**
 * Kind patterns as linear-time regular expressions: a pane's text is matched by V8's
 * non-backtracking engine (the `l` flag), so no pattern a kind file holds can pin the engine
 * (`(a+)+$` against 39 `a`s and a `!` took minutes). Pure but for one process-wide V8 flag, set
 * once, the first time a kind pattern is compiled (kind files are never read on the agents' fast
 * path).
 *
 * Node 20's linear engine takes no `i` flag, no lookaround, no backreference and no count over
 * 16, so:
 * - case-insensitivity is done here: the pattern's letters are lowered (classes gain the lower
 *   case of each member) and screens.ts lowers the text, keeping every offset;
 * - a count over 16 on one character, escape or class (`[a-z ]{0,40}`) is written out in steps
 *   of at most 16, the same language;
 * - a pattern it still cannot take is refused with the reason and what to write instead.
 */
import { setFlagsFromString } from 'node:v8';

const STEP = 16;
let enabled = false;
/** Text every match of the pattern contains: a pane whose text lacks it is not scanned. */
const required = new WeakMap<RegExp, string>();

export type LinearResult = RegExp | { why: string; syntax: boolean };

/** The compiled pattern (for lowered text, see lowerText), or why it cannot be one. */
export function linearRegExp(source: string): LinearResult {
  if (!enabled) {
    setFlagsFromString('--enable-experimental-regexp-engine');
    enabled = true;
  }
  const why = unsupported(source);
  if (why !== null) return { why, syntax: false };
  let lowered: string;
  try {
    new RegExp(source);
    lowered = expandCounts(caseless(source));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { why: message.slice(message.lastIndexOf(': ') + 2), syntax: true };
  }
  try {
    // eslint-disable-next-line no-invalid-regexp -- `l` exists once the V8 flag above is set
    const re = new RegExp(lowered, 'l');
    const literal = requiredLiteral(lowered);
    if (literal !== '') required.set(re, literal);
    return re;
  } catch {
    return { why: 'it cannot be matched in linear time (a count over 16 on a group, or a count inside a counted group): put the count on one character or class, e.g. [a-z ]{0,40}', syntax: false };
  }
}

/**
 * False when `re` (from linearRegExp) cannot match `text` because a literal every match holds is
 * not in it. The linear engine scans about 70 ns a character, so a screen read with 40 patterns
 * took 30 ms; most patterns are mostly literal, and String.includes is far faster.
 */
export function mayMatch(re: RegExp, text: string): boolean {
  const literal = required.get(re);
  return literal === undefined || text.includes(literal);
}

/** The longest run of literal text outside groups, classes and quantified atoms; '' with a top-level `|`. */
function requiredLiteral(source: string): string {
  let best = '';
  let run = '';
  let depth = 0;
  const end = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    let atom: string | null = null;
    let next = i + 1;
    if (c === '\\') {
      const [unit, after] = readEscape(source, i);
      atom = unit.length === 1 ? unit : null;
      next = after;
    } else if (c === '[') {
      next = i + 1;
      while (next < source.length && source[next] !== ']') next += source[next] === '\\' ? 2 : 1;
      next += 1;
    } else if (c === '{') {
      next = i + (/^\{\d+(?:,\d*)?\}/.exec(source.slice(i))?.[0].length ?? 1);
    } else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === '|' && depth === 0) return '';
    else if (depth === 0 && !'.^$?*+{}|'.includes(c)) atom = c;
    const quantified = /^[?*+{]/.test(source.slice(next, next + 1));
    if (atom === null || depth > 0 || quantified || c === ')') end();
    else run += atom;
    i = next;
  }
  end();
  return best;
}

/** Lower-case text the patterns match: each UTF-16 unit lowered only where that keeps its length. */
export function lowerText(text: string): string {
  const lowered = text.toLowerCase();
  if (lowered.length === text.length) return lowered;
  let out = '';
  for (const unit of text) {
    const low = unit.toLowerCase();
    out += low.length === unit.length ? low : unit;
  }
  return out;
}

function unsupported(source: string): string | null {
  if (/\(\?<?[=!]/.test(source)) return 'it uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which swarm cannot match in linear time: list the texts it should match instead, e.g. \'limit (session|weekly)\'';
  if (/\\[1-9]|\\k</.test(source)) return 'it uses a backreference (\\1, \\k<name>), which swarm cannot match in linear time: write the repeated text out';
  return null;
}

/** `source` matching lowered text as `source` with the `i` flag matches the original. */
function caseless(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '[') {
      const negated = source[i + 1] === '^';
      out += negated ? '[^' : '[';
      i += negated ? 2 : 1;
      while (i < source.length && source[i] !== ']') {
        const [lo, afterLo] = readMember(source, i);
        if (source[afterLo] === '-' && afterLo + 1 < source.length && source[afterLo + 1] !== ']') {
          const [hi, afterHi] = readMember(source, afterLo + 1);
          if (lo.length === 1 && hi.length === 1) {
            out += rangeWithLower(lo, hi);
            i = afterHi;
            continue;
          }
        }
        out += lo.length === 1 ? classChar(lo) : lo;
        i = afterLo;
      }
      out += ']';
      i += 1;
    } else if (c === '\\') {
      const [unit, next] = readEscape(source, i);
      out += unit.length === 1 ? escapeUnit(lowerUnit(unit)) : unit;
      i = next;
    } else if (source.startsWith('(?<', i)) {
      const end = source.indexOf('>', i);
      out += source.slice(i, end + 1);
      i = end + 1;
    } else {
      out += lowerUnit(c);
      i += 1;
    }
  }
  return out;
}

/** One member of a class: the unit it stands for, or a class escape (\d, \w…) as written. */
function readMember(source: string, at: number): [string, number] {
  return source[at] === '\\' ? readEscape(source, at) : [source[at]!, at + 1];
}

/** The character an escape stands for (one unit), or the escape itself when it is a class or an assertion. */
function readEscape(source: string, at: number): [string, number] {
  const next = source[at + 1] ?? '';
  const hex = /^x([0-9a-fA-F]{2})|^u([0-9a-fA-F]{4})/.exec(source.slice(at + 1));
  if (hex !== null) return [String.fromCharCode(parseInt(hex[1] ?? hex[2] ?? '0', 16)), at + 1 + hex[0].length];
  if (next === 'c' && /[A-Za-z]/.test(source[at + 2] ?? '')) return [source.slice(at, at + 3), at + 3];
  if (/[A-Za-z0-9]/.test(next)) return [source.slice(at, at + 2), at + 2];
  return [next, at + 2];
}

function lowerUnit(unit: string): string {
  const low = unit.toLowerCase();
  return low.length === 1 ? low : unit;
}

function escapeUnit(unit: string): string {
  return /[A-Za-z0-9_ ]/.test(unit) || unit.charCodeAt(0) > 0x7f ? unit : `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A class member and its lower case. */
function classChar(unit: string): string {
  const low = lowerUnit(unit);
  return low === unit ? escapeUnit(unit) : `${escapeUnit(unit)}${escapeUnit(low)}`;
}

/** A class range and the lower case of each of its members. */
function rangeWithLower(lo: string, hi: string): string {
  let out = `${escapeUnit(lo)}-${escapeUnit(hi)}`;
  const from = lo.charCodeAt(0);
  const to = hi.charCodeAt(0);
  for (let code = from; code <= to && code - from < 0x10000; code += 1) {
    const unit = String.fromCharCode(code);
    const low = lowerUnit(unit);
    if (low !== unit && (low.charCodeAt(0) < from || low.charCodeAt(0) > to)) out += escapeUnit(low);
  }
  return out;
}

/** `X{m,n}` with a count over 16 on one character, escape or class, written as steps of at most 16. */
function expandCounts(source: string): string {
  const TOKEN = /(\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\c[a-z]|\\[^]|\[(?:\\[^]|[^\]\\])*\]|[^])(?:\{(\d+)(,?)(\d*)\}(\??))?/g;
  return source.replace(TOKEN, (whole, atom: string, min: string | undefined, comma: string, max: string, lazy: string) => {
    if (min === undefined || atom === ')' || atom === '(' || atom === '|') return whole;
    const lo = Number(min);
    const hi = comma === '' ? lo : max === '' ? Infinity : Number(max);
    if (lo <= STEP && hi <= STEP) return whole;
    const parts: string[] = [];
    for (let left = lo; left > 0; left -= STEP) parts.push(`${atom}{${Math.min(left, STEP)}}`);
    if (hi === Infinity) parts.push(`${atom}*${lazy}`);
    else for (let left = hi - lo; left > 0; left -= STEP) parts.push(`${atom}{0,${Math.min(left, STEP)}}${lazy}`);
    return `(?:${parts.join('')})`;
  });
}

/**
 * The report vocabulary of SPEC 4.2 and the capacity line. Pure: text in, values out.
 *
 * Decisions where SPEC 4.2 is silent:
 * - `capacity=unknown 40%` stays `unknown` with pct null: a number beside `unknown` is no reading.
 *   Its range is still checked, like any pct.
 * - A `capacity=` segment ends the first line only when it has the line's shape and a known state;
 *   otherwise it is text (a note may mention `capacity=`). A line that begins with `capacity=` is
 *   always a capacity line, and a malformed one fails the report.
 * - `done` / `plan ready` followed by other words on the first line is a note; `PR open` keeps the
 *   first word after it as the URL; `blocked` takes the words after the class (or, with no known
 *   class, after `blocked`) plus the middle lines as `what`. An empty report is an error.
 */
import { excerpt } from '../../errors.js';

export type CapacityState = 'ok' | 'low' | 'critical' | 'unknown';

export const ESCALATION_CLASSES = [
  'permission', 'login', 'consent', 'payment', 'irreversible', 'decision', 'dependency', 'stalled',
] as const;
export type EscalationClass = (typeof ESCALATION_CLASSES)[number];

export interface CapacityLine {
  state: CapacityState;
  pct: number | null;
  account: string | null;
  contextPct: number | null;
  /** The line as received (cleaned); '' when the report had none. */
  raw: string;
}

export type ReportEvent =
  | { kind: 'plan_ready' }
  | { kind: 'pr_open'; url: string }
  /** class null: the lane named no known class (rawClass keeps what it wrote, '' for none). */
  | { kind: 'blocked'; class: EscalationClass | null; rawClass: string; what: string }
  | { kind: 'handoff'; path: string }
  | { kind: 'done' }
  | { kind: 'note'; text: string };

export interface Report {
  event: ReportEvent;
  capacity: CapacityLine;
  /** The cleaned text: ANSI stripped, CRLF→LF, trimmed. */
  text: string;
}

export type ParseResult = { ok: true; report: Report } | { ok: false; error: string };

const STATES: readonly CapacityState[] = ['ok', 'low', 'critical', 'unknown'];
const FORMAT = 'capacity=<ok|low|critical|unknown> [<pct>%] @<account> [context=<pct>%]';
const EXAMPLE = 'capacity=low 22% @work2 context=41%';
const VOCABULARY = 'plan ready | PR open <url> | blocked <class> <what> | handoff <packet path> | done';
const NUMBER = String.raw`-?\d*\.?\d+`;
const CAPACITY_SHAPE = new RegExp(
  String.raw`^capacity=(\S*)(?:\s+(${NUMBER})%)?(?:\s+@(\S+))?(?:\s+context=(${NUMBER})%)?$`,
  'i',
);
const MISSING: CapacityLine = { state: 'unknown', pct: null, account: null, contextPct: null, raw: '' };

// String sequences (OSC, DCS, SOS, PM, APC) ended by BEL or ST; CSI (7- and 8-bit); other ESC
// sequences. Then stray C0 controls (all but \n and \t), DEL and C1 controls.
const SEQUENCES = [
  String.raw`\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\)`,
  String.raw`(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]`,
  String.raw`\x1b[ -/]*[0-~]`,
];
const STRAY = String.raw`[\x00-\x08\x0b-\x1f\x7f-\x9f]`;
const ANSI = new RegExp([...SEQUENCES, STRAY].join('|'), 'g');
const SEQUENCE = new RegExp(SEQUENCES.join('|'), 'g');

/** Any character a sequence starts with (ESC, CSI) or that is stripped alone: none, nothing to strip. */
const CONTROL = new RegExp(STRAY);

/** Remove terminal escape sequences and stray control characters, keeping `\n` and `\t`. */
export function stripAnsi(text: string): string {
  // A screen read is plain text already (capture-pane without -e): one scan, no copy.
  return CONTROL.test(text) ? text.replace(ANSI, '') : text;
}

/** Remove terminal escape sequences only: a stray control character is left for the caller to show. */
export function stripEscapeSequences(text: string): string {
  return text.replace(SEQUENCE, '');
}

/** CRLF (and a lone CR) → LF, escapes stripped, trimmed. */
function clean(text: string): string {
  return stripAnsi(text.replace(/\r\n?/g, '\n')).trim();
}

function percent(value: string | undefined, what: string, line: string): number | null | { error: string } {
  if (value === undefined) return null;
  const n = Number(value);
  if (n >= 0 && n <= 100) return n;
  return {
    error: `${what} ${value}% is out of range in "${excerpt(line)}": send a percentage from 0 to 100, e.g. ${EXAMPLE}`,
  };
}

/**
 * Parse one capacity line (`capacity=low 22% @work2 context=41%`). Null when the line does not
 * begin with `capacity=`; `{error}` (saying what to send instead) when it does but is malformed.
 */
export function parseCapacityLine(line: string): CapacityLine | { error: string } | null {
  const raw = clean(line);
  if (!/^capacity=/i.test(raw)) return null;
  const m = CAPACITY_SHAPE.exec(raw);
  if (!m) return { error: `capacity line "${excerpt(raw)}" is not understood: send ${FORMAT}, e.g. ${EXAMPLE}` };
  const state = (m[1] ?? '').toLowerCase() as CapacityState;
  if (!STATES.includes(state)) {
    return { error: `unknown capacity state "${excerpt(m[1] ?? '')}": send one of ok, low, critical, unknown, e.g. ${EXAMPLE}` };
  }
  const pct = percent(m[2], 'capacity', raw);
  if (pct !== null && typeof pct === 'object') return pct;
  const contextPct = percent(m[4], 'context', raw);
  if (contextPct !== null && typeof contextPct === 'object') return contextPct;
  return { state, pct: state === 'unknown' ? null : pct, account: m[3] ?? null, contextPct, raw };
}

/** The capacity line for these values: `capacity=low 22% @work2 context=41%` (absent parts left out). */
export function formatCapacityLine(c: Pick<CapacityLine, 'state' | 'pct' | 'account' | 'contextPct'>): string {
  const parts = [`capacity=${c.state}`];
  if (c.pct !== null && c.state !== 'unknown') parts.push(`${c.pct}%`);
  if (c.account !== null) parts.push(`@${c.account}`);
  if (c.contextPct !== null) parts.push(`context=${c.contextPct}%`);
  return parts.join(' ');
}

/**
 * Readings belong to their account (SPEC 10.3): a capacity line or reading naming `named` counts for
 * its sender, who holds `own`, only when it names no account or that one; any other counts for none.
 */
export function countsForSender(named: string | null, own: string | null): boolean {
  return named === null || named === own;
}

/** Split a trailing capacity segment off the first line, when it has the capacity line's shape. */
function splitFirstLine(line: string): { message: string; capacity: CapacityLine | { error: string } | null } {
  let start = -1;
  for (const m of line.matchAll(/(?:^|\s)capacity=/gi)) start = m.index + m[0].length - 'capacity='.length;
  if (start < 0) return { message: line, capacity: null };
  const segment = line.slice(start);
  const shape = CAPACITY_SHAPE.exec(segment);
  const known = shape !== null && STATES.includes((shape[1] ?? '').toLowerCase() as CapacityState);
  if (start > 0 && !known) return { message: line, capacity: null };
  return { message: line.slice(0, start).trim(), capacity: parseCapacityLine(segment) };
}

function eventOf(message: string, middle: string[]): ReportEvent | { error: string } | null {
  if (/^plan\s+ready$/i.test(message)) return { kind: 'plan_ready' };
  if (/^done$/i.test(message)) return { kind: 'done' };
  const pr = /^pr\s+open(?:\s+(\S+).*)?$/i.exec(message);
  if (pr) return pr[1] === undefined ? { error: 'PR open needs the URL: send "PR open <url>"' } : { kind: 'pr_open', url: pr[1] };
  const handoff = /^handoff(?:\s+(.+))?$/i.exec(message);
  if (handoff) {
    const path = handoff[1]?.trim();
    return path ? { kind: 'handoff', path } : { error: 'handoff needs the packet path: send "handoff <packet path>"' };
  }
  const blocked = /^blocked(?:\s+(\S+)(?:\s+(.*))?)?$/i.exec(message);
  if (!blocked) return null;
  const rawClass = blocked[1] ?? '';
  const word = rawClass.replace(/[:,]$/, '').toLowerCase();
  const cls = ESCALATION_CLASSES.find((c) => c === word) ?? null;
  const head = cls === null ? [rawClass, blocked[2] ?? ''].join(' ') : (blocked[2] ?? '');
  const what = [head.trim(), ...middle].join('\n').trim();
  return { kind: 'blocked', class: cls, rawClass, what };
}

/**
 * Parse a lane's report: the first line holds the message, the last line (or the end of the first)
 * the capacity line. Anything outside the vocabulary is a note; a bad capacity line, `handoff`
 * without a path or `PR open` without a URL fails with what to send instead.
 */
export function parseReport(text: string): ParseResult {
  const cleaned = clean(text);
  if (cleaned === '') return { ok: false, error: `empty report: send one of ${VOCABULARY}, then ${FORMAT}` };
  const lines = cleaned.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  let capacity: CapacityLine | { error: string } | null = null;
  if (lines.length > 1) {
    capacity = parseCapacityLine(lines[lines.length - 1] ?? '');
    if (capacity !== null) lines.pop();
  }
  const first = splitFirstLine(lines[0] ?? '');
  capacity ??= first.capacity;
  for (const c of [capacity, first.capacity]) if (c !== null && 'error' in c) return { ok: false, error: c.error };
  const event = eventOf(first.message, lines.slice(1)) ?? { kind: 'note', text: cleaned };
  if ('error' in event) return { ok: false, error: event.error };
  return { ok: true, report: { event, capacity: (capacity as CapacityLine | null) ?? MISSING, text: cleaned } };
}

/**
 * What swarm answers a lane whose `blocked` names no known class: not an escalation, but a decision
 * for the lane to make and record.
 */
export const DECIDE_AND_RECORD =
  'swarm: this is not an escalation — your "blocked" names no known class ' +
  `(${ESCALATION_CLASSES.join(', ')}). It is a decision for you to make: choose, record it ` +
  '(option, choice, why, undo) in your packet\'s decisions and the plan, and carry on. ' +
  'To escalate, send "blocked <class> <what it needs>" with one of those classes.';

/** True when the text is an ask: it begins `ask ` (case-insensitive, after trim). */
export function isAsk(text: string): boolean {
  return /^ask\s/i.test(clean(text));
}

/** True when the text is an answer to an ask: it begins `answer ` (case-insensitive, after trim). */
export function isAnswer(text: string): boolean {
  return /^answer\s/i.test(clean(text));
}

/**
 * A reviewer's verdict (SPEC 10.6): `approved`, or `changes <what>` (the rest of the text, lines and
 * all; none given: said so). Case-insensitive, after trim, escapes and CRLF cleaned; null for anything else.
 */
export function reviewVerdict(text: string): { verdict: 'approved' | 'changes'; what: string } | null {
  const cleaned = clean(text).trim();
  if (/^approved\b/i.test(cleaned)) return { verdict: 'approved', what: '' };
  const changes = /^changes\b[\s:]*([\s\S]*)$/i.exec(cleaned);
  if (changes === null) return null;
  const what = changes[1]!.trim();
  return { verdict: 'changes', what: what === '' ? '(the reviewer named no change)' : what };
}

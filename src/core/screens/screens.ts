/**
 * Reading a pane (SPEC 4.4): which screen it shows, whether the agent's turn has ended, how much
 * context it has left. Pure: a kind and the pane's tail (its last few KB, as captured) in, values out.
 *
 * Only the last screenful counts (the last SCREENFUL non-empty lines), so a message that has
 * scrolled up stops matching. Within it, escapes are stripped, box-drawing borders removed, curly
 * quotes read as straight ones (Codex writes `You’ve`) and each run of whitespace (line ends too)
 * as one space, so a kind's patterns also match text a narrow pane has wrapped.
 *
 * Decisions where SPEC 4.4 is silent:
 * - Among the blocking screens the one drawn lowest wins (it is the dialog now open); a tie goes to
 *   the order permission, bypass, login, consent, payment. Any blocking screen outranks a usage
 *   limit, which outranks an overflow text.
 * - A pane is never idle while it shows any of these screens, an offline text, or nothing at all:
 *   swarm types its mailbox line only into an agent that is waiting for its next turn.
 */
import type { ScreenClass } from '../../machine/types.js';
import type { KindSpec } from '../config/kindFile.js';
import { lowerText, mayMatch } from '../config/linearRegExp.js';
import { stripAnsi } from '../protocol/protocol.js';

/** How many non-empty lines from the bottom make "the last screenful". */
export const SCREENFUL = 40;

/** Screens swarm never answers (SPEC 4.4), in tie-break order. */
export const BLOCKING_SCREENS = ['permission', 'bypass', 'login', 'consent', 'payment'] as const satisfies readonly ScreenClass[];

export interface ScreenMatch {
  screen: ScreenClass;
  /** The line(s) the match is on, cleaned: what to show the developer. */
  text: string;
}

interface Region {
  lines: string[];
  /** The lines joined by one space, lowered (kind patterns match lowered text, see linearRegExp). */
  flat: string;
  /** Where each line starts in `flat`. */
  starts: number[];
}

interface Hit {
  start: number;
  end: number;
}

/** The last screenful of a pane's tail, one cleaned line each: no escapes or box borders, straight quotes, single spaces. */
export function screenLines(tail: string, count = SCREENFUL): string[] {
  // Whole-text passes, then the lines from the last: a screen read costs a few scans, not a few per line.
  const lines = stripAnsi(tail.replace(/\r\n?/g, '\n'))
    .replace(/[\u2500-\u257f]/g, ' ')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n');
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0 && kept.length < count; i -= 1) {
    const line = lines[i]!.trim();
    if (line !== '') kept.push(line);
  }
  return kept.reverse();
}

/**
 * The screen the pane shows, or null: a blocking screen (permission, bypass, login, consent,
 * payment) first, then a usage limit, then an overflow text. `text` is the line(s) matched.
 */
export function matchScreen(kind: KindSpec, tail: string): ScreenMatch | null {
  return matchIn(kind, region(tail));
}

/**
 * True when the agent's turn has ended: the pane shows something, no screen of matchScreen and no
 * offline text, none of the kind's busy texts and (when the kind lists any) one of its idle texts.
 * A kind with no idle rule is never idle.
 */
export function isIdle(kind: KindSpec, tail: string): boolean {
  if (kind.idle === null) return false;
  const r = region(tail);
  if (r.flat === '' || matchIn(kind, r) !== null) return false;
  if ([...kind.screens.offline, ...kind.idle.notShowing].some((re) => mayMatch(re, r.flat) && re.test(r.flat))) return false;
  return kind.idle.showing.length === 0 || kind.idle.showing.some((re) => mayMatch(re, r.flat) && re.test(r.flat));
}

/**
 * The % of the context window left, as the pane shows it last (a `context_left` reading, or
 * 100 minus a `context_used` one); null when it shows none or the number is not 0–100.
 */
export function contextLeft(kind: KindSpec, tail: string): number | null {
  const flat = region(tail).flat;
  const readings = [
    ...kind.contextLeft.map((re) => ({ re, toLeft: (n: number) => n })),
    ...kind.contextUsed.map((re) => ({ re, toLeft: (n: number) => 100 - n })),
  ];
  let best: { start: number; left: number } | null = null;
  for (const { re, toLeft } of readings) {
    const hit = lastMatch(re, flat);
    const n = Number(hit?.group);
    if (hit === null || hit.group === undefined || hit.group.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) continue;
    if (best === null || hit.start > best.start) best = { start: hit.start, left: toLeft(n) };
  }
  return best?.left ?? null;
}

function region(tail: string): Region {
  const lines = screenLines(tail);
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return { lines, flat: lowerText(lines.join(' ')), starts };
}

function matchIn(kind: KindSpec, r: Region): ScreenMatch | null {
  if (r.flat === '') return null;
  let blocking: { screen: ScreenClass; start: number } | null = null;
  for (const screen of BLOCKING_SCREENS) {
    const start = lowest(kind.screens[screen], r.flat);
    if (start !== null && (blocking === null || start > blocking.start)) blocking = { screen, start };
  }
  const screen = blocking?.screen
    ?? (['usage_limit', 'overflow'] as const).find((name) => lowest(kind.screens[name], r.flat) !== null);
  if (screen === undefined) return null;
  return { screen, text: textOf(kind.screens[screen], r) };
}

/** Where the lowest match of any of the patterns starts, or null. */
function lowest(patterns: readonly RegExp[], flat: string): number | null {
  let best: number | null = null;
  for (const re of patterns) {
    const hit = lastMatch(re, flat);
    if (hit !== null && (best === null || hit.start > best)) best = hit.start;
  }
  return best;
}

/** The lines of the last match of the first pattern (in the kind file's order) that matches. */
function textOf(patterns: readonly RegExp[], r: Region): string {
  for (const re of patterns) {
    const hit = lastMatch(re, r.flat);
    if (hit === null) continue;
    const first = lineAt(r, hit.start);
    const last = lineAt(r, Math.max(hit.start, hit.end - 1));
    return r.lines.slice(first, last + 1).join(' ');
  }
  return '';
}

function lineAt(r: Region, offset: number): number {
  let index = 0;
  r.starts.forEach((start, i) => {
    if (start <= offset) index = i;
  });
  return index;
}

/** The last non-empty match of `re` in `text`, with its first group. */
function lastMatch(re: RegExp, text: string): (Hit & { group: string | undefined }) | null {
  if (!mayMatch(re, text)) return null;
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  let found: (Hit & { group: string | undefined }) | null = null;
  for (const m of text.matchAll(global)) {
    if (m[0] === '') continue;
    found = { start: m.index, end: m.index + m[0].length, group: m[1] };
  }
  return found;
}

/** How many of a dead pane's last non-empty lines `agent_exited` keeps (SPEC 10.1). */
export const LAST_LINES = 20;

/**
 * What an agent said last, for `agent_exited` and the escalations that quote a dead pane: its last
 * `count` non-empty lines, escapes stripped, trailing spaces cut, without tmux's own "Pane is dead
 * (status …)" line. An agent that prints its error at the top and exits (Claude Code offline) leaves
 * a screen of blank lines below it.
 */
export function lastWords(text: string, count = LAST_LINES): string {
  return stripAnsi(text.replace(/\r\n?/g, '\n'))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !/^Pane is dead \((status|signal) /.test(line.trim()))
    .slice(-count)
    .join('\n');
}

/**
 * One lane as one line of cells, each with its tone, fitted to the columns: state mark, name,
 * generation, account/vendor, state, the capacity line verbatim, the context bar, the handoff phase
 * with its age, the last report. Pure: the row's text is the cells joined.
 */
import { CAPACITY_TONE, PHASE_TONE, STATE_MARK, STATE_TONE, accountText, contextBar, cut, fit, lastText, oneLine, phaseText, stateText, type Tone } from './format.js';
import { TITLES, type Columns } from './layout.js';
import type { LaneView } from './store.js';

export interface Cell {
  text: string;
  tone: Tone;
  /** The one cell that changes with the clock alone (the phase's age). */
  clock?: boolean;
}

const plain = (text: string): Cell => ({ text, tone: null });

/** The cells of one lane's line; `selected` puts the cursor `›` in front. */
export function laneCells(view: LaneView, now: number, cols: Columns, selected: boolean): Cell[] {
  const { lane } = view;
  const cells: Cell[] = [
    plain(selected ? '› ' : '  '),
    { text: STATE_MARK[lane.state], tone: STATE_TONE[lane.state] },
    plain(' '),
    plain(fit(lane.name, cols.name)),
    plain(' '),
    plain(fit(`g${lane.generation}`, cols.gen)),
    plain(' '),
    plain(fit(accountCell(view, cols.account), cols.account)),
    plain(' '),
    { text: fit(stateText(lane), cols.state), tone: STATE_TONE[lane.state] },
    plain(' '),
    { text: fit(oneLine(lane.capacity ?? '-'), cols.capacity), tone: lane.capacity ? CAPACITY_TONE[lane.capacityState] : 'gray' },
    plain(' '),
    plain(fit(contextBar(lane.contextPct, Math.max(0, cols.context - 5)), cols.context)),
    plain(' '),
    { text: fit(phaseText(lane, now), cols.phase), tone: lane.phase ? PHASE_TONE[lane.phase] : null, clock: true },
  ];
  if (cols.last > 0) cells.push(plain(' '), plain(cut(lastText(lane), cols.last)));
  return cells;
}

/** `o1/openai` when it fits, else the account alone (the vendor gives way first). */
function accountCell(view: LaneView, width: number): string {
  const full = accountText(view);
  return [...full].length <= width ? full : (view.lane.account ?? '-');
}

/** The column titles, aligned with the cells. */
export function titleLine(cols: Columns): string {
  const parts = [
    '    ',
    fit(TITLES.name, cols.name), fit(TITLES.gen, cols.gen), fit(TITLES.account, cols.account), fit(TITLES.state, cols.state),
    fit(TITLES.capacity, cols.capacity), fit(TITLES.context, cols.context), fit(TITLES.phase, cols.phase),
  ];
  const line = `${parts[0]}${parts.slice(1).join(' ')}${cols.last > 0 ? ` ${cut(TITLES.last, cols.last)}` : ''}`;
  return line.trimEnd();
}

/** A row's whole text, as a terminal without colour shows it. */
export function rowText(cells: readonly Cell[]): string {
  return cells.map((c) => c.text).join('').trimEnd();
}

const ASCII_OR_NOT = /[\x20-\x7e]+|[^\x20-\x7e]+/g;
/** A run of ASCII this short goes with the text beside it even when that one is not ASCII. */
const SHORT = 2;

/**
 * The row's texts, each a list of runs in one tone: split where printable ASCII starts or stops
 * (short runs of ASCII aside) and around the clock cell, neighbouring cells of one tone joined
 * (fewer nodes for Ink to lay out), the last text without its trailing spaces.
 */
export function rowTexts(cells: readonly Cell[], color: boolean): Cell[][] {
  const texts: { runs: Cell[]; clock: number; ascii: boolean; length: number }[] = [];
  cells.forEach((cell, c) => {
    const tone = color ? cell.tone : null;
    const clock = cell.clock === true ? c : -1;
    const text = c === cells.length - 1 ? cell.text.trimEnd() : cell.text;
    for (const chunk of text.match(ASCII_OR_NOT) ?? []) {
      const first = chunk.charCodeAt(0);
      const ascii = first >= 0x20 && first < 0x7f;
      const last = texts.at(-1);
      const joins = last !== undefined && last.clock === clock &&
        (last.ascii === ascii || (ascii ? chunk.length <= SHORT : last.length <= SHORT));
      if (!joins) {
        texts.push({ runs: [{ text: chunk, tone }], clock, ascii, length: chunk.length });
        continue;
      }
      const run = last.runs.at(-1)!;
      if (run.tone === tone) run.text += chunk;
      else last.runs.push({ text: chunk, tone });
      last.ascii &&= ascii;
      last.length += chunk.length;
    }
  });
  return texts.map((t) => t.runs);
}

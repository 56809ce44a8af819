/**
 * One lane as one line of cells, each with its tone, fitted to the columns: state mark, name,
 * generation, account/vendor, state, the capacity line (without its context part), the context bar, what it spent (once any lane has a figure), the handoff phase
 * with its age, the last report. Pure: the row's text is the cells joined.
 */
import { CAPACITY_TONE, PHASE_TONE, STATE_MARK, STATE_TONE, accountText, capacityText, charCount, contextBar, cut, fit, lastText, phaseText, stateText, type Tone } from './format.js';
import { TITLES, type Columns } from './layout.js';
import { cutCells } from './cells.js';
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
    { text: fit(capacityText(lane.capacity), cols.capacity), tone: lane.capacity ? CAPACITY_TONE[lane.capacityState] : 'gray' },
    plain(' '),
    plain(fit(contextBar(lane.contextPct, Math.max(0, cols.context - 5)), cols.context)),
    plain(' '),
    ...(cols.spend === 0 ? [] : [plain(fit(view.spend ?? '-', cols.spend)), plain(' ')]),
    { text: fit(phaseText(lane, now), cols.phase), tone: lane.phase ? PHASE_TONE[lane.phase] : null, clock: true },
  ];
  if (cols.last > 0) cells.push(plain(' '), plain(cutCells(lastText(lane), cols.last)));
  return cells;
}

/** `o1/openai` when it fits, else the account alone (the vendor gives way first). */
function accountCell(view: LaneView, width: number): string {
  const full = accountText(view);
  return charCount(full) <= width ? full : (view.lane.account ?? '-');
}

/** The column titles, aligned with the cells. */
export function titleLine(cols: Columns): string {
  const parts = [
    '    ',
    fit(TITLES.name, cols.name), fit(TITLES.gen, cols.gen), fit(TITLES.account, cols.account), fit(TITLES.state, cols.state),
    fit(TITLES.capacity, cols.capacity), fit(TITLES.context, cols.context), ...(cols.spend === 0 ? [] : [fit(TITLES.spend, cols.spend)]), fit(TITLES.phase, cols.phase),
  ];
  const line = `${parts[0]}${parts.slice(1).join(' ')}${cols.last > 0 ? ` ${cut(TITLES.last, cols.last)}` : ''}`;
  return line.trimEnd();
}

/** The cells without the row's trailing spaces (a cell left empty is dropped). */
export function trimmedCells(cells: readonly Cell[]): Cell[] {
  const kept = [...cells];
  while (kept.length > 0) {
    const last = kept.at(-1)!;
    const text = last.text.trimEnd();
    if (text !== '') {
      kept[kept.length - 1] = { ...last, text };
      break;
    }
    kept.pop();
  }
  return kept;
}

/** A row's whole text, as a terminal without colour shows it. */
export function rowText(cells: readonly Cell[]): string {
  return trimmedCells(cells).map((c) => c.text).join('');
}

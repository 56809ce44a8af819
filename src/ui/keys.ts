/**
 * The dashboard's keys, as data: a key press becomes a move of the selection, a jump to a lane's
 * pane, or a detach. No key stops the swarm, and none is needed to keep it going.
 */

/** What the keys act through; the runtime implements it (tmux select-window/-pane, detach-client). */
export interface DashboardActions {
  focusPane(paneId: string): void;
  detach(): void;
}

export type KeyAction =
  | { type: 'move'; by: number }
  | { type: 'first' }
  | { type: 'last' }
  | { type: 'focus' }
  | { type: 'detach' };

/** The parts of Ink's key object read here. */
export interface KeyPress {
  upArrow?: boolean; downArrow?: boolean; pageUp?: boolean; pageDown?: boolean;
  home?: boolean; end?: boolean; return?: boolean; ctrl?: boolean; escape?: boolean;
}

/** Ink's `(input, key)` as an action; `page` is how many lanes a page holds. Unknown keys: null. */
export function keyAction(input: string, key: KeyPress, page: number): KeyAction | null {
  const step = Math.max(1, page);
  if (key.upArrow || input === 'k') return { type: 'move', by: -1 };
  if (key.downArrow || input === 'j') return { type: 'move', by: 1 };
  if (key.pageUp) return { type: 'move', by: -step };
  if (key.pageDown) return { type: 'move', by: step };
  if (key.home || input === 'g') return { type: 'first' };
  if (key.end || input === 'G') return { type: 'last' };
  if (key.return) return { type: 'focus' };
  if (input === 'q' || input === 'Q' || (key.ctrl && input === 'c')) return { type: 'detach' };
  return null;
}

/** The selection after a move, within `0 … count-1` (0 with no lanes). */
export function moveSelection(selected: number, action: KeyAction, count: number): number {
  if (count <= 0) return 0;
  const last = count - 1;
  switch (action.type) {
    case 'move': return Math.max(0, Math.min(last, selected + action.by));
    case 'first': return 0;
    case 'last': return last;
    default: return Math.max(0, Math.min(last, selected));
  }
}

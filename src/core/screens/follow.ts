/**
 * `swarm logs <lane> --follow`: which lines of a pane's capture are new since the last print. A pane
 * is a screen, not a file, so each capture is matched against what was printed:
 * - a line is printed once a later line follows it (the last one may still grow), or when its pane
 *   has ended (`final`);
 * - the last lines printed (the anchor, its last non-empty line included) are found again in the new
 *   capture, first where the last capture ended (a pane's history only grows, so repeated lines are
 *   not mistaken), else searching from its end, else at its top with fewer lines (the history trimmed
 *   its oldest), and what follows them is new: a pane that scrolls prints each line once;
 * - a screen redrawn in place (a full-screen agent, a cleared screen) loses the anchor: then only its
 *   lines not printed lately are new, so a redraw that changed one line prints that line.
 * Pure; captures are plain text (escapes already stripped by the capture).
 */

/** Lines kept as "printed lately". */
const KEEP = 400;
/** Lines in the anchor, at least (more when the last of them are blank). */
const ANCHOR = 3;

export interface Follow {
  /** What was printed lately (the anchor is taken from its end). */
  seen: string[];
  /** How many complete lines the last capture had: where its anchor ended. */
  end: number;
}

export const FOLLOW_START: Follow = { seen: [], end: 0 };

/** The lines to print now, in order, and the state for the next capture. */
export function followStep(prev: Follow, capture: string, final = false): { out: string[]; next: Follow } {
  const lines = capture.replace(/\r/g, '').split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const complete = final ? lines : lines.slice(0, -1);
  const { seen } = prev;
  if (seen.length === 0) return step(prev, complete, complete.length);
  const full = anchorLength(seen);
  const at = (k: number, end: number): boolean => end - k + 1 >= 0 && end < complete.length && seen.slice(-k).every((line, j) => complete[end - k + 1 + j] === line);
  if (at(full, prev.end - 1)) return step(prev, complete.slice(prev.end), complete.length);
  for (let end = complete.length - 1; end >= full - 1; end -= 1) if (at(full, end)) return step(prev, complete.slice(end + 1), complete.length);
  // The history trimmed its oldest lines: the anchor's own first lines may be gone from the top.
  for (let k = full - 1; k >= 1 && !seen.slice(-k).every((l) => l === ''); k -= 1) if (at(k, k - 1)) return step(prev, complete.slice(k), complete.length);
  const lately = new Set(seen);
  return step(prev, complete.filter((line) => line !== '' && !lately.has(line)), complete.length);
}

function step(prev: Follow, out: string[], end: number): { out: string[]; next: Follow } {
  return { out, next: { seen: [...prev.seen, ...out].slice(-KEEP), end } };
}

/** ANCHOR lines, widened back to the last non-empty line (blank lines alone match anywhere). */
function anchorLength(seen: readonly string[]): number {
  let k = Math.min(ANCHOR, seen.length);
  while (k < seen.length && seen.slice(-k).every((l) => l === '')) k += 1;
  return k;
}

/**
 * How many of an agent's messages it has been pointed at (SPEC 4.2), kept in two small files so the
 * engine and Claude Code's Stop hook (its own process) agree: the engine writes how many messages it
 * delivered and how many it typed a pointer line for (and how many turn ends it heard, and how many had
 * come when it last typed); the Stop hook writes how many its block pointed
 * at. Each file has one writer, so no update is lost. Pure: texts in, counts out.
 */

export interface PointedCounts {
  /** Messages appended to the agent's mailbox (engine). */
  delivered: number;
  /** Messages a typed pointer line covered (engine). */
  typed: number;
  /** Messages a Stop hook's block covered (the hook). */
  stopped: number;
  /** Turn-end notices the engine has heard from the agent (Codex notify), and how many had come when it last typed a line. */
  turns: number;
  typedTurns: number;
}

/** Whether the agent's turn has ended since its last pointer line: a notice came after it (a positive idle signal, kept across restarts). */
export const turnEndedSinceTyped = (counts: Pick<PointedCounts, 'turns' | 'typedTurns'>): boolean => counts.turns > counts.typedTurns;

/** A whole number ≥ 0 from one field of a JSON text; 0 when absent, torn or not a count. */
export function countField(text: string | null, key: string): number {
  if (text === null) return 0;
  try {
    const value: unknown = (JSON.parse(text) as Record<string, unknown>)[key];
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** Messages the agent has not been pointed at yet, by either channel. */
export function freshCount(counts: Pick<PointedCounts, 'delivered' | 'typed' | 'stopped'>): number {
  return Math.max(0, counts.delivered - Math.max(counts.typed, counts.stopped));
}

/** The file texts each writer writes. */
export const engineCountsText = (counts: Pick<PointedCounts, 'delivered' | 'typed' | 'turns' | 'typedTurns'>): string =>
  `${JSON.stringify({ delivered: counts.delivered, typed: counts.typed, turns: counts.turns, typed_turns: counts.typedTurns })}\n`;
export const stopCountText = (pointed: number): string => `${JSON.stringify({ pointed })}\n`;

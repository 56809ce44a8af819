/**
 * The agent session each lane's current generation runs, as its SessionStart hook said (the
 * delivery's idle signal for Claude Code). Recorded only for the lane's current generation and a
 * known session id; the same session heard again changes nothing (no save). Pure.
 */

export interface LaneSessionFact {
  generation: number;
  sessionId: string;
  transcriptPath: string | null;
}

export type Sessions = Record<string, LaneSessionFact>;

export interface SessionStep {
  sessions: Sessions | undefined;
  effects: { type: 'save' }[];
}

export function reduceSession(
  sessions: Sessions | undefined,
  event: { lane: string; generation: number; sessionId: string | null; transcriptPath: string | null },
  ctx: { currentGeneration: number },
): SessionStep {
  const { lane, generation, sessionId, transcriptPath } = event;
  if (sessionId === null || sessionId.trim() === '' || generation !== ctx.currentGeneration) return { sessions, effects: [] };
  const known = sessions?.[lane];
  if (known && known.generation === generation && known.sessionId === sessionId && known.transcriptPath === transcriptPath) return { sessions, effects: [] };
  return { sessions: { ...sessions, [lane]: { generation, sessionId, transcriptPath } }, effects: [{ type: 'save' }] };
}

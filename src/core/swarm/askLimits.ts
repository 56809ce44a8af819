/**
 * The limits on asks (SPEC 10.6), decided from a run's messages alone so that `swarm notify` can
 * apply them with no engine running: at most `max_asks` of a lane's asks are open at once, and a lane
 * with an unanswered ask to it may ask no other lane before it answers (depth 1). Pure.
 *
 * An ask is a message whose text begins `ask ` (protocol `isAsk`). It is open from the moment
 * `notify` took it until it is answered or `timeouts.ask` has passed. Answered means, as the engine
 * counts asks to the lead (asks.ts): the asked party said anything but another ask to the asker
 * later — the lead any message to the asker, a lane any message from its own name to the asker. One
 * reply answers all of the asker's asks to that party: a reply is a turn of the conversation, and an
 * agent that replied without restating each question must not keep its asker's quota used up.
 */
import { isAsk } from '../protocol/protocol.js';

/** A message of the run, as its spool attributes it. */
export interface RunMessage {
  /** The sender's name (a lane's, or the lead agent's). */
  from: string;
  role: 'lead' | 'lane';
  /** A lane name, `lead` or `all`. */
  to: string;
  text: string;
  /** ms since the epoch; a record without a readable time is left out by the caller. */
  at: number;
}

export interface OpenAsk {
  from: string;
  /** A lane name or `lead`. */
  to: string;
  at: number;
}

export const DEFAULT_MAX_ASKS = 3;

/** The asks open at `now`, oldest first. Messages may come in any order. */
export function openAsks(messages: readonly RunMessage[], now: number, askMs: number): OpenAsk[] {
  const open: OpenAsk[] = [];
  for (const m of [...messages].sort((a, b) => a.at - b.at)) {
    if (m.at > now) continue;
    if (isAsk(m.text)) {
      if (m.to !== 'all') open.push({ from: m.from, to: m.to, at: m.at });
      continue;
    }
    // A reply answers every open ask of its addressee to its sender.
    // `lead` is the lead's address whatever its agent is called; a lane so named speaks for no lead.
    const party = m.role === 'lead' ? 'lead' : m.from === 'lead' ? null : m.from;
    if (party === null) continue;
    for (let i = open.length - 1; i >= 0; i -= 1) {
      const ask = open[i]!;
      if (ask.from === m.to && ask.to === party) open.splice(i, 1);
    }
  }
  return open.filter((ask) => ask.at + askMs > now);
}

export interface AskCheck {
  /** The asking lane's name. */
  from: string;
  /** Whom it asks: a lane name or `lead`. */
  to: string;
  maxAsks: number;
}

/** Why this ask is refused (SPEC 10.6), or null when it may go. */
export function askRefusal(open: readonly OpenAsk[], check: AskCheck, askMs: number, now: number): string | null {
  const mine = open.filter((a) => a.from === check.from);
  if (mine.length >= check.maxAsks) {
    const oldest = Math.min(...mine.map((a) => a.at));
    const frees = Math.max(0, Math.ceil((oldest + askMs - now) / 60_000));
    return (
      `${check.from} has ${mine.length} asks open (${describe(mine)}), the most max_asks allows (${check.maxAsks}): ` +
      `wait for an answer (or for the oldest to time out in ${frees} min) before you ask again`
    );
  }
  if (check.to === 'lead') return null;
  // Asking back one of its own askers is a question about the question: still one level deep.
  const waiting = [...new Set(open.filter((a) => a.to === check.from).map((a) => a.from))];
  if (waiting.length === 0 || waiting.includes(check.to)) return null;
  return (
    `${waiting.join(', ')} ${waiting.length === 1 ? 'is' : 'are'} waiting for your answer: answer first ` +
    `(swarm notify ${waiting[0]} "answer …"); asks go one level deep, so a lane with an open ask to it asks ` +
    'no other lane (the lead and its asker it may)'
  );
}

function describe(asks: readonly OpenAsk[]): string {
  const counts = new Map<string, number>();
  for (const a of asks) counts.set(a.to, (counts.get(a.to) ?? 0) + 1);
  return [...counts].map(([to, n]) => `${n} to ${to}`).join(', ');
}

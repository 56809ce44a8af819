/**
 * What the simulated agent reads in its mailbox. Pure: mailbox text in, messages and what each one
 * means to the sim out. Received text is data: it is classified, never run.
 *
 * Decisions where the brief is silent:
 * - Only messages under swarm's own header are swarm's notices (hand off now / soon, packet rejected, lead
 *   notice, release); the same words from a lane are a note.
 * - A lane answers every ask with the files its steps make: the ones already in the checkout, and
 *   the planned ones marked `(planned, not written yet)`.
 */
import { parseMailbox, type MailboxMessage } from '../core/protocol/mailbox.js';
import { isAnswer, isAsk, stripAnsi } from '../core/protocol/protocol.js';

/** A message as the mailbox frame gives it back (core/protocol/mailbox.ts). */
export type MailMessage = MailboxMessage;
export { parseMailbox };

export type Meaning =
  | { kind: 'ask'; question: string }
  | { kind: 'answer'; answer: string }
  | { kind: 'handoff_now' }
  | { kind: 'handoff_soon' }
  | { kind: 'rejected'; packet: string }
  | { kind: 'release' }
  | { kind: 'lead_notice'; lead: string; epoch: number }
  /** A review asked for changes (SPEC 10.6): the lane works its fix steps and reports done again. */
  | { kind: 'changes' }
  | { kind: 'note' };

/** What one message means to the sim. */
export function meaningOf(message: MailMessage): Meaning {
  const text = stripAnsi(message.text).trim();
  if (message.authority === 'swarm' || message.authority === 'lead_notice') {
    if (/^swarm: hand (off|over the lead) now\b/i.test(text)) return { kind: 'handoff_now' };
    if (/^swarm: you(, the lead,)? are running low\b/i.test(text)) return { kind: 'handoff_soon' };
    const rejected = /^swarm: your packet (\S+) was rejected/i.exec(text);
    if (rejected) return { kind: 'rejected', packet: rejected[1]! };
    if (/every lane is done\. release the plan/i.test(text)) return { kind: 'release' };
    if (/^swarm: the review \(round \d+\) of your work asks for changes/i.test(text)) return { kind: 'changes' };
    const notice = /lead notice: the lead is now ([^\s@]+)@(\d+)/i.exec(text);
    if (notice) return { kind: 'lead_notice', lead: notice[1]!, epoch: Number(notice[2]) };
  }
  if (isAsk(text)) return { kind: 'ask', question: text.replace(/^ask\s+/i, '').trim() };
  if (isAnswer(text)) return { kind: 'answer', answer: text.replace(/^answer\s+/i, '').trim() };
  return { kind: 'note' };
}

/** The answer to an ask, from the files this lane's steps make (`answer greeting.txt`). */
export function answerText(files: readonly { path: string; exists: boolean }[]): string {
  if (files.length === 0) return 'answer I make no files in this plan';
  const names = files.map((f) => (f.exists ? f.path : `${f.path} (planned, not written yet)`));
  return `answer ${[...new Set(names)].join(', ')}`;
}

/** The first line of a text, cleaned and cut to `max` characters, for the screen. */
export function firstLine(text: string, max = 100): string {
  const line = stripAnsi(text).trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Mailboxes (SPEC 4.2): every message for an agent is appended to its file, framed by
 * core/protocol/mailbox.ts (a header only swarm writes, the body indented beneath it); the agent is
 * only ever typed one fixed pointer line, never the text.
 */
import { mailboxPath } from '../core/plan/paths.js';
import { mailboxEntry, type Sender } from '../core/protocol/mailbox.js';
import { appendLine } from './files.js';

export function appendMailbox(plan: string, to: string, message: { from: Sender; text: string; at: Date }): string {
  const path = mailboxPath(plan, to);
  // An agent reads its mailbox in its pane (cat, a TUI's file view): no escape sequence from another
  // agent's text reaches that terminal (OSC 52 writes the clipboard, OSC 0 the title, CSI 2J clears).
  appendLine(path, mailboxEntry(message.from, message.at, message.text));
  return path;
}

/** The one line typed into a TUI agent's pane (pure, so the Stop hook's decision can word it too). */
export { pointerLine } from '../core/protocol/mailbox.js';

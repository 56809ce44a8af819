/**
 * An agent's last words: the status and the pane's last lines an exit carries, journaled with
 * `agent_exited` and quoted by every escalation that follows from that exit. Pure.
 */
import { tail } from './notices.js';
import type { AgentExit, LaneEvent } from './types.js';

/** The exit an `exited` event tells: its status and its pane's last non-empty lines (already cleaned by the reader). */
export function exitOf(event: Extract<LaneEvent, { type: 'exited' }>): AgentExit {
  const lines = (event.tail ?? '').split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
  return { status: event.status, lines };
}

/** How an escalation quotes an exit: `who exited (status 1); last lines of its pane:` and the lines (the last 1500 characters). */
export function quoteExit(who: string, exit: AgentExit): string {
  const status = `${who} exited (status ${exit.status ?? 'unknown'})`;
  if (exit.lines.length === 0) return `${status}; its pane showed nothing`;
  return `${status}; last lines of its pane:\n${tail(exit.lines.join('\n'), 1500)}`;
}

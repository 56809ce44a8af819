/**
 * A Messages API request body (Claude Code 2.1.197) read into the brain's `MockConversation`. Pure.
 *
 * `system` is a string or text blocks; each message's `content` a string or blocks: `text`,
 * `tool_use` (the command from `input.command`), `tool_result` (`content` a string or text blocks,
 * `is_error`). Other blocks (thinking, images) are left out. A request offering no tools is one of
 * Claude Code's own side requests (title, topic, the start-up quota check): `side` says so.
 */
import type { MockConversation, MockEntry } from './types.js';

export interface ClaudeRequest {
  conversation: MockConversation;
  /** The name of the shell tool offered (`Bash`), or null when none is. */
  shellTool: string | null;
  /** No tools offered: one of Claude Code's own requests, not the agent's turn. */
  side: boolean;
  stream: boolean;
  model: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The text of a string or of an array of `{type:'text', text}` blocks. */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((b): b is Obj => isObj(b) && b.type === 'text').map((b) => str(b.text)).join('\n');
}

function entriesOf(message: Obj): MockEntry[] {
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  const content = message.content;
  if (typeof content === 'string') return [{ role, text: content }];
  if (!Array.isArray(content)) return [];
  const out: MockEntry[] = [];
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && str(block.text) !== '') out.push({ role, text: str(block.text) });
    else if (block.type === 'tool_use') out.push({ role: 'tool_call', id: str(block.id), command: isObj(block.input) ? str(block.input.command) : '' });
    else if (block.type === 'tool_result') out.push({ role: 'tool_result', id: str(block.tool_use_id), output: blockText(block.content), isError: block.is_error === true });
  }
  return out;
}

export function parseClaudeRequest(body: unknown): ClaudeRequest {
  const b = isObj(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages.filter(isObj) : [];
  const tools = Array.isArray(b.tools) ? b.tools.filter(isObj) : [];
  const shell = tools.find((t) => t.name === 'Bash');
  return {
    conversation: { system: blockText(b.system), entries: messages.flatMap(entriesOf) },
    shellTool: shell ? 'Bash' : null,
    side: tools.length === 0,
    stream: b.stream === true,
    model: str(b.model) || 'claude-mock',
  };
}

/**
 * A Codex Responses API request body, read (pure): the conversation for the brain, the shell tool
 * Codex offered, and whether it is one of Codex's own side requests (the thread title).
 *
 * Seen from Codex 0.171.0: no top-level `instructions` or `tools`; the tools come as an input item
 * `{type:"additional_tools", tools:[{type:"namespace", tools:[…]}]}` whose only shell is the custom
 * tool `exec` (JavaScript calling `tools.exec_command({cmd})`); the system prompt is `developer`
 * messages, and harness context (`<environment_context>…`) arrives as `user` messages.
 */
import type { MockConversation, MockEntry } from './types.js';

/** How a shell command can be run: a direct `exec_command` or `shell` function, or code mode's custom `exec`. */
export type CodexShellTool = 'exec_command' | 'shell' | 'code_exec';

export interface CodexRequest {
  readonly conversation: MockConversation;
  /** The shell tool this request offers (null: none). */
  readonly tool: CodexShellTool | null;
  /** Codex's own side request, answered without the brain (null: a turn of the agent itself). */
  readonly side: 'title' | null;
  /** `previous_response_id` when the request continues a stored response instead of sending the whole input. */
  readonly previousResponseId: string | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The marker line the mock's own `exec` scripts print: `{"exit_code":…,"output":…}`. */
export interface ExecMarker {
  readonly exit_code: number | null;
  readonly output: string;
}

export const TITLE_PROMPT = 'Generate a concise, single-line task title';
const HARNESS = /^(<([\w -]+)>[\s\S]*<\/\2>|# AGENTS\.md instructions for [\s\S]*)$/;

/** The text of a message's content (a string, or parts with `text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) ? str(part.text) : '')).filter((t) => t !== '').join('\n');
}

/** The shell command inside a tool call item, as the mock or a model would have written it. */
export function callCommand(item: Json): string {
  const name = str(item.name);
  if (item.type === 'custom_tool_call') {
    const input = str(item.input);
    const cmd = /tools\.exec_command\(\s*\{\s*cmd:\s*("(?:[^"\\\n]|\\.)*")/.exec(input);
    if (cmd) return JSON.parse(cmd[1]!) as string;
    return input;
  }
  if (item.type === 'local_shell_call') return argvCommand(isObject(item.action) ? item.action.command : undefined);
  let args: unknown;
  try {
    args = JSON.parse(str(item.arguments));
  } catch {
    return `${name} ${str(item.arguments)}`.trim();
  }
  if (isObject(args) && typeof args.cmd === 'string') return args.cmd;
  if (isObject(args) && args.command !== undefined) return argvCommand(args.command);
  return `${name} ${str(item.arguments)}`.trim();
}

function argvCommand(command: unknown): string {
  if (typeof command === 'string') return command;
  if (!Array.isArray(command)) return '';
  const argv = command.map(String);
  return argv.length === 3 && /(^|\/)(ba|z|)sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!) ? argv[2]! : argv.join(' ');
}

/** A tool call's output: its text, and whether the command failed (exit code other than 0). */
export function callOutput(item: Json): { output: string; isError: boolean } {
  const raw = item.output;
  const texts = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.map((p) => (isObject(p) ? str(p.text) : '')) : isObject(raw) ? [contentText(raw.content)] : [];
  for (const text of texts) {
    const marker = execMarker(text);
    if (marker) return { output: marker.output, isError: marker.exit_code !== null && marker.exit_code !== 0 };
  }
  const joined = texts.join('');
  // Older shells: `{"output": …, "metadata": {"exit_code": …}}`; exec_command: "Process exited with code N".
  try {
    const parsed = JSON.parse(joined) as unknown;
    if (isObject(parsed) && typeof parsed.output === 'string') {
      const code = isObject(parsed.metadata) ? parsed.metadata.exit_code : undefined;
      return { output: parsed.output, isError: typeof code === 'number' && code !== 0 };
    }
  } catch {
    // plain text
  }
  const exited = /Process exited with code (\d+)/.exec(joined);
  const failed = exited ? exited[1] !== '0' : /^Script (failed|error)/i.test(joined) || (isObject(raw) && raw.success === false);
  return { output: joined.replace(/^Script completed\nWall time [^\n]*\nOutput:\n/, ''), isError: failed };
}

export function execMarker(text: string): ExecMarker | null {
  if (!text.startsWith('{"exit_code":')) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isObject(parsed) && typeof parsed.output === 'string' && (parsed.exit_code === null || typeof parsed.exit_code === 'number'))
      return { exit_code: parsed.exit_code, output: parsed.output };
  } catch {
    // not ours
  }
  return null;
}

/** Every tool the request offers, namespaces flattened: `{type, name}`. */
export function offeredTools(body: Json): { type: string; name: string }[] {
  const out: { type: string; name: string }[] = [];
  const walk = (list: unknown): void => {
    if (!Array.isArray(list)) return;
    for (const tool of list) {
      if (!isObject(tool)) continue;
      if (tool.type === 'namespace') walk(tool.tools);
      else out.push({ type: str(tool.type), name: str(tool.name) });
    }
  };
  walk(body.tools);
  if (Array.isArray(body.input)) for (const item of body.input) if (isObject(item) && item.type === 'additional_tools') walk(item.tools);
  return out;
}

export function shellTool(tools: readonly { type: string; name: string }[]): CodexShellTool | null {
  if (tools.some((t) => t.type === 'function' && t.name === 'exec_command')) return 'exec_command';
  if (tools.some((t) => (t.type === 'function' && t.name === 'shell') || t.type === 'local_shell')) return 'shell';
  if (tools.some((t) => t.type === 'custom' && t.name === 'exec')) return 'code_exec';
  return null;
}

/** Read a request body; `turnMetadata` is the `x-codex-turn-metadata` header (JSON) when sent. */
export function parseCodexRequest(body: unknown, turnMetadata = ''): CodexRequest | { error: string } {
  if (!isObject(body)) return { error: 'the request body is not a JSON object' };
  if (!Array.isArray(body.input)) return { error: 'the request body has no `input` array' };
  const system: string[] = str(body.instructions) === '' ? [] : [str(body.instructions)];
  const entries: MockEntry[] = [];
  for (const item of body.input) {
    if (!isObject(item)) continue;
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    if (type === 'message') {
      const text = contentText(item.content);
      if (item.role === 'developer' || item.role === 'system' || (item.role === 'user' && HARNESS.test(text.trim()))) system.push(text);
      else if (item.role === 'user') entries.push({ role: 'user', text });
      else if (item.role === 'assistant') entries.push({ role: 'assistant', text });
    } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      entries.push({ role: 'tool_call', id: str(item.call_id) || str(item.id), command: callCommand(item) });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      entries.push({ role: 'tool_result', id: str(item.call_id), ...callOutput(item) });
    }
  }
  const meta = turnMetadata || (isObject(body.client_metadata) ? str(body.client_metadata['x-codex-turn-metadata']) : '');
  const lastUser = [...entries].reverse().find((e) => e.role === 'user');
  const title = threadSource(meta) === 'thread_title' || (lastUser?.role === 'user' && lastUser.text.startsWith(TITLE_PROMPT));
  const previousResponseId = str(body.previous_response_id) === '' ? null : str(body.previous_response_id);
  return { conversation: { system: system.join('\n\n'), entries }, tool: shellTool(offeredTools(body)), side: title ? 'title' : null, previousResponseId };
}

function threadSource(meta: string): string {
  try {
    const parsed = JSON.parse(meta) as unknown;
    return isObject(parsed) ? str(parsed.thread_source) : '';
  } catch {
    return '';
  }
}

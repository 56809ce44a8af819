/**
 * What the mock sends Codex (pure): the rate-limit headers of a reading, the server-sent events of
 * an action, and the 429 a rejected reading answers with. Codex 0.171.0 reads the headers into the
 * rollout's `token_count.rate_limits` (used_percent, window_minutes, resets_at as sent).
 */
import type { CodexShellTool } from './codexRequest.js';
import type { MockAction, MockRateReading } from './types.js';

const FIVE_HOURS = 300;
const WEEK = 10_080;

export function codexRateHeaders(reading: MockRateReading): Record<string, string> {
  return {
    'x-codex-primary-used-percent': String(reading.fiveHourUsed),
    'x-codex-primary-window-minutes': String(FIVE_HOURS),
    'x-codex-primary-reset-at': String(reading.fiveHourResetsAt),
    'x-codex-secondary-used-percent': String(reading.weekUsed),
    'x-codex-secondary-window-minutes': String(WEEK),
    'x-codex-secondary-reset-at': String(reading.weekResetsAt),
  };
}

/**
 * The 429 body Codex shows as "You've hit your usage limit … try again at <resets_at>": the week's
 * reset when the week is spent, else the five hours'. `now` in epoch seconds.
 */
export function codexUsageLimitBody(reading: MockRateReading, now: number): string {
  const resetsAt = reading.weekUsed >= 100 ? reading.weekResetsAt : reading.fiveHourResetsAt;
  return JSON.stringify({
    error: {
      type: 'usage_limit_reached',
      message: 'The usage limit has been reached',
      plan_type: 'pro',
      resets_at: resetsAt,
      resets_in_seconds: Math.max(0, resetsAt - now),
    },
  });
}

/**
 * The JavaScript code mode's `exec` runs for one command: waits for it to end (polling a long one
 * through `write_stdin`) and prints one marker line `{"exit_code":…,"output":…}` that
 * codexRequest.ts reads back. The pragma lets the script run up to 10 minutes before yielding.
 */
export function execScript(command: string, escalate?: string): string {
  const extra = escalate === undefined ? '' : `, sandbox_permissions: "require_escalated", justification: ${JSON.stringify(escalate)}`;
  return [
    '// @exec: {"yield_time_ms": 600000}',
    `let r = await tools.exec_command({ cmd: ${JSON.stringify(command)}${extra}, yield_time_ms: 30000 });`,
    'let output = r.output ?? "";',
    'while (r.exit_code === undefined && r.session_id !== undefined) {',
    '  r = await tools.write_stdin({ session_id: r.session_id, yield_time_ms: 30000 });',
    '  output += r.output ?? "";',
    '}',
    'text(JSON.stringify({ exit_code: r.exit_code ?? null, output }));',
  ].join('\n');
}

/** The output item that runs `action.command` through the tool Codex offered. */
export function shellCallItem(action: Extract<MockAction, { kind: 'shell' }>, tool: CodexShellTool, callId: string): Record<string, unknown> {
  const escalated = action.escalate === undefined ? {} : { sandbox_permissions: 'require_escalated', justification: action.escalate };
  if (tool === 'code_exec') return { type: 'custom_tool_call', id: `ctc_${callId}`, call_id: callId, name: 'exec', input: execScript(action.command, action.escalate), status: 'completed' };
  const args = tool === 'exec_command' ? { cmd: action.command, ...escalated } : { command: ['bash', '-lc', action.command], ...escalated };
  return { type: 'function_call', id: `fc_${callId}`, call_id: callId, name: tool, arguments: JSON.stringify(args), status: 'completed' };
}

/** Rough token counts: a token per 4 characters of the request body and of the reply. */
export const estimateTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

/** The whole event stream for one reply: created, the one output item (added, text delta, done), completed. */
export function codexSse(action: MockAction, tool: CodexShellTool | null, ids: { response: string; call: string }, inputTokens: number): string {
  const events: [string, Record<string, unknown>][] = [['response.created', { response: { id: ids.response, status: 'in_progress', output: [] } }]];
  let outputChars: number;
  if (action.kind === 'shell' && tool !== null) {
    const item = shellCallItem(action, tool, ids.call);
    outputChars = JSON.stringify(item).length;
    events.push(['response.output_item.added', { output_index: 0, item }], ['response.output_item.done', { output_index: 0, item }]);
  } else {
    const text = action.kind === 'say' ? action.text : `(the mock has no shell tool to run: ${action.command})`;
    const id = `msg_${ids.call}`;
    const item = { type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    outputChars = text.length;
    events.push(
      ['response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }],
      ['response.output_text.delta', { output_index: 0, item_id: id, content_index: 0, delta: text }],
      ['response.output_item.done', { output_index: 0, item }],
    );
  }
  const outputTokens = estimateTokens(outputChars);
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
  events.push(['response.completed', { response: { id: ids.response, status: 'completed', usage } }]);
  return events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join('');
}

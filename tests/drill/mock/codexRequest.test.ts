import { describe, expect, it } from 'vitest';
import { execScript } from '../../../src/drill/mock/codexEvents.js';
import { callCommand, callOutput, parseCodexRequest, shellTool, type CodexRequest } from '../../../src/drill/mock/codexRequest.js';

/** The shape Codex 0.171.0 sends (trimmed): tools as an additional_tools item, prompt as developer messages. */
const TOOLS_0171 = {
  type: 'additional_tools',
  role: 'developer',
  tools: [
    { type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }, { type: 'function', name: 'wait' }] },
    { type: 'namespace', name: 'clock', tools: [{ type: 'function', name: 'sleep' }] },
  ],
};
const dev = (text: string) => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] });
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const ENV = '<environment_context>\n  <cwd>/w/repo</cwd>\n</environment_context>';

const parse = (body: unknown, meta?: string): CodexRequest => {
  const r = parseCodexRequest(body, meta);
  if ('error' in r) throw new Error(r.error);
  return r;
};

describe('parseCodexRequest', () => {
  it('reads a 0.171.0 turn: developer and harness messages as system, the prompt as the user\'s, code mode\'s exec as the shell', () => {
    const call = { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', name: 'exec', input: execScript('echo hi > marker.txt') };
    const output = {
      type: 'custom_tool_call_output',
      call_id: 'call_1',
      output: [{ type: 'input_text', text: 'Script completed\nWall time 0.7 seconds\nOutput:\n' }, { type: 'input_text', text: '{"exit_code":0,"output":"hi\\n"}' }],
    };
    const r = parse({ input: [TOOLS_0171, dev('You are Codex.'), user(ENV), user('make the marker'), call, output, { type: 'configuration_update' }] });
    expect(r).toEqual({
      conversation: {
        system: `You are Codex.\n\n${ENV}`,
        entries: [
          { role: 'user', text: 'make the marker' },
          { role: 'tool_call', id: 'call_1', command: 'echo hi > marker.txt' },
          { role: 'tool_result', id: 'call_1', output: 'hi\n', isError: false },
        ],
      },
      tool: 'code_exec',
      side: null,
      previousResponseId: null,
    });
  });

  it.each([
    ['not an object', 'text', 'the request body is not a JSON object'],
    ['undefined (empty body)', undefined, 'the request body is not a JSON object'],
    ['no input', { model: 'x' }, 'the request body has no `input` array'],
  ])('refuses a body that is %s', (_what, body, error) => {
    expect(parseCodexRequest(body)).toEqual({ error });
  });

  it('an empty input: no entries, no system, no tool', () => {
    expect(parse({ input: [] })).toEqual({ conversation: { system: '', entries: [] }, tool: null, side: null, previousResponseId: null });
  });

  it('a request continuing a stored response names it (previous_response_id)', () => {
    expect(parse({ input: [user('go on')], previous_response_id: 'resp_1' }).previousResponseId).toBe('resp_1');
    expect(parse({ input: [user('go on')], previous_response_id: '' }).previousResponseId).toBeNull();
  });

  it('older shapes: top-level instructions, string content, assistant output_text, items without a type', () => {
    const r = parse({
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'shell' }],
      input: [{ role: 'user', content: 'hi\r\nthere ' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }],
    });
    expect(r.conversation).toEqual({ system: 'Be brief.', entries: [{ role: 'user', text: 'hi\r\nthere ' }, { role: 'assistant', text: 'ok' }] });
    expect(r.tool).toBe('shell');
  });

  it.each([
    ['the turn metadata header', { input: [user('say hi')] }, '{"thread_source":"thread_title","request_kind":"turn"}'],
    ['the body\'s client_metadata', { input: [user('say hi')], client_metadata: { 'x-codex-turn-metadata': '{"thread_source":"thread_title"}' } }, ''],
    ['the prompt', { input: [user('Generate a concise, single-line task title of at most 36 characters.\n\nUser prompt:\nsay hi')] }, ''],
  ])('knows Codex\'s thread-title side request by %s', (_by, body, meta) => {
    expect(parse(body, meta).side).toBe('title');
  });

  it.each(['{"thread_source":"user"}', 'not json', ''])('a lane turn (metadata %j) is no side request', (meta) => {
    expect(parse({ input: [user('say hi')] }, meta).side).toBeNull();
  });

  it.each([
    ['a user message that is only a harness block', '<user_instructions>\nbe nice\n</user_instructions>', 'system'],
    ['AGENTS.md instructions', '# AGENTS.md instructions for /w/repo\n\n<INSTRUCTIONS>x</INSTRUCTIONS>', 'system'],
    ['text that merely starts with a tag', '<b>bold</b> and more', 'user'],
    ['ANSI escapes', '\u001b[31mred\u001b[0m', 'user'],
  ])('%s goes to the %s', (_what, text, where) => {
    const r = parse({ input: [user(text)] });
    expect(where === 'system' ? r.conversation.system : r.conversation.entries).toEqual(where === 'system' ? text : [{ role: 'user', text }]);
  });
});

describe('the shell command of a call', () => {
  it.each([
    'echo hi > marker.txt',
    '',
    'printf "a\\nb" && echo \'single\' `back` $HOME \\',
    'line one\nline two',
    'trailing spaces   ',
    'crlf\r\n',
    '\u001b[31mansi\u001b[0m',
    'swarm notify lead "done: step 1" — ünïcode',
  ])('round-trips through the mock\'s own exec script: %j', (command) => {
    expect(callCommand({ type: 'custom_tool_call', name: 'exec', input: execScript(command) })).toBe(command);
    expect(callCommand({ type: 'custom_tool_call', name: 'exec', input: execScript(command, 'outside') })).toBe(command);
  });

  it.each([
    ['exec_command', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls -la","yield_time_ms":1000}' }, 'ls -la'],
    ['shell as bash -lc', { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","cd x && make"]}' }, 'cd x && make'],
    ['shell as argv', { type: 'function_call', name: 'shell', arguments: '{"command":["ls","-la"]}' }, 'ls -la'],
    ['local_shell_call', { type: 'local_shell_call', action: { command: ['/bin/sh', '-c', 'true'] } }, 'true'],
    ['a model\'s own exec script', { type: 'custom_tool_call', name: 'exec', input: 'const x = 1;' }, 'const x = 1;'],
    ['arguments that are not JSON', { type: 'function_call', name: 'apply_patch', arguments: '*** Begin' }, 'apply_patch *** Begin'],
    ['another function', { type: 'function_call', name: 'sleep', arguments: '{"duration_ms":5}' }, 'sleep {"duration_ms":5}'],
  ])('%s', (_what, item, command) => {
    expect(callCommand(item)).toBe(command);
  });
});

describe('the output of a call', () => {
  it.each([
    ['the mock\'s marker, exit 0', [{ text: 'Script completed\nWall time 1 seconds\nOutput:\n' }, { text: '{"exit_code":0,"output":"ok\\n"}' }], { output: 'ok\n', isError: false }],
    ['the mock\'s marker, exit 3', [{ text: '{"exit_code":3,"output":"slow\\r\\n"}' }], { output: 'slow\r\n', isError: true }],
    ['the mock\'s marker, still running', [{ text: '{"exit_code":null,"output":""}' }], { output: '', isError: false }],
    ['exec without a marker', [{ text: 'Script completed\nWall time 1 seconds\nOutput:\n' }, { text: 'plain' }], { output: 'plain', isError: false }],
    ['a failed script', 'Script failed\nError: boom', { output: 'Script failed\nError: boom', isError: true }],
    ['exec_command text', 'Chunk ID: 1\nProcess exited with code 2\nOutput:\nno', { output: 'Chunk ID: 1\nProcess exited with code 2\nOutput:\nno', isError: true }],
    ['older shell JSON', '{"output":"done\\n","metadata":{"exit_code":0}}', { output: 'done\n', isError: false }],
    ['older shell JSON, failed', '{"output":"","metadata":{"exit_code":1}}', { output: '', isError: true }],
    ['nothing', undefined, { output: '', isError: false }],
  ])('%s', (_what, output, expected) => {
    expect(callOutput({ type: 'custom_tool_call_output', call_id: 'c', output })).toEqual(expected);
  });
});

describe('shellTool', () => {
  it.each([
    [[{ type: 'function', name: 'exec_command' }, { type: 'custom', name: 'exec' }], 'exec_command'],
    [[{ type: 'function', name: 'shell' }], 'shell'],
    [[{ type: 'local_shell', name: '' }], 'shell'],
    [[{ type: 'custom', name: 'exec' }], 'code_exec'],
    [[{ type: 'function', name: 'exec' }, { type: 'custom', name: 'apply_patch' }], null],
    [[], null],
  ])('%j offers %s', (tools, tool) => {
    expect(shellTool(tools)).toBe(tool);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCodexNotify, type CodexNotice } from '../../../src/kinds/codex/notify.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/codex/${name}.json`, import.meta.url), 'utf8');
const LANE = '019a9776-0a34-7842-8627-112b63d66e90';
const TITLE = '019a9776-0b10-7aa0-8d2e-5c3f1e2d4b6a';

function notice(json: string, lane: string | null): CodexNotice {
  const result = parseCodexNotify(json, lane);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('parseCodexNotify', () => {
  it("the lane's thread: its turn ended", () => {
    expect(notice(fixture('notify-lane'), LANE)).toEqual({ kind: 'turn_end', threadId: LANE, turnId: '0', lastMessage: 'Done: tests pass.' });
  });

  it("Codex's title thread, which may finish first: ignored", () => {
    expect(notice(fixture('notify-title'), LANE)).toEqual({ kind: 'ignore', detail: `turn end of another thread (${TITLE}), e.g. Codex's title thread` });
  });

  it("before the lane's thread is known: no notice counts", () => {
    expect(notice(fixture('notify-lane'), null)).toEqual({ kind: 'ignore', detail: `turn end of thread ${LANE} before the lane's thread is known` });
    expect(notice(fixture('notify-title'), null).kind).toBe('ignore');
  });

  it.each<[string, string, RegExp]>([
    ['empty argument', '', /empty codex notify JSON/],
    ['not JSON', 'agent-turn-complete', /codex notify JSON is not JSON/],
    ['NaN', '{"type":NaN}', /not JSON/],
    ['a list', '[]', /must be a JSON object, got a list/],
  ])('%s → a typed error', (_name, json, error) => {
    const result = parseCodexNotify(json, LANE);
    expect(result.ok ? '' : result.error).toMatch(error);
  });

  const n = (fields: Record<string, unknown>): string => JSON.stringify({ type: 'agent-turn-complete', 'thread-id': LANE, ...fields });
  it.each<[string, string, Partial<CodexNotice> & { detail?: string; lastMessage?: string; turnId?: string | null }]>([
    ['another type', n({ type: 'approval-requested' }), { kind: 'ignore', detail: 'notice approval-requested: not a turn end' }],
    ['no type', JSON.stringify({ 'thread-id': LANE }), { kind: 'ignore', detail: 'notice without a type: not a turn end' }],
    ['no thread-id', n({ 'thread-id': undefined }), { kind: 'ignore', detail: 'turn end without a thread-id' }],
    ['thread-id of the wrong type', n({ 'thread-id': 7 }), { kind: 'ignore', detail: 'turn end without a thread-id' }],
    ['no last message, no turn id', n({}), { kind: 'turn_end', lastMessage: '', turnId: null }],
    ['escape codes and line breaks in the message', n({ 'last-assistant-message': '\u001b[1mDone\u001b[0m\r\nall green' }), { kind: 'turn_end', lastMessage: 'Done all green' }],
    ['CRLF and trailing spaces around the JSON', `${n({})}  \r\n`, { kind: 'turn_end' }],
    ['a lane thread id given with spaces', n({}), { kind: 'turn_end', threadId: LANE }],
  ])('%s', (name, json, expected) => {
    expect(notice(json, name.startsWith('a lane thread') ? ` ${LANE} ` : LANE)).toMatchObject(expected);
  });
});

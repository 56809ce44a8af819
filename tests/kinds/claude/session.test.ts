import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClaudeSession, waitsForPermission, type ClaudeSession } from '../../../src/kinds/claude/session.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/claude/${name}.json`, import.meta.url), 'utf8');
const SID = '5f3b2c1e-8a4d-4e6f-9b7a-2c1d0e9f8a7b';

describe('parseClaudeSession', () => {
  it.each<[string, ClaudeSession, boolean]>([
    ['session-busy', { status: 'busy', waitingFor: null }, false],
    ['session-idle', { status: 'idle', waitingFor: null }, false],
    ['session-waiting-permission', { status: 'waiting', waitingFor: 'permission prompt' }, true],
    ['session-waiting-dialog', { status: 'waiting', waitingFor: 'dialog open' }, false],
  ])('%s', (name, expected, permission) => {
    const session = parseClaudeSession(fixture(name), SID);
    expect(session).toEqual(expected);
    expect(waitsForPermission(session)).toBe(permission);
  });

  const file = (fields: Record<string, unknown>): string => JSON.stringify({ pid: 1, sessionId: SID, ...fields });
  it.each<[string, string, string, ClaudeSession | null]>([
    ['empty file (being written)', '', SID, null],
    ['not JSON', 'busy', SID, null],
    ['a torn file', file({ status: 'busy' }).slice(0, 20), SID, null],
    ['another session', file({ status: 'idle' }), 'ffffffff-0000-0000-0000-000000000000', null],
    ['no sessionId', JSON.stringify({ status: 'idle' }), SID, null],
    ['an unknown status', file({ status: 'thinking' }), SID, null],
    ['status of the wrong type', file({ status: 1 }), SID, null],
    ['status in capitals', file({ status: 'IDLE' }), SID, { status: 'idle', waitingFor: null }],
    ['waiting without waitingFor', file({ status: 'waiting' }), SID, { status: 'waiting', waitingFor: null }],
    ['waitingFor ignored unless waiting', file({ status: 'busy', waitingFor: 'permission prompt' }), SID, { status: 'busy', waitingFor: null }],
    ['CRLF and trailing spaces', `${file({ status: 'idle' }).replace(/,/g, ',\r\n')}  \r\n`, SID, { status: 'idle', waitingFor: null }],
    ['a session id given with spaces', file({ status: 'idle' }), `  ${SID}\n`, { status: 'idle', waitingFor: null }],
    ['escape codes in waitingFor are kept (matched, not shown)', file({ status: 'waiting', waitingFor: '\u001b[1mpermission prompt' }), SID, { status: 'waiting', waitingFor: '\u001b[1mpermission prompt' }],
  ])('%s', (_name, text, sessionId, expected) => {
    expect(parseClaudeSession(text, sessionId)).toEqual(expected);
  });

  it.each<[ClaudeSession | null, boolean]>([
    [null, false], [{ status: 'waiting', waitingFor: 'sandbox request' }, true], [{ status: 'waiting', waitingFor: 'Permission Prompt' }, true],
    [{ status: 'waiting', waitingFor: 'input needed' }, false], [{ status: 'waiting', waitingFor: null }, false],
  ])('waitsForPermission(%j) = %s', (session, expected) => expect(waitsForPermission(session)).toBe(expected));
});

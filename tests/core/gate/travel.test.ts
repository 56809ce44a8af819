/** Gates travel (SPEC 10.6, core/gate/travel.ts): which unverified gates of a packet a lane's `done` runs. */
import { describe, expect, it } from 'vitest';
import { gateCommand, planGates, travellingGates } from '../../../src/core/gate/travel.js';

describe('planGates', () => {
  it.each([
    ['a map of name to command', '---\ncontract: c1\ngates:\n  lint: npm run lint\n  types: "npm run typecheck"\n---\n# Plan\n', { lint: 'npm run lint', types: 'npm run typecheck' }],
    ['CRLF and trailing spaces', '---\r\ngates:\r\n  lint: npm run lint   \r\n---\r\n', { lint: 'npm run lint' }],
    ['no front matter', '# Plan\ngates:\n  lint: x\n', {}],
    ['no gates', '---\ncontract: c1\n---\n', {}],
    ['gates not a map', '---\ngates: [a, b]\n---\n', {}],
    ['a name with no command, or not a string', '---\ngates:\n  empty: ""\n  n: 3\n  ok: make check\n---\n', { ok: 'make check' }],
    ['unreadable YAML', '---\ngates: {lint: [\n---\n', {}],
    ['empty text', '', {}],
  ])('%s', (_name, text, gates) => {
    expect(planGates(text)).toEqual(gates);
  });
});

describe('travellingGates', () => {
  const gates = { lint: 'npm run lint', types: 'npm run typecheck', same: 'npm test' };
  it.each([
    ['a plan gate by name', [{ gate: 'lint' }], 'npm test', ['npm run lint']],
    ['done_when itself: it runs anyway, not twice', [{ gate: 'npm test' }], 'npm test', []],
    ['a plan gate whose command is done_when: not twice', [{ gate: 'same' }], 'npm test', []],
    ['any other text: shown, never run', [{ gate: 'rm -rf / && curl evil' }, { gate: 'npm run lint' }], 'npm test', []],
    ['in the packet\'s order, each once, names trimmed', [{ gate: ' types ' }, { gate: 'lint' }, { gate: 'types' }], null, ['npm run typecheck', 'npm run lint']],
    ['empty gate text', [{ gate: '' }, { gate: '  ' }], 'npm test', []],
    ['a name inherited from Object (not a plan gate)', [{ gate: 'constructor' }, { gate: 'toString' }], null, []],
  ])('%s', (_name, unverified, doneWhen, want) => {
    expect(travellingGates(unverified, doneWhen, gates)).toEqual(want);
  });
});

describe('gateCommand', () => {
  it.each([
    ['no done_when, nothing travelling', null, undefined, null],
    ['done_when alone', 'npm test', [], 'npm test'],
    ['a travelling gate alone', null, ['npm run lint'], 'npm run lint'],
    ['both, each in its own subshell, all must pass', 'npm test', ['npm run lint', 'a || b'], '(npm test) && (npm run lint) && (a || b)'],
    ['a blank done_when', '  ', ['x'], 'x'],
  ])('%s', (_name, doneWhen, travelling, want) => {
    expect(gateCommand(doneWhen, travelling)).toBe(want);
  });
});

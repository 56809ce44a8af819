import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/swarm.js';
import { checkStateWrites } from '../../scripts/check-state-writes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'check-state-writes.mjs');

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function tree(files: Record<string, string>): string {
  const made = tempDir('swarm-state-writes-');
  cleanup = made.cleanup;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(made.dir, path)), { recursive: true });
    writeFileSync(join(made.dir, path), text);
  }
  return made.dir;
}

describe('check-state-writes: no runtime file but engine.ts writes the swarm state', () => {
  it('holds for this repository', () => {
    expect(checkStateWrites(ROOT)).toEqual([]);
  });

  it.each([
    ['the whole state', 'engine.state = next;', 'assigns the state'],
    ['a field', 'engine.state.epoch = 2;', 'assigns into the state'],
    ['a field, compound', 'this.engine.state.askTimeouts += 1;', 'assigns into the state'],
    ['a lane by index', 'state.lanes[name] = lane;', 'assigns into the state'],
    ['a nested field', 'engine.state.lanes.a.phase = null;', 'assigns into the state'],
    ['an increment', 'engine.state.askTimeouts++;', 'increments into the state'],
    ['a push', 'engine.state.pending.push(item);', 'mutates the state in place'],
    ['a shift', 'state.timers.shift();', 'mutates the state in place'],
    ['Object.assign', 'Object.assign(engine.state, patch);', 'Object.assign into the state'],
    ['delete', 'delete engine.state.hostLost;', 'deletes from the state'],
  ])('a planted write fails: %s', (_what, line, what) => {
    const root = tree({ 'src/runtime/helper.ts': `export function f(engine: any, state: any) {\n  ${line}\n}\n` });
    const problems = checkStateWrites(root);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^src/runtime/helper\\.ts:2:\\d+: ${what}`));
  });

  it.each([
    ['reads and comparisons', 'const x = engine.state.epoch === 2 && state.lanes[n] !== undefined;'],
    ['a new object from the state', 'const next = { ...engine.state, epoch: 2 };'],
    ['a comment', '// engine.state.epoch = 2;'],
    ['a string', "const s = 'state.epoch = 2';"],
    ['a lane\'s own field in a literal', "const lane = { ...l, state: 'stopped' };"],
  ])('not a write: %s', (_what, line) => {
    expect(checkStateWrites(tree({ 'src/runtime/helper.ts': `${line}\n` }))).toEqual([]);
  });

  it('engine.ts may write it; files outside src/runtime/ are not looked at', () => {
    expect(checkStateWrites(tree({ 'src/runtime/engine.ts': 'this.state = next;\n', 'src/core/x.ts': 'state.epoch = 1;\n' }))).toEqual([]);
  });

  it('the script as `npm run lint` runs it: exit 1 with file:line:col', () => {
    const root = tree({ 'src/runtime/helper.ts': 'engine.state.epoch = 2;\n' });
    const child = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain('src/runtime/helper.ts:1:8: assigns into the state');
  });
});

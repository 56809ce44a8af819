import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearKindCache, loadKind } from '../../src/adapters/kinds.js';
import { shippedPanesDir } from '../../src/adapters/configFile.js';
import { ConfigError, UsageError } from '../../src/errors.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'swarm-kinds-'));
  clearKindCache();
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  clearKindCache();
});

function writeKind(name: string, text: string): string {
  mkdirSync(path.join(dir, 'panes'), { recursive: true });
  const file = path.join(dir, 'panes', `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

describe('loadKind', () => {
  it.each([['claude'], ['codex'], ['gemini'], ['sim'], ['command']])('finds the shipped %s from any folder', (name) => {
    expect(loadKind(name, dir).kind).toBe(name);
  });

  it('prefers panes/<kind>.yaml beside swarm.yaml', () => {
    writeKind('claude', 'kind: claude\nlaunch:\n  command: [my-claude, "{brief}"]\n  prompt: argument\n');
    expect(loadKind('claude', dir).launch?.command).toEqual(['my-claude', '{brief}']);
  });

  it('finds a kind only the config folder has', () => {
    writeKind('aider', 'kind: aider\nlaunch:\n  command: [aider]\n  prompt: paste\n');
    expect(loadKind('aider', dir).launch?.prompt).toBe('paste');
  });

  it('keeps what it read, per file', () => {
    const file = writeKind('aider', 'kind: aider\nlaunch:\n  command: [aider]\n  prompt: paste\n');
    const first = loadKind('aider', dir);
    writeFileSync(file, 'kind: aider\nlaunch: null\n');
    expect(loadKind('aider', dir)).toBe(first);
    clearKindCache();
    expect(loadKind('aider', dir).launch).toBeNull();
  });

  it.each([['nope'], ['../claude'], ['']])('a kind that does not exist (%j) is a UsageError', (name) => {
    const error = (() => {
      try {
        loadKind(name, dir);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      `kind "${name}" not found: no panes/${name}.yaml beside swarm.yaml (${path.join(dir, 'panes')}) nor among the shipped kinds (${shippedPanesDir()})`,
    );
  });

  it('a bad file is a ConfigError with FILE:LINE:COL for every problem', () => {
    const file = writeKind('broken', 'kind: broken\nlaunch: claude\nscreens:\n  permisson: [x]\n');
    expect(() => loadKind('broken', dir)).toThrow(ConfigError);
    try {
      loadKind('broken', dir);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        `${file}:2:9: "launch" must be a mapping of keys, got "claude"`,
        `${file}:4:3: unknown key "permisson" in screens; did you mean "permission"?`,
      ]);
    }
  });

  it('a file whose kind: names another kind is refused', () => {
    const file = writeKind('mine', 'kind: claude\n');
    expect(() => loadKind('mine', dir)).toThrow(`${file}:1:7: "kind" is "claude" but the file is mine.yaml: make them the same`);
  });
});

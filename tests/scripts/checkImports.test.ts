import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/swarm.js';
import { ALLOWED, checkImports, KIND_IMPORTS } from '../../scripts/check-imports.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'check-imports.mjs');

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** The script as `npm run lint` runs it. */
function run(root: string): { status: number | null; stderr: string } {
  const child = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: child.status, stderr: child.stderr };
}

/** In-process (typescript loads once): exit 1 when any problem, its lines on stderr. */
function check(root: string, ...flags: string[]): { status: number; stderr: string } {
  const none = flags.includes('--no-allow');
  const problems = checkImports(root, none ? [] : undefined, none ? [] : undefined);
  return { status: problems.length === 0 ? 0 : 1, stderr: problems.join('\n') };
}

/** A src/ tree from `{ path: text }`. */
function tree(files: Record<string, string>): string {
  const made = tempDir('swarm-cycles-');
  cleanup = made.cleanup;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(made.dir, 'src', path)), { recursive: true });
    writeFileSync(join(made.dir, 'src', path), text);
  }
  return made.dir;
}

describe('scripts/check-imports.mjs: cycles', () => {
  it('this repository has no import cycle but those its allow-list names (as npm run lint runs it)', () => {
    expect(run(ROOT)).toEqual({ status: 0, stderr: '' });
  });

  it.each([
    ['a plain import', { 'a.ts': "import { b } from './b.js';\nexport const a = b;\n", 'b.ts': "import { a } from './a.js';\nexport const b = 1; void a;\n" }],
    ['a type-only import', { 'core/a.ts': "import type { B } from './b.js';\nexport type A = B;\n", 'core/b.ts': "import type { A } from './a.js';\nexport type B = A | 1;\n" }],
    ['a re-export', { 'a.ts': "export * from './b.js';\n", 'b.ts': "export { a } from './a.js';\n" }],
    ['a lazy import()', { 'a.ts': "export const a = () => import('./b.js');\n", 'b.ts': "import { a } from './a.js';\nvoid a;\n" }],
    ['three files, .tsx', { 'a.ts': "import './b.js';\n", 'b.ts': "import './c.js';\n", 'c.tsx': "import './a.js';\n" }],
  ])('fails on a cycle through %s, naming its files', (_what, files) => {
    const result = check(tree(files), '--no-allow');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/import cycle among \d files \(src\/.*\), e\.g\. src\/\S+ -> src\/\S+/);
  });

  it('passes a tree whose imports only go one way, and ignores packages', () => {
    const root = tree({ 'a.ts': "import { b } from './b.js';\nimport { execa } from 'execa';\nexport const a = [b, execa];\n", 'b.ts': 'export const b = 1;\n' });
    expect(check(root, '--no-allow')).toEqual({ status: 0, stderr: '' });
  });

  it('an allowed import that no longer exists is an error: the allow-list only shrinks', () => {
    const problems = checkImports(tree({ 'a.ts': 'export const a = 1;\n' }), [['src/runtime/delivery.ts', 'src/runtime/engine.ts']]);
    expect(problems.join('\n')).toContain('allowed import src/runtime/delivery.ts -> src/runtime/engine.ts no longer exists');
  });

  it('the allow-list is empty: no cycle in src/ is allowed (issue 11 §1)', () => {
    expect(ALLOWED).toEqual([]);
    expect(check(ROOT)).toEqual({ status: 0, stderr: '' });
  });
});

describe('scripts/check-imports.mjs: layers', () => {
  it.each([
    ['adapters/tmux/x.ts', "import type { Engine } from '../../runtime/engine.js';\n", 'src/adapters/tmux/x.ts imports src/runtime/engine.ts'],
    ['adapters/x.ts', "export const x = () => import('../runtime/engine.js');\n", 'src/adapters/x.ts imports src/runtime/engine.ts'],
    ['adapters/x.ts', "export { up } from '../commands/up.js';\n", 'src/adapters/x.ts imports src/commands/up.ts'],
    ['core/x.ts', "import { runTmux } from '../adapters/tmux/runner.js';\nvoid runTmux;\n", 'src/core/x.ts imports src/adapters/tmux/runner.ts'],
    ['machine/x.ts', "import type { Engine } from '../runtime/engine.js';\nexport type X = Engine;\n", 'src/machine/x.ts imports src/runtime/engine.ts'],
  ])('%s importing a layer above it fails: %j', (file, text, said) => {
    const root = tree({
      [file]: text, 'runtime/engine.ts': 'export type Engine = 1;\n', 'commands/up.ts': 'export const up = 1;\n',
      'adapters/tmux/runner.ts': 'export const runTmux = 1;\n',
    });
    const result = check(root, '--no-allow');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(said);
  });

  it('runtime importing adapters, and adapters importing core, are the direction allowed', () => {
    const root = tree({ 'runtime/a.ts': "import '../adapters/b.js';\n", 'adapters/b.ts': "import '../core/c.js';\n", 'core/c.ts': 'export {};\n' });
    expect(check(root, '--no-allow')).toEqual({ status: 0, stderr: '' });
  });
});

describe('scripts/check-imports.mjs: kinds', () => {
  const shared = {
    'core/c.ts': 'export const c = 1;\n', 'adapters/a.ts': 'export const a = 1;\n', 'kinds/claude/b.ts': 'export const b = 1;\n', 'runtime/engine.ts': 'export const e = 1;\n',
    'kinds/kind.ts': 'export interface Kind { name: string }\n', 'kinds/index.ts': "export const kindFor = () => import('./claude/b.js');\n",
  };

  it.each([
    ['kinds/codex/x.ts', "import { b } from '../claude/b.js';\nvoid b;\n", 'src/kinds/codex/x.ts imports src/kinds/claude/b.ts: a kind never imports another kind (codex -> claude)'],
    ['kinds/codex/x.ts', "export const x = () => import('../claude/b.js');\n", 'src/kinds/codex/x.ts imports src/kinds/claude/b.ts: a kind never imports another kind'],
    ['core/x.ts', "import type { b } from '../kinds/claude/b.js';\nexport type X = typeof b;\n", 'src/core/x.ts imports src/kinds/claude/b.ts: src/core is pure and knows no kind'],
    ['core/launch/x.ts', "import '../../kinds/claude/b.js';\n", 'src/core/launch/x.ts imports src/kinds/claude/b.ts'],
    ['adapters/x.ts', "import '../kinds/claude/b.js';\n", 'src/adapters/x.ts imports src/kinds/claude/b.ts'],
    ['runtime/x.ts', "import '../kinds/claude/b.js';\n", "src/runtime/x.ts imports src/kinds/claude/b.ts: outside a kind's folder, reach it through its interface (src/kinds/kind.ts, src/kinds/index.ts)"],
    ['commands/hook.ts', "import '../kinds/claude/b.js';\n", "src/commands/hook.ts imports src/kinds/claude/b.ts: outside a kind's folder, reach it through its interface"],
    ['kinds/codex/x.ts', "import '../index.js';\n", 'src/kinds/codex/x.ts imports src/kinds/index.ts: a kind never reaches the map of all kinds'],
    ['core/x.ts', "import type { Kind } from '../kinds/kind.js';\nexport type X = Kind;\n", 'src/core/x.ts imports src/kinds/kind.ts: src/core is pure and knows no kind'],
    ['adapters/x.ts', "import '../kinds/index.js';\n", 'src/adapters/x.ts imports src/kinds/index.ts'],
    ['ui/x.ts', "import '../kinds/claude/b.js';\n", 'src/ui/x.ts imports src/kinds/claude/b.ts'],
    ['machine/x.ts', "import '../kinds/claude/b.js';\n", 'src/machine/x.ts imports src/kinds/claude/b.ts'],
    ['kinds/codex/x.ts', "import '../../runtime/engine.js';\n", 'src/kinds/codex/x.ts imports src/runtime/engine.ts: a kind leans on core/ and adapters/ only'],
  ])('%s importing %j fails', (file, text, said) => {
    const result = check(tree({ ...shared, [file]: text }), '--no-allow');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(said);
  });

  it('a kind importing core/, adapters/, its own files and the interface, and a command or the engine importing the interface, pass', () => {
    const root = tree({
      ...shared,
      'kinds/claude/x.ts': "import '../../core/c.js';\nimport '../../adapters/a.js';\nimport './b.js';\nimport type { Kind } from '../kind.js';\nexport type X = Kind;\n",
      'commands/hook.ts': "import '../kinds/index.js';\n",
      'runtime/x.ts': "import '../kinds/index.js';\nimport type { Kind } from '../kinds/kind.js';\nexport type X = Kind;\n",
    });
    expect(check(root, '--no-allow')).toEqual({ status: 0, stderr: '' });
  });

  it('KIND_IMPORTS lets exactly its imports through, and one whose import is gone is an error', () => {
    const root = tree({ ...shared, 'core/x.ts': "import '../kinds/claude/b.js';\n", 'core/y.ts': "import '../kinds/claude/b.js';\n" });
    const problems = checkImports(root, [], [['src/core/x.ts', 'src/kinds/claude/b.ts'], ['src/core/z.ts', 'src/kinds/claude/b.ts']]);
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toContain('allowed kind import src/core/z.ts -> src/kinds/claude/b.ts no longer exists');
    expect(problems.join('\n')).toContain('src/core/y.ts imports src/kinds/claude/b.ts');
  });

  it("this repository's KIND_IMPORTS are imports of a kind from outside the kinds, each named once", () => {
    for (const [from, to] of KIND_IMPORTS) {
      expect(from.startsWith('src/kinds/')).toBe(false);
      expect(to.startsWith('src/kinds/')).toBe(true);
    }
    expect(new Set(KIND_IMPORTS.map((pair) => pair.join(' '))).size).toBe(KIND_IMPORTS.length);
  });
});

describe('scripts/check-imports.mjs: barrels', () => {
  it.each([
    ['export *', "export * from './config/config.js';\n"],
    ['named re-exports', "export { parseConfig } from './config/config.js';\nexport type { SwarmConfig } from './config/config.js';\n"],
  ])('a file that only re-exports (%s) fails: an old path kept alive', (_what, text) => {
    const result = check(tree({ 'core/config/config.ts': 'export const parseConfig = 1;\nexport type SwarmConfig = 1;\n', 'core/config.ts': text }), '--no-allow');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('src/core/config.ts only re-exports other files');
  });

  it('a file with code of its own that also re-exports, and an empty file, are not barrels', () => {
    const root = tree({
      'core/b.ts': 'export const b = 1;\n',
      'core/a.ts': "export { b } from './b.js';\nexport const a = 2;\n",
      'core/empty.ts': '',
    });
    expect(check(root, '--no-allow')).toEqual({ status: 0, stderr: '' });
  });
});

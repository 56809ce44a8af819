import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/swarm.js';
import { unusedExports } from '../../scripts/unused-exports.mjs';

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [] },
  include: ['src', 'tests'],
});

/** A project of `{ path: text }` with a tsconfig over src/ and tests/. */
function project(files: Record<string, string>): string {
  const made = tempDir('swarm-exports-');
  cleanup = made.cleanup;
  for (const [path, text] of Object.entries({ 'tsconfig.json': TSCONFIG, ...files })) {
    mkdirSync(dirname(join(made.dir, path)), { recursive: true });
    writeFileSync(join(made.dir, path), text);
  }
  return made.dir;
}

describe('scripts/unused-exports.mjs', () => {
  it('finds an export nothing uses (dead), and one only its own file uses (local)', () => {
    const root = project({
      'src/a.ts': 'export class NeverThrown extends Error {}\nexport interface Options { n: number }\nexport function run(o: Options): number { return o.n; }\n',
      'src/b.ts': "import { run } from './a.js';\nexport const x = run({ n: 1 });\n",
      'tests/b.test.ts': "import { x } from '../src/b.js';\nvoid x;\n",
    });
    expect(unusedExports(root)).toEqual([
      { where: 'src/a.ts: NeverThrown', dead: true },
      { where: 'src/a.ts: Options', dead: false },
    ]);
  });

  it.each([
    ['a named import', "import { used } from '../src/a.js';\nvoid used;\n"],
    ['a type-only import', "import type { used } from '../src/a.js';\nexport type T = typeof used;\n"],
    ['a re-export', "export { used } from '../src/a.js';\n"],
    ['export *', "export * from '../src/a.js';\n"],
    ['import * as', "import * as a from '../src/a.js';\nvoid a;\n"],
    ['destructured import()', "export async function f() { const { used } = await import('../src/a.js'); return used; }\n"],
    ['(await import()).name', "export async function f() { return (await import('../src/a.js')).used; }\n"],
  ])('counts %s as a use', (_how, text) => {
    const root = project({ 'src/a.ts': 'export const used = 1;\n', 'tests/user.ts': text });
    expect(unusedExports(root)).toEqual([]);
  });

  it('an import() taken whole counts every export as used', () => {
    const root = project({ 'src/a.ts': 'export const one = 1;\nexport const two = 2;\n', 'tests/user.ts': "export const m = import('../src/a.js');\n" });
    expect(unusedExports(root)).toEqual([]);
  });
});

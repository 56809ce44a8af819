#!/usr/bin/env node
/**
 * The import rules of STYLE.md that eslint's built-in rules cannot hold, over every import in src/:
 * `import type`, re-exports and lazy `import()` too, since each is how one file leans on another.
 * No plugin: TypeScript's own pre-processor reads the import lines (no type-check).
 * - Layers: a folder never imports the ones above it (LAYERS); core/, machine/, adapters/ and ui/
 *   never import kinds/, not even the interface.
 * - Kinds: a kind's folder (src/kinds/<kind>/) imports core/ and adapters/ and the interface's type
 *   (kinds/kind.ts), never another kind; from outside, only kinds/index.ts reaches into a kind's
 *   folder, everyone else goes through the interface (KIND_IMPORTS lists the direct imports still
 *   waiting for it).
 * - No barrels: no file in src/ only re-exports others (an old path kept alive after a move).
 * - No import cycles: the strongly connected components of the import graph, each shown as a path.
 *
 * `node scripts/check-imports.mjs [root] [--no-allow]` exits 1 on a layer import, a kind's import of
 * another kind, a barrel, or a cycle left after the allow-lists (`--no-allow`: none allowed); an
 * allow-list entry whose import is gone is an error too, so the lists can only shrink. `npm run lint`
 * runs it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Imports allowed to close a cycle: each `[from, to]` is one import. Empty since each engine helper
 * got the narrow interface it needs; never add to it.
 */
export const ALLOWED = [];

/**
 * Direct imports of a kind's folder from outside it, each `[from, to]` one import allowed until it
 * goes through the `Kind` interface (kinds/kind.ts, kinds/index.ts). Empty since `swarm hook` and
 * `swarm statusline` ask the kinds too; never add to it: a new use goes through the interface.
 */
export const KIND_IMPORTS = [];

const KINDS = 'src/kinds/';
/** The interface every kind is reached through: the type, and the one map from a name to a folder. */
const KIND_INTERFACE = ['src/kinds/kind.ts', 'src/kinds/index.ts'];

/** `from` (a folder, or a file) never imports anything under `never`. */
const LAYERS = [
  { from: 'src/adapters/', never: ['src/runtime/', 'src/commands/', 'src/ui/', 'src/cli.ts', 'src/hot.ts', KINDS], why: 'adapters do I/O for the runtime and the kinds; they never lean on them' },
  { from: 'src/core/', never: ['src/adapters/', 'src/runtime/', 'src/ui/', 'src/commands/', 'src/cli.ts', KINDS], why: 'src/core is pure and knows no kind' },
  { from: 'src/machine/', never: ['src/adapters/', 'src/runtime/', 'src/ui/', 'src/commands/', 'src/cli.ts', KINDS], why: 'the lane machine is pure and knows no kind' },
  { from: KINDS, never: ['src/runtime/', 'src/commands/', 'src/ui/', 'src/cli.ts', 'src/hot.ts', 'src/hot/'], why: 'a kind leans on core/ and adapters/ only' },
  { from: 'src/ui/', never: [KINDS], why: 'the dashboard knows no kind' },
];

/** The kind a file of src/kinds/<kind>/ belongs to, or null (the interface files sit in src/kinds/ itself). */
function kindOf(path) {
  const parts = path.startsWith(KINDS) ? path.slice(KINDS.length).split('/') : [];
  return parts.length > 1 ? parts[0] : null;
}

/**
 * Why `from` may not import `to`, a file of a kind's folder, or null when it may: only the kind
 * itself and kinds/index.ts reach into a kind's folder; a kind reaches no other kind, and never the
 * map of them all (kinds/index.ts), only the interface's type (kinds/kind.ts).
 */
function kindProblem(from, to) {
  const [mine, theirs] = [kindOf(from), kindOf(to)];
  if (mine !== null && to === 'src/kinds/index.ts') return `${from} imports ${to}: a kind never reaches the map of all kinds`;
  if (theirs === null || mine === theirs || from === 'src/kinds/index.ts') return null;
  if (mine !== null) return `${from} imports ${to}: a kind never imports another kind (${mine} -> ${theirs}); move what both need to core/`;
  return `${from} imports ${to}: outside a kind's folder, reach it through its interface (${KIND_INTERFACE.join(', ')})`;
}

/** A barrel: a file whose every statement re-exports another module (`export … from`). */
function isBarrel(text) {
  const { statements } = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  return statements.length > 0 && statements.every((s) => ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined);
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Every problem in `root`'s src/, as lines; none when the imports keep the rules. */
export function checkImports(root, allowed = ALLOWED, kindImports = KIND_IMPORTS) {
  const src = join(root, 'src');
  const rel = (path) => relative(root, path);
  const graph = new Map();
  const problems = [];
  for (const file of files(src)) {
    const text = readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const targets = new Set(info.importedFiles.map((f) => resolveImport(file, f.fileName)).filter((t) => t !== null).map(rel));
    graph.set(rel(file), targets);
    if (isBarrel(text)) problems.push(`${rel(file)} only re-exports other files: import from where a thing lives, not through a barrel`);
  }

  const waiting = new Set(kindImports.map(([from, to]) => `${from} -> ${to}`));
  for (const [from, to] of kindImports) {
    if (!graph.get(from)?.has(to)) problems.push(`allowed kind import ${from} -> ${to} no longer exists: remove it from KIND_IMPORTS in scripts/check-imports.mjs`);
  }
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (waiting.has(`${from} -> ${to}`)) continue;
      const layered = LAYERS.filter((l) => from.startsWith(l.from) && l.never.some((n) => to.startsWith(n)));
      for (const layer of layered) problems.push(`${from} imports ${to}: ${layer.why} (${layer.from} never imports ${layer.never.join(', ')})`);
      const problem = layered.length === 0 ? kindProblem(from, to) : null;
      if (problem !== null) problems.push(problem);
    }
  }
  for (const [from, to] of allowed) {
    if (!graph.get(from)?.has(to)) problems.push(`allowed import ${from} -> ${to} no longer exists: remove it from ALLOWED in scripts/check-imports.mjs`);
    else graph.get(from).delete(to);
  }

  // Tarjan's strongly connected components; each of more than one file (or a file importing itself) holds a cycle.
  let index = 0;
  const stack = [];
  const meta = new Map();
  const components = [];
  function connect(v) {
    meta.set(v, { index, low: index, onStack: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!meta.has(w)) {
        connect(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) {
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
      }
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v).has(v)) components.push(component.sort());
    }
  }
  for (const v of [...graph.keys()].sort()) if (!meta.has(v)) connect(v);

  /** One shortest cycle through `start` inside its component, as a path of files. */
  function cycleThrough(start, members) {
    const inside = new Set(members);
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift();
      for (const w of graph.get(v) ?? []) {
        if (!inside.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let at = v; at !== start; at = previous.get(at)) path.splice(1, 0, at);
          return [...path, start];
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  }

  for (const component of components) {
    problems.push(`import cycle among ${component.length} files (${component.join(', ')}), e.g. ${cycleThrough(component[0], component).join(' -> ')}`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const noAllow = args.includes('--no-allow');
  const problems = checkImports(resolve(args.find((a) => !a.startsWith('--')) ?? '.'), noAllow ? [] : ALLOWED, noAllow ? [] : KIND_IMPORTS);
  for (const line of problems) process.stderr.write(`${line}\n`);
  if (problems.length > 0) {
    process.stderr.write(`\n${problems.length} import problem(s): move the shared part to the file it belongs in, or pass a narrow interface in.\n`);
    process.exitCode = 1;
  }
}

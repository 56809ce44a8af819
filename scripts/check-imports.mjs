#!/usr/bin/env node
/**
 * The import rules of STYLE.md that eslint's built-in rules cannot hold (issue 11 §3), over every
 * import in src/: `import type`, re-exports and lazy `import()` too, since each is how one file
 * leans on another. No plugin: TypeScript's own pre-processor reads the import lines (no type-check).
 * - Layers: a folder never imports the ones above it (LAYERS).
 * - No import cycles: the strongly connected components of the import graph, each shown as a path.
 *
 * `node scripts/check-imports.mjs [root] [--no-allow]` exits 1 on a layer import or on a cycle left
 * after the allow-list (`--no-allow`: none allowed); an allow-list entry whose import is gone is an
 * error too, so the list can only shrink. `npm run lint` runs it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Imports allowed to close a cycle: each `[from, to]` is one import. Empty since each engine helper
 * got the narrow interface it needs (issue 11 §1); never add to it.
 */
export const ALLOWED = [];

/** `from` (a folder, or a file) never imports anything under `never`. */
const LAYERS = [
  { from: 'src/adapters/', never: ['src/runtime/', 'src/commands/', 'src/ui/', 'src/cli.ts', 'src/hot.ts'], why: 'adapters do I/O for the runtime; they never lean on it' },
  { from: 'src/core/', never: ['src/adapters/', 'src/runtime/', 'src/ui/', 'src/commands/', 'src/cli.ts'], why: 'src/core is pure' },
  { from: 'src/machine/', never: ['src/adapters/', 'src/runtime/', 'src/ui/', 'src/commands/', 'src/cli.ts'], why: 'the lane machine is pure' },
];

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
export function checkImports(root, allowed = ALLOWED) {
  const src = join(root, 'src');
  const rel = (path) => relative(root, path);
  const graph = new Map();
  for (const file of files(src)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set(info.importedFiles.map((f) => resolveImport(file, f.fileName)).filter((t) => t !== null).map(rel));
    graph.set(rel(file), targets);
  }

  const problems = [];
  for (const [from, targets] of graph) {
    for (const layer of LAYERS.filter((l) => from.startsWith(l.from))) {
      for (const to of targets) {
        if (layer.never.some((n) => to.startsWith(n))) problems.push(`${from} imports ${to}: ${layer.why} (${layer.from} never imports ${layer.never.join(', ')})`);
      }
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
  const problems = checkImports(resolve(args.find((a) => !a.startsWith('--')) ?? '.'), args.includes('--no-allow') ? [] : ALLOWED);
  for (const line of problems) process.stderr.write(`${line}\n`);
  if (problems.length > 0) {
    process.stderr.write(`\n${problems.length} import problem(s): move the shared part to the file it belongs in, or pass a narrow interface in.\n`);
    process.exitCode = 1;
  }
}

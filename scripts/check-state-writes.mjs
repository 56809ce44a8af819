#!/usr/bin/env node
/**
 * "No runtime file writes engine state" (issue 11 §1): the swarm's state is replaced only by the
 * engine's step (`this.state = next` in src/runtime/engine.ts), with what the one reducer
 * (core/swarm/reduce.ts) returned. Every other file under src/runtime/ reads it and dispatches
 * events. This fails on any of, outside engine.ts:
 * - an assignment to the state or into it: `x.state = …`, `state.lanes[n] = …`, `engine.state.epoch += 1`;
 * - a mutating call on it: `state.pending.push(…)` (push, pop, shift, unshift, splice, sort, reverse, fill);
 * - `Object.assign(…state…)` and `delete state.x`.
 * A line-level check over the source with comments and strings blanked: no type-check, no plugin.
 *
 * `node scripts/check-state-writes.mjs [root]` exits 1 with each write as file:line:col. `npm run lint` runs it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ALLOWED_FILES = new Set(['src/runtime/engine.ts']);

const PATH = String.raw`\bstate(?:\??\.[A-Za-z_$][\w$]*|\[[^\]]*\])*`;
const RULES = [
  { re: new RegExp(String.raw`\.state\s*(?:[-+*/%|&]|\?\?|\|\||&&)?=(?!=)`, 'g'), what: 'assigns the state' },
  { re: new RegExp(String.raw`${PATH}(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])\s*(?:[-+*/%|&]|\?\?|\|\||&&)?=(?!=)`, 'g'), what: 'assigns into the state' },
  { re: new RegExp(String.raw`(?:\+\+|--)\s*${PATH}\.|${PATH}(?:\.[\w$]+|\[[^\]]*\])\s*(?:\+\+|--)`, 'g'), what: 'increments into the state' },
  { re: new RegExp(String.raw`${PATH}\.(?:push|pop|shift|unshift|splice|sort|reverse|fill)\(`, 'g'), what: 'mutates the state in place' },
  { re: /Object\.assign\(\s*[^,)]*\bstate\b/g, what: 'Object.assign into the state' },
  { re: new RegExp(String.raw`\bdelete\s+[\w$.]*${PATH}`, 'g'), what: 'deletes from the state' },
];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The text with comments and string/template contents blanked (kept the same length, so columns hold). */
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** Every state write under `root`'s src/runtime/ outside engine.ts, as `file:line:col: what`. */
export function checkStateWrites(root) {
  const problems = [];
  const dir = join(root, 'src', 'runtime');
  for (const file of files(dir)) {
    const rel = relative(root, file);
    if (ALLOWED_FILES.has(rel)) continue;
    const lines = code(readFileSync(file, 'utf8')).split('\n');
    for (const [i, line] of lines.entries()) {
      for (const rule of RULES) {
        for (const m of line.matchAll(rule.re)) problems.push(`${rel}:${i + 1}:${m.index + 1}: ${rule.what} (${m[0].trim()})`);
      }
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkStateWrites(resolve(process.argv[2] ?? '.'));
  for (const line of problems) process.stderr.write(`${line}\n`);
  if (problems.length > 0) {
    process.stderr.write(`\n${problems.length} state write(s) outside src/runtime/engine.ts: dispatch an event and let core/swarm/reduce.ts decide.\n`);
    process.exitCode = 1;
  }
}

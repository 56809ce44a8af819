/**
 * One YAML document from a config file's text (swarm.yaml, a kind file), with positions. Pure.
 *
 * Decisions:
 * - A file holds one document: a second one (after `---`) is a problem at the line it starts on,
 *   not a pointer to a library function.
 * - Aliases are allowed, but one whose expansion would multiply the document (a "billion laughs")
 *   is refused, at the first alias, before anything expands it.
 */
import { isAlias, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { ConfigProblem } from './types.js';

/** How many alias expansions, weighted by the aliases inside what they expand, a file may make. */
export const MAX_ALIAS_EXPANSIONS = 100;

export type YamlResult = { ok: true; doc: Document; lines: LineCounter } | { ok: false; problems: ConfigProblem[] };

/** Parse `source` (no BOM) as one document; `what` names the file in messages ("a swarm.yaml", "a kind file"). */
export function parseYaml(source: string, what: string): YamlResult {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    return { ok: false, problems: doc.errors.map((e) => syntaxProblem(source, lines, e.code, e.message, e.pos[0], what)) };
  }
  try {
    doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    let first: number | undefined;
    visit(doc, { Alias: (_key, node) => { if (isAlias(node) && first === undefined) first = node.range?.[0]; } });
    const message = `too many YAML alias expansions (over ${MAX_ALIAS_EXPANSIONS}: aliases of aliases multiply, a "billion laughs"): write the values out, or use fewer aliases`;
    return { ok: false, problems: [{ ...lines.linePos(first ?? 0), message }] };
  }
  return { ok: true, doc: doc as Document, lines };
}

function syntaxProblem(source: string, lines: LineCounter, code: string, message: string, offset: number, what: string): ConfigProblem {
  const { line, col } = lines.linePos(offset);
  const key = /^[^:\n]*/.exec(source.slice(offset))?.[0].trim() ?? '';
  if (code === 'DUPLICATE_KEY' && key !== '') return { line, col, message: `duplicate key "${key.slice(0, 40)}": a key may appear once in a mapping; keep one` };
  if (code === 'MULTIPLE_DOCS') return { line, col, message: `a second YAML document starts here: ${what} is one document; remove this "---" and what follows, or merge it into the first` };
  return { line, col, message: `YAML syntax error: ${message.split('\n')[0] ?? ''}` };
}

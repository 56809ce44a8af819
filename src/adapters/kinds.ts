/**
 * Loading a kind: `panes/<kind>.yaml` beside swarm.yaml first, then among the shipped kinds
 * (SPEC 2), parsed by core/config/kindFile.ts and kept per file path for the life of the process.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatProblem } from '../core/config/config.js';
import { parseKind, type KindResult, type KindSpec } from '../core/config/kindFile.js';
import { ConfigError, UsageError } from '../errors.js';
import { readConfigText } from './configText.js';

const KIND_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const cache = new Map<string, KindSpec>();

/** The package's own `panes/` folder (the shipped kinds), from src/ and from dist/ alike. */
export function shippedPanesDir(): string {
  return fileURLToPath(new URL('../../panes/', import.meta.url)).replace(/[\\/]$/, '');
}

/** `panes/<kind>.yaml` beside the config first, then among the shipped kinds; null when neither. */
export function findKindFile(kind: string, configDir: string): string | null {
  if (!KIND_NAME.test(kind)) return null;
  for (const dir of [path.join(configDir, 'panes'), shippedPanesDir()]) {
    const file = path.join(dir, `${kind}.yaml`);
    if (statSync(file, { throwIfNoEntry: false }) !== undefined) return file;
  }
  return null;
}

/**
 * Read and parse the kind's file: null when there is none. Throws UsageError (exit 2) when it is
 * not a regular file, is over 1 MiB or cannot be read. A good kind is cached.
 */
export function readKind(kind: string, configDir: string, cwd = process.cwd()): { file: string; shown: string; result: KindResult } | null {
  const file = findKindFile(kind, configDir);
  if (file === null) return null;
  const shown = shownPath(file, cwd);
  const cached = cache.get(file);
  if (cached !== undefined) return { file, shown, result: { ok: true, kind: cached } };
  const result = parseKind(readConfigText(file, shown, 'a kind file', `cannot read ${shown} (ENOENT): it was removed`), kind);
  if (result.ok) cache.set(file, result.kind);
  return { file, shown, result };
}

/**
 * The kind named `kind`, for a swarm.yaml in `configDir`. Throws UsageError (exit 2) when no such
 * file exists or it cannot be read, and ConfigError (exit 2) with every problem as
 * `FILE:LINE:COL: message` when it is not a valid kind file.
 */
export function loadKind(kind: string, configDir: string): KindSpec {
  const found = readKind(kind, configDir);
  if (found === null) {
    throw new UsageError(`kind "${kind}" not found: no panes/${kind}.yaml beside swarm.yaml (${path.join(configDir, 'panes')}) nor among the shipped kinds (${shippedPanesDir()})`, {
      hint: `write panes/${kind}.yaml beside swarm.yaml, or use a shipped kind: claude, codex, gemini, sim, command`,
    });
  }
  if (!found.result.ok) throw new ConfigError(found.result.problems.map((p) => formatProblem(found.file, p)));
  return found.result.kind;
}

/** Forget every loaded kind (tests; a reload). */
export function clearKindCache(): void {
  cache.clear();
}

/** A kind file as messages show it: relative to `cwd` when inside it, else absolute. */
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

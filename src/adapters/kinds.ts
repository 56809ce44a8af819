/**
 * Loading a kind: `panes/<kind>.yaml` beside swarm.yaml first, then among the shipped kinds
 * (SPEC 2), parsed by core/kind.ts and kept per file path for the life of the process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatProblem } from '../core/config.js';
import { parseKind, type KindSpec } from '../core/kind.js';
import { ConfigError, UsageError } from '../errors.js';
import { findKindFile, shippedPanesDir } from './configFile.js';

const cache = new Map<string, KindSpec>();

/**
 * The kind named `kind`, for a swarm.yaml in `configDir`. Throws UsageError (exit 2) when no such
 * file exists or it cannot be read, and ConfigError (exit 2) with every problem as
 * `FILE:LINE:COL: message` when it is not a valid kind file.
 */
export function loadKind(kind: string, configDir: string): KindSpec {
  const file = findKindFile(kind, configDir);
  if (file === null) {
    throw new UsageError(`kind "${kind}" not found: no panes/${kind}.yaml beside swarm.yaml (${path.join(configDir, 'panes')}) nor among the shipped kinds (${shippedPanesDir()})`, {
      hint: `write panes/${kind}.yaml beside swarm.yaml, or use a shipped kind: claude, codex, gemini, sim, command`,
    });
  }
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  const result = parseKind(readKindText(file), kind);
  if (!result.ok) throw new ConfigError(result.problems.map((p) => formatProblem(file, p)));
  cache.set(file, result.kind);
  return result.kind;
}

/** Forget every loaded kind (tests; a reload). */
export function clearKindCache(): void {
  cache.clear();
}

function readKindText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`cannot read ${file} (${code}): check its permissions`, { cause: error });
  }
}

/**
 * Load swarm.yaml from disk: read the file, gather the facts the pure parser needs (which paths are
 * directories, which kinds exist) and turn its problems into a ConfigError.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig, formatProblem, type ConfigFacts, type SwarmConfig } from '../core/config.js';
import { ConfigError, UsageError } from '../errors.js';

const KIND_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The package's own `panes/` folder (the shipped kinds), from src/ and from dist/ alike. */
export function shippedPanesDir(): string {
  return fileURLToPath(new URL('../../panes/', import.meta.url)).replace(/[\\/]$/, '');
}

/** `panes/<kind>.yaml` beside the config first, then among the shipped kinds; null when neither. */
export function findKindFile(kind: string, configDir: string): string | null {
  if (!KIND_NAME.test(kind)) return null;
  for (const dir of [path.join(configDir, 'panes'), shippedPanesDir()]) {
    const file = path.join(dir, `${kind}.yaml`);
    if (isFile(file)) return file;
  }
  return null;
}

/** The absolute path `swarm.yaml` names: a folder means the swarm.yaml inside it. */
export function resolveConfigPath(fileAsGiven: string, cwd: string): string {
  const abs = path.resolve(cwd, fileAsGiven);
  return isDirectory(abs) ? path.join(abs, 'swarm.yaml') : abs;
}

/**
 * Read, parse and validate swarm.yaml. Throws UsageError (exit 2) when the file cannot be read and
 * ConfigError (exit 2) with every problem as `FILE:LINE:COL: message`, FILE as given.
 */
export function loadConfig(fileAsGiven: string, opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SwarmConfig {
  const env = opts.env ?? process.env;
  const abs = resolveConfigPath(fileAsGiven, opts.cwd ?? process.cwd());
  const text = readConfigText(fileAsGiven, abs);
  const dir = path.dirname(abs);
  const facts: ConfigFacts = {
    isDirectory,
    kindExists: (kind) => findKindFile(kind, dir) !== null,
    home: env['HOME'] ?? homedir(),
    env,
  };
  const result = parseConfig(text, abs, facts);
  if (!result.ok) throw new ConfigError(result.problems.map((p) => formatProblem(fileAsGiven, p)));
  return result.config;
}

function readConfigText(fileAsGiven: string, abs: string): string {
  if (!existsSync(abs)) {
    throw new UsageError(`swarm.yaml not found: ${fileAsGiven} — pass a file, or run in a folder that has one`);
  }
  try {
    return readFileSync(abs, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`cannot read ${fileAsGiven} (${code}): check its permissions`, { cause: error });
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

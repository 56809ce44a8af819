/**
 * Load swarm.yaml from disk: read the file, gather the facts the pure parser needs (which paths are
 * directories, which kinds exist), read and check every kind an account names, and turn all their
 * problems into one ConfigError — so nothing starts on a configuration that is not known good.
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseConfig, formatProblem, type ConfigFacts, type SwarmConfig } from '../core/config/config.js';
import { ConfigError } from '../errors.js';
import { readConfigText } from './configText.js';
import { readKind } from './kinds.js';

export { findKindFile, shippedPanesDir } from './kinds.js';

/** The absolute path `swarm.yaml` names: a folder means the swarm.yaml inside it. */
export function resolveConfigPath(fileAsGiven: string, cwd: string): string {
  const abs = path.resolve(cwd, fileAsGiven);
  return isDirectory(abs) ? path.join(abs, 'swarm.yaml') : abs;
}

/**
 * Read, parse and validate swarm.yaml and every kind file its accounts name. Throws UsageError
 * (exit 2) when a file cannot be read (missing, not a regular file, over 1 MiB) and ConfigError
 * (exit 2) with every problem as `FILE:LINE:COL: message`: swarm.yaml's first (FILE as given), then
 * each kind file's (relative to cwd when inside it).
 *
 * `checkKinds: false` is for the commands that start nothing (down, attach, logs, status, report…):
 * a kind file broken while a swarm runs must not keep the developer from stopping or reading it.
 * They still need each named kind to exist; its fields are `validate`'s and `up`'s to check.
 */
export function loadConfig(fileAsGiven: string, opts: { cwd?: string; env?: NodeJS.ProcessEnv; checkKinds?: boolean } = {}): SwarmConfig {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const abs = resolveConfigPath(fileAsGiven, cwd);
  const inFolder = abs !== path.resolve(cwd, fileAsGiven);
  const missing = inFolder ? `no swarm.yaml in the folder ${fileAsGiven} (looked for ${abs}) — pass the file itself, or a folder that has one` : `swarm.yaml not found: ${fileAsGiven} — pass a file, or run in a folder that has one`;
  const text = readConfigText(abs, fileAsGiven, 'a swarm.yaml', missing);
  const dir = path.dirname(abs);
  const kindProblems = new Map<string, string[]>();
  const facts: ConfigFacts = {
    isDirectory,
    realPath,
    kindExists: (kind) => {
      const found = readKind(kind, dir, cwd);
      if (found !== null && !found.result.ok && opts.checkKinds !== false) kindProblems.set(found.file, found.result.problems.map((p) => formatProblem(found.shown, p)));
      return found !== null;
    },
    kindLaunches: (kind) => {
      const found = readKind(kind, dir, cwd);
      return found?.result.ok === true ? found.result.kind.launch !== null : undefined;
    },
    home: env['HOME'] ?? homedir(),
    env,
  };
  const result = parseConfig(text, abs, facts);
  const problems = [...(result.ok ? [] : result.problems.map((p) => formatProblem(fileAsGiven, p))), ...[...kindProblems.values()].flat()];
  if (!result.ok || problems.length > 0) throw new ConfigError(problems);
  return result.config;
}

/** The path with every symlink followed; the path itself when it does not resolve. */
export function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

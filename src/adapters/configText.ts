/**
 * Reading a config file's text (swarm.yaml, a kind file) safely: only a regular file, only up to
 * MAX_CONFIG_BYTES, checked before it is opened, so a FIFO cannot hang swarm and a huge file is not
 * read into memory. Errors are UsageErrors (exit 2) that say what to do.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { UsageError } from '../errors.js';

/** 1 MiB: far more than any swarm.yaml or kind file (the shipped ones are a few KB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of `abs`, shown in messages as `shown`; `what` names the file ("a swarm.yaml").
 * `missing` is the message when there is no such file.
 */
export function readConfigText(abs: string, shown: string, what: string, missing: string): string {
  let stats: Stats;
  try {
    stats = statSync(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(missing);
    throw unreadable(shown, error);
  }
  if (!stats.isFile()) throw new UsageError(`${shown} is not a regular file (${typeOf(stats)}): ${what} must be a plain file`);
  if (stats.size > MAX_CONFIG_BYTES) {
    throw new UsageError(`${shown} is ${stats.size} bytes, over the ${MAX_CONFIG_BYTES} (1 MiB) ${what} may have: is it the right file?`);
  }
  try {
    return readFileSync(abs, 'utf8');
  } catch (error) {
    throw unreadable(shown, error);
  }
}

function unreadable(shown: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new UsageError(`cannot read ${shown} (${code}): check its permissions`, { cause: error });
}

function typeOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a directory';
  return 'not a plain file';
}

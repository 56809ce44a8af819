/**
 * Typed errors. Each carries the exit code of SPEC section 8 and, where there is one, a hint that
 * says what to do. Only src/cli.ts prints them and exits.
 */
export type ExitCode = 0 | 1 | 2 | 3 | 4 | 5;

export class SwarmError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: ExitCode; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint;
  }
}

/** Bad input: usage, flags, environment values, configuration. Exit 2. */
export class UsageError extends SwarmError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...options, exitCode: 2 });
  }
}

/** A config file with problems; each is already `FILE:LINE:COL: message`. Exit 2. */
export class ConfigError extends SwarmError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'), { exitCode: 2 });
    this.problems = problems;
  }
}

/** A packet or record that does not match (packet checks, lead fencing, lock held). Exit 3. */
export class MismatchError extends SwarmError {
  readonly reasons: readonly string[];

  constructor(message: string, reasons: readonly string[] = [], options: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...options, exitCode: 3 });
    this.reasons = reasons;
  }
}

/** A missing dependency (tmux, node-pty, git), with the fix in the hint. Exit 4. */
export class DependencyError extends SwarmError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { ...options, exitCode: 4 });
  }
}

/** The plan's own files cannot be written or read (unwritable folder, full disk, immutable file). Exit 5. */
export class PlanFilesError extends SwarmError {
  readonly path: string | null;

  constructor(message: string, options: { path?: string | null; hint?: string; cause?: unknown } = {}) {
    super(message, { ...options, exitCode: 5 });
    this.path = options.path ?? null;
  }
}

/** What to do about each errno that means "the file system refused" (not a bug of swarm's). */
const FAULTS: Record<string, string> = {
  EACCES: 'make it writable (check its and its folder\'s owner and mode with `ls -ld`)',
  EPERM: 'make it writable: it or its folder may be immutable (`lsattr -d PATH`, then `chattr -i PATH`) or not yours',
  EROFS: 'the file system is read-only: remount it read-write or move the plan to a writable disk',
  ENOSPC: 'the disk is full: free some space on it (`df -h PATH`)',
  EDQUOT: 'your disk quota is used up: free some space',
  EIO: 'the disk reported an I/O error: check it (`dmesg`)',
};

/** A file system error as a PlanFilesError with the path and what to do, or null when it is no such fault. */
export function planFilesFault(error: unknown, doing = 'write'): PlanFilesError | null {
  if (error instanceof PlanFilesError) return error;
  const e = error as NodeJS.ErrnoException | null;
  const what = e instanceof Error && typeof e.code === 'string' ? FAULTS[e.code] : undefined;
  if (what === undefined || !e) return null;
  const path = typeof e.path === 'string' ? e.path : null;
  const where = path ?? 'a file of the plan';
  return new PlanFilesError(`cannot ${doing} ${where}: ${e.code} (${e.message.replace(/^\w+: /, '').replace(/, \w+ '.*'$/, '')})`, {
    path,
    hint: `${what.replace(/PATH/g, path ?? 'the plan folder')}, then run the command again`,
    cause: error,
  });
}

/** Cut a received value to a length that fits in one line of an error message. */
export function excerpt(value: string, max = 80): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * node-pty, loaded only when the pty backend is chosen (gemini-cli's getPty): it is a native
 * module, and `swarm notify` must start as fast as plain Node.
 */
import type { IPty, IPtyForkOptions } from 'node-pty';
import { DependencyError } from '../../errors.js';

/** The one function of node-pty the host uses. */
export interface PtyModule {
  spawn(file: string, args: string[], options: IPtyForkOptions): IPty;
}

export const PTY_NOT_BUILT =
  'node-pty is not built — run `npm rebuild node-pty` (needs python3, make, g++), or install tmux and set backend: tmux';

let cached: Promise<PtyModule> | undefined;

/**
 * Load node-pty once. A module that fails to load (not built, built for another Node) becomes a
 * DependencyError (exit 4) that says how to fix it, with the loader's error kept as the cause.
 * `importer` replaces the real import (tests); it is not cached.
 */
export function loadPty(importer?: () => Promise<unknown>): Promise<PtyModule> {
  if (importer !== undefined) return resolvePty(importer);
  cached ??= resolvePty(() => import('node-pty')).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function resolvePty(importer: () => Promise<unknown>): Promise<PtyModule> {
  try {
    const mod = (await importer()) as Partial<PtyModule> & { default?: Partial<PtyModule> };
    const spawn = mod.spawn ?? mod.default?.spawn;
    if (typeof spawn !== 'function') throw new TypeError('node-pty exports no spawn()');
    return { spawn };
  } catch (cause) {
    throw new DependencyError(PTY_NOT_BUILT, { cause });
  }
}

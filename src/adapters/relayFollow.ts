/**
 * The host's half of the relay following its agents' files (core/host/relayPaths.ts `followed`):
 * new bytes of each append-only file beyond what the engine's copy holds, and each whole file when
 * its content differs from the copy's. Told by a watch on each followed folder (inotify, so a record
 * reaches the engine within milliseconds), with a look at everything every few seconds besides, as a
 * watch can miss (a full queue, a folder made and written before its watch began; see
 * adapters/spoolWatch.ts). One look at a time, each frame sent before the next file is read, so a
 * slow connection holds the reading back rather than filling memory.
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import { chunksOf, MAX_CHUNK, MAX_WHOLE, type ToEngine } from '../core/host/relay.js';
import { followed, followedDir } from '../core/host/relayPaths.js';
import { digestOf, type PlanTree } from './planTree.js';

const LOOK_MS = 2000;
/** Watches beyond this many folders are left to the look (an agent could make folders without end). */
const MAX_WATCHES = 2048;

export interface Follower {
  /** The engine's copy of `path` ends at `from`: send from there. */
  resend(path: string, from: number): void;
  /** The engine wrote `path` (a push): its content is known there. */
  wrote(path: string, data: Uint8Array, mode: number): void;
  close(): void;
}

interface FollowOptions {
  tree: PlanTree;
  host: string;
  /** What the engine's copy holds: sizes of the appended files, digests of the whole ones (the engine's `have`). */
  sizes: ReadonlyMap<string, number>;
  digests: ReadonlyMap<string, string>;
  /** Resolves once the frame is on its way (the output drained). */
  send: (frame: ToEngine) => Promise<void>;
}

export function followPlan(options: FollowOptions): Follower {
  const { tree, host, send } = options;
  const sent = new Map(options.sizes);
  const known = new Map(options.digests);
  /** Each whole file's facts when last read, so an unchanged file is not read again. */
  const seen = new Map<string, string>();
  const watchers = new Map<string, FSWatcher>();
  /** Folders to look at, `true` when everything below them is looked at too. */
  const queue = new Map<string, boolean>();
  let running = false;
  let closed = false;

  const schedule = (dir: string, deep: boolean): void => {
    queue.set(dir, deep || queue.get(dir) === true);
    if (!running) void run();
  };

  const run = async (): Promise<void> => {
    running = true;
    try {
      for (let next = queue.entries().next(); !next.done && !closed; next = queue.entries().next()) {
        const [dir, deep] = next.value;
        queue.delete(dir);
        await look(dir, deep);
      }
    } finally {
      running = false;
    }
  };

  /** A folder was made, or this look is everywhere: watch it (when not yet watched); true when newly watched. */
  const watchDir = (dir: string): boolean => {
    if (watchers.has(dir) || watchers.size >= MAX_WATCHES) return false;
    try {
      const watcher = watch(join(tree.root, dir), () => schedule(dir, false));
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(dir);
      });
      watchers.set(dir, watcher);
      return true;
    } catch {
      return false; // gone already, or the watch limit reached: the look finds what it holds
    }
  };

  const look = async (dir: string, deep: boolean): Promise<void> => {
    for (const entry of tree.list(dir)) {
      if (closed) return;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.kind === 'dir') {
        if (followedDir(path, host) && (watchDir(path) || deep)) await look(path, deep);
        continue;
      }
      const how = followed(path, host);
      if (how === 'append') await appended(path);
      else if (how === 'whole') await whole(path);
    }
  };

  const appended = async (path: string): Promise<void> => {
    const size = tree.file(path)?.size ?? 0;
    // A file shorter than what was sent was replaced, not appended to: an append-only file never is; left alone.
    for (let at = sent.get(path) ?? 0; at < size && !closed;) {
      const data = tree.read(path, at, Math.min(MAX_CHUNK, size - at));
      if (data === null || data.length === 0) return;
      await send({ t: 'append', path, at, data });
      at += data.length;
      sent.set(path, at);
    }
  };

  const whole = async (path: string): Promise<void> => {
    const facts = tree.file(path);
    if (facts === null || seen.get(path) === facts.sig) return;
    const file = tree.readWhole(path, MAX_WHOLE);
    if (file === null) return;
    seen.set(path, facts.sig);
    const digest = digestOf(file.data, file.mode);
    if (known.get(path) === digest) return;
    known.set(path, digest);
    for (const piece of chunksOf(file.data)) {
      if (closed) return;
      await send({ t: 'file', path, ...piece, mode: file.mode });
    }
  };

  watchDir('');
  schedule('', true);
  const timer = setInterval(() => schedule('', true), LOOK_MS);
  timer.unref();

  return {
    resend: (path, from) => {
      if (followed(path, host) !== 'append') return;
      sent.set(path, from);
      schedule(dirname(path) === '.' ? '' : dirname(path), false);
    },
    wrote: (path, data, mode) => {
      if (followed(path, host) === 'whole') known.set(path, digestOf(data, mode));
    },
    close: () => {
      closed = true;
      clearInterval(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/**
 * Tells when any agent's spool of a run, or the developer's answers folder, may have new records: one
 * watch on the run's spool folder (new agents), one on each agent's spool, one on the answers folder.
 * A look every few seconds besides, as inotify can drop events (a full queue, a folder made and
 * written before its watch began). Reads nothing itself: `changed` (look at everything) and
 * `spoolChanged` (one agent's spool changed) are the reader's to act on.
 */
import { mkdirSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { planPaths } from '../core/plan/paths.js';
import { USAGE_DIR } from './spool.js';

const LOOK_MS = 2000;

export function watchSpools(plan: string, run: number, changed: () => void, spoolChanged: (spool: string) => void = changed): { close: () => void } {
  const paths = planPaths(plan);
  const runDir = join(paths.spoolDir, `r${run}`);
  mkdirSync(runDir, { recursive: true });
  mkdirSync(paths.answersDir, { recursive: true });
  const watchers = new Map<string, FSWatcher>();
  /** `spool`: the agent's spool the folder is (`r<run>/<name>`), told alone when it changes; none for the answers folder. */
  const follow = (dir: string, spool?: string) => {
    if (watchers.has(dir)) return;
    try {
      // An agent's usage folder is looked at on its own (runtime/usageLook.ts): its making wakes nobody here.
      const watcher = watch(dir, (_event, name) => {
        if (name === USAGE_DIR) return;
        if (spool === undefined) changed();
        else spoolChanged(spool);
      });
      watcher.on('error', () => watchers.delete(dir));
      watchers.set(dir, watcher);
    } catch {
      // gone already, or the watch limit reached: the look below still finds its records
    }
  };
  const agents = () => {
    try {
      for (const name of readdirSync(runDir)) follow(join(runDir, name), `r${run}/${name}`);
    } catch {
      // the folder removed under us: the next look makes nothing, records there are lost to nobody
    }
  };
  const runWatcher = watch(runDir, () => {
    agents();
    changed();
  });
  follow(paths.answersDir);
  agents();
  const timer = setInterval(() => {
    agents();
    changed();
  }, LOOK_MS);
  timer.unref();
  return {
    close: () => {
      clearInterval(timer);
      runWatcher.close();
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

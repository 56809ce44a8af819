/**
 * Another host's copy of the plan's files its agents read (SPEC 10.9, core/host/pushed.ts), kept
 * current through the host's relay: a sync scans the pushed roots here and copies to the host what
 * changed since the last copy.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PUSHED_ROOTS, isPushed } from '../../core/host/pushed.js';
import type { HostRelay } from '../hostRelay.js';

/** Where the copies go: the host's relay while it is connected, else null (nothing is copied). */
type RelayNow = () => Pick<HostRelay, 'facts' | 'push'> | null;

export class PlanSync {
  /** What was copied to the host, by plan-relative path: `size:mtime`, so a sync copies what changed. */
  private readonly pushed = new Map<string, string>();
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    /** The plan folder: the same absolute path on the host. */
    private readonly plan: string,
    private readonly relay: RelayNow,
  ) {}

  /** Copy what changed since the last copy. One at a time: a sync asked while one runs follows it. */
  sync(): Promise<void> {
    const next = this.syncing.then(() => this.syncNow());
    this.syncing = next.catch(() => undefined);
    return next;
  }

  /** A new relay may be a host that lost its files: everything is copied again. */
  forget(): void {
    this.pushed.clear();
  }

  private async syncNow(): Promise<void> {
    const relay = this.relay();
    if (relay === null || relay.facts.shared) return;
    const plan = this.plan;
    const files: { path: string; data: Buffer; mode: number; sig: string }[] = [];
    const visit = (path: string): void => {
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        return;
      }
      if (stat.isDirectory()) {
        for (const name of readdirSync(path)) visit(join(path, name));
        return;
      }
      if (!stat.isFile()) return; // a link is never followed: only the engine's own files travel
      const rel = relative(plan, path);
      if (!isPushed(rel) || rel.endsWith('.tmp')) return; // an agent's packet came from there; a writer's temporary file is not done
      const sig = `${stat.size}:${stat.mtimeMs}`;
      if (this.pushed.get(rel) === sig) return;
      try {
        files.push({ path: rel, data: readFileSync(path), mode: stat.mode & 0o777, sig });
      } catch {
        // gone meanwhile: the next sync sees it or not
      }
    };
    for (const root of PUSHED_ROOTS) visit(join(plan, root));
    if (files.length === 0) return;
    await relay.push(files.map(({ path, data, mode }) => ({ path, data, mode })));
    for (const file of files) this.pushed.set(file.path, file.sig);
  }
}

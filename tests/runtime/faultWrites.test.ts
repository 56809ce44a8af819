/**
 * Fault matrix, column W (docs/reliability.md §1): at each moment the plan's files refuse writes,
 * then take them again: the journal and the state file made immutable (`chattr +i`: we run as root,
 * so a chmod would not refuse), or the plan folder's file system full (a 1 MiB tmpfs mounted on it,
 * filled up). The refusal is told once, nothing recorded is lost, and the plan finishes. A variant
 * skips itself only where the machine refuses it (no chattr, no mount).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statfsSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chattr, immutableFiles } from '../helpers/chattr.js';
import { MOMENTS } from '../helpers/faultMoments.js';
import { invariants, runCell, type Fault, type Run } from '../helpers/faultRun.js';
import { waitFor } from '../helpers/waitFor.js';

let run: Run | null = null;
const mounted: string[] = [];
afterEach(async () => {
  if (run) for (const f of refusing(run)) chattr('-i', f);
  for (const dir of mounted.splice(0)) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  await run?.t.cleanup();
  run = null;
});

const refusing = (r: Run) => [join(r.t.plan, 'journal.jsonl'), join(r.t.plan, '.swarm', 'state.json')];
const told = (r: Run) => r.stores.flatMap((s) => s.getState().events).filter((e) => e.event === 'plan_files_fault');
/** An agent's command refused with exit 5 (what it printed says so; it tries again). */
const agentsTold = (r: Run) => r.hosts.flatMap((h) => [...h.panes.values(), ...h.closed].flatMap((p) => p.out.filter((l) => /cannot (write|create)|disk is full|immutable/.test(l))));
/** The refusal was met: by the engine (told in its log), or by an agent's command (exit 5). */
const felt = (r: Run) => told(r).length > 0 || agentsTold(r).length > 0;

/** Refuse writes now; once the refusal is told (and 300 ms more of retries), take them again. */
const episode = (refuse: (r: Run) => void, allow: (r: Run) => void) => (r: Run) => {
  refuse(r);
  r.later.push((async () => {
    await waitFor(() => felt(r), { what: 'the refusal met', timeout: 5000 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    allow(r);
  })());
};

const immutable: Fault = {
  name: 'the journal and the state file immutable',
  restart: 'carried',
  strike: episode((r) => { for (const f of refusing(r)) chattr('+i', f); }, (r) => { for (const f of refusing(r)) chattr('-i', f); }),
};

function mountTiny(r: Run): void {
  const plan = readFileSync(join(r.t.plan, 'PLAN.md'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', r.t.plan], { stdio: 'ignore' });
  mounted.push(r.t.plan);
  writeFileSync(join(r.t.plan, 'PLAN.md'), plan);
}
// In .swarm/ (ignored by git): a file in the checkout would change the packets' git facts.
const filler = (r: Run) => join(r.t.plan, '.swarm', 'filler');
const fullDisk: Fault = {
  name: 'a full disk',
  restart: 'carried',
  prepare: mountTiny,
  strike: episode((r) => {
    const { bavail, bsize } = statfsSync(r.t.plan);
    writeFileSync(filler(r), Buffer.alloc(Math.max(0, Number(bavail) * Number(bsize) - 4096)));
    for (;;) {
      try {
        appendFileSync(filler(r), Buffer.alloc(512));
      } catch {
        break; // ENOSPC: full
      }
    }
  }, (r) => rmSync(filler(r), { force: true })),
};

function canMount(): boolean {
  const dir = join(process.cwd(), `.mount-probe-${process.pid}`);
  try {
    execFileSync('mkdir', ['-p', dir]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ROWS: (keyof typeof MOMENTS)[] = ['working', 'near', 'writing', 'reported', 'spawning', 'unaccepted', 'accepted', 'gate', 'ask', 'handover', 'release'];

const MOUNT = canMount();

describe('fault matrix W × release, on a full disk', () => {
  // Found by this matrix (fixed): the release deadline passed while the disk was full; releasing the
  // lead record (lead.json) threw ENOSPC outside the refused-writes path, and the run never ended. Every
  // effect, release_plan too, is now carried out through engine.writes.persistently (one reducer).
  it.skipIf(!MOUNT)('release: the run ends (plan done, or exit 5 saying so), never hangs', async () => {
    const r = (run = await runCell(MOMENTS.release!, fullDisk));
    expect(r.outcomes[0]!.why).not.toMatch(/^HUNG/);
    expect(r.t.events('engine_error')).toEqual([]);
  }, 60_000);
});

describe.each<{ name: string; fault: Fault; possible: boolean; rows: (keyof typeof MOMENTS)[] }>([
  { name: immutable.name, fault: immutable, possible: immutableFiles(), rows: ROWS },
  { name: fullDisk.name, fault: fullDisk, possible: MOUNT, rows: ROWS.filter((m) => m !== 'release') },
])('fault matrix W: $name', ({ fault, possible, rows }) => {
  it.skipIf(!possible).each(rows)('%s: told once, nothing lost, the plan finishes once writable again', async (moment) => {
    const r = (run = await runCell(MOMENTS[moment]!, fault));
    if (process.env.FAULT_DEBUG) console.log(r.t.journal().map((e) => `${String(e.event)} ${String(e.lane)} ${String(e.why ?? e.reason ?? e.packet ?? e.error ?? '')}`).join('\n'), r.outcomes);
    // The release deadline passing while the files refuse is carried out once they take writes again:
    // the plan is done in the same run, like every other row (before: exit 5, and up again released it).
    if (process.env.FAULT_DEBUG) console.log(JSON.stringify(told(r)), JSON.stringify(r.hosts.map((h) => [...h.panes.values()].map((p) => [p.info.lane, p.info.generation, p.step, p.out.join(' | ').slice(0, 600)]))));
    expect(r.outcomes).toMatchObject([{ code: 0, why: 'plan done' }]);
    invariants(r, `${moment} × ${fault.name}`);
    // Told once to the log by the engine when it had something to write meanwhile, and to each agent
    // whose own command was refused (exit 5) — at least one of them met the refusal.
    expect(felt(r), 'the refusal was met').toBe(true);
    expect(told(r).length, 'told once').toBeLessThanOrEqual(1);
    expect(r.t.events('plan_files_recovered'), 'recorded once written again').toHaveLength(told(r).length);
    expect(r.t.events('plan_done')).toHaveLength(1);
  }, 60_000);
});

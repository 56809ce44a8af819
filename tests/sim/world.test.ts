/**
 * The simulated agent's hands on a disk that refuses writes: the account's state (its vendor's side,
 * not the user's disk) is kept in memory meanwhile and the agent works on, as a real agent would.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { simAccountFile } from '../../src/sim/files.js';
import { simModel } from '../../src/sim/model.js';
import { World } from '../../src/sim/world.js';
import { chattr, immutableFiles } from '../helpers/chattr.js';

let dir: string | null = null;
let locked: string | null = null;
afterEach(() => {
  if (locked) chattr('-i', locked);
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = locked = null;
});

describe.skipIf(!immutableFiles())('World.saveAccount on a plan that refuses writes', () => {
  it('keeps the state in memory, says so once, and writes it once the disk takes writes again', () => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-sim-world-'));
    const ctx = { plan: dir, lane: 'lane-a', role: 'lane' as const, account: 'a1', generation: 1, epoch: 1, run: 1, spool: 'r1/lane-a-g1', config: null, kind: 'sim', mailbox: null, packet: null };
    const lines: string[] = [];
    const world = new World(ctx, dir, {}, simModel({}), (text) => lines.push(text), null);
    const file = simAccountFile(dir, 'a1', 1);
    mkdirSync(dirname(file), { recursive: true });
    locked = dirname(file);
    expect(chattr('+i', locked)).toBe(true);

    const first = { ...world.readAccount(), remaining_pct: 40 };
    expect(() => world.saveAccount(first)).not.toThrow();
    world.saveAccount({ ...first, remaining_pct: 36 });
    expect(world.readAccount().remaining_pct).toBe(36);
    expect(lines.join('').match(/kept in memory/g)).toHaveLength(1);

    chattr('-i', locked);
    locked = null;
    world.saveAccount({ ...first, remaining_pct: 32 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ remaining_pct: 32 });
    expect(world.readAccount().remaining_pct).toBe(32);
  });
});

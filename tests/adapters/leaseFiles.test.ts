import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLease, readLeases, type LeaseStore } from '../../src/adapters/leaseFiles.js';
import { leaseFileOfKey } from '../../src/core/accounts/leaseKey.js';

const dirs: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-leases-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(dir: string, name: string, keys: [string, string][]): LeaseStore {
  return { dir, plan: join(temp(), name), config: `/x/${name}/swarm.yaml`, keys: new Map(keys) };
}

describe('readLeases', () => {
  it("reads this swarm's accounts' leases only, among any number of other swarms' in the machine's folder", () => {
    const dir = temp();
    const mine = store(dir, 'mine', [['a1', 'key-a1'], ['a2', 'key-a2']]);
    for (let i = 0; i < 200; i += 1) {
      const other = store(dir, `other${i}`, [[`b${i}`, `key-b${i}`]]);
      expect(acquireLease(other, { account: `b${i}`, lane: 'lane-x', generation: 1 })).toBe(true);
    }
    expect(acquireLease(mine, { account: 'a2', lane: 'lane-a', generation: 3 })).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith('.json'))).toHaveLength(201);
    expect(readLeases(mine)).toMatchObject([{ account: 'a2', lane: 'lane-a', generation: 3, plan: mine.plan, key: 'key-a2' }]);
  });

  it('gives two ids on one key a lease each', () => {
    const dir = temp();
    const mine = store(dir, 'mine', [['a1', 'shared'], ['a1-again', 'shared']]);
    expect(acquireLease(mine, { account: 'a1', lane: 'lane-a', generation: 1 })).toBe(true);
    expect(readLeases(mine).map((l) => l.account)).toEqual(['a1', 'a1-again']);
  });

  it('skips a torn file, an empty one, and one whose text names another key than its name', () => {
    const dir = temp();
    const mine = store(dir, 'mine', [['a1', 'key-a1'], ['a2', 'key-a2'], ['a3', 'key-a3']]);
    expect(acquireLease(mine, { account: 'a1', lane: 'lane-a', generation: 1 })).toBe(true);
    const text = readFileSync(join(dir, leaseFileOfKey('key-a1')), 'utf8');
    writeFileSync(join(dir, leaseFileOfKey('key-a2')), text.slice(0, 20));
    writeFileSync(join(dir, leaseFileOfKey('key-a3')), text); // key-a1's lease under key-a3's name
    expect(readLeases(mine).map((l) => l.account)).toEqual(['a1']);
    writeFileSync(join(dir, leaseFileOfKey('key-a1')), '');
    expect(readLeases(mine)).toEqual([]);
  });

  it('is empty when the folder does not exist yet', () => {
    expect(readLeases(store(join(temp(), 'none'), 'mine', [['a1', 'key-a1']]))).toEqual([]);
  });
});

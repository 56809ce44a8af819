import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/waitFor.js';
import { liveHolder, pidAlive, readHolder, tryLock, withLock, type LockHolder } from '../../src/adapters/lock.js';
import { readStat } from '../../src/adapters/procStatFile.js';

let dir: string;
let lockPath: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swarm-lock-'));
  lockPath = join(dir, 'plan.lock');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  expect(child.status).toBe(0);
  expect(pidAlive(child.pid)).toBe(false);
  return child.pid;
}

const holderFile = (holder: Partial<LockHolder> & Record<string, unknown>): void => writeFileSync(lockPath, JSON.stringify(holder));
const me = (purpose: string): Omit<LockHolder, 'since'> => ({ pid: process.pid, startTicks: readStat(process.pid)!.startTicks, host: hostname(), purpose });

describe('pidAlive', () => {
  it.each<[string, () => number, boolean]>([
    ['this process', () => process.pid, true],
    ['a process that exited', deadPid, false],
  ])('%s', (_name, pid, alive) => {
    expect(pidAlive(pid())).toBe(alive);
  });
});

describe('readHolder', () => {
  it.each<[string, string | null, LockHolder | null]>([
    ['no file', null, null],
    ['empty file', '', null],
    ['not JSON', 'pid 12', null],
    ['pid not a number', '{"pid":"12","host":"h"}', null],
    ['no host', '{"pid":12}', null],
    ['a full holder', '{"pid":12,"host":"h","since":"2025-01-01T00:00:00.000Z","purpose":"swarm up demo"}',
      { pid: 12, startTicks: null, host: 'h', since: '2025-01-01T00:00:00.000Z', purpose: 'swarm up demo' }],
    ['only pid and host', '{"pid":12,"host":"h"}', { pid: 12, startTicks: null, host: 'h', since: '', purpose: '' }],
    ['with its start time', '{"pid":12,"startTicks":345,"host":"h"}', { pid: 12, startTicks: 345, host: 'h', since: '', purpose: '' }],
    ['a start time not a number', '{"pid":12,"startTicks":"345","host":"h"}', { pid: 12, startTicks: null, host: 'h', since: '', purpose: '' }],
  ])('%s', (_name, text, expected) => {
    if (text !== null) writeFileSync(lockPath, text);
    expect(readHolder(lockPath)).toEqual(expected);
  });
});

describe('tryLock', () => {
  it('acquires a free lock and writes its holder (pid, host, since, purpose)', () => {
    const result = tryLock(lockPath, 'swarm up demo');
    expect(result.ok).toBe(true);
    const holder = readHolder(lockPath);
    expect(holder).toMatchObject(me('swarm up demo'));
    expect(new Date(holder!.since).toISOString()).toBe(holder!.since);
  });

  it('creates missing folders', () => {
    const nested = join(dir, 'plans', 'demo', '.swarm', 'up.lock');
    expect(tryLock(nested, 'x').ok).toBe(true);
    expect(readHolder(nested)).toMatchObject(me('x'));
  });

  it('fails a second time naming the holder, and leaves the lock alone', () => {
    const first = tryLock(lockPath, 'swarm up demo');
    const before = readFileSync(lockPath, 'utf8');
    const second = tryLock(lockPath, 'another');
    expect(first.ok).toBe(true);
    expect(second).toEqual({ ok: false, holder: { ...me('swarm up demo'), since: JSON.parse(before).since } });
    expect(readFileSync(lockPath, 'utf8')).toBe(before);
  });

  it('release removes the lock, and it can be taken again', () => {
    const first = tryLock(lockPath, 'one');
    if (!first.ok) throw new Error('expected the lock');
    first.release();
    expect(existsSync(lockPath)).toBe(false);
    first.release(); // twice is harmless
    const again = tryLock(lockPath, 'two');
    expect(again.ok).toBe(true);
    expect(readHolder(lockPath)?.purpose).toBe('two');
  });

  it('release leaves a lock that is no longer ours', () => {
    const first = tryLock(lockPath, 'one');
    if (!first.ok) throw new Error('expected the lock');
    const other = { pid: process.ppid, startTicks: null, host: hostname(), since: 'then', purpose: 'other' };
    holderFile(other);
    first.release();
    expect(readHolder(lockPath)).toEqual(other);
  });

  it('takes over the lock of a dead pid on this host', () => {
    const pid = deadPid();
    holderFile({ pid, host: hostname(), since: '2025-01-01T00:00:00.000Z', purpose: 'swarm up demo' });
    const result = tryLock(lockPath, 'swarm up demo');
    expect(result.ok).toBe(true);
    expect(readHolder(lockPath)).toMatchObject(me('swarm up demo'));
    expect(readdirSync(dir)).toEqual(['plan.lock']); // nothing left aside
  });

  it.each<[string, () => Partial<LockHolder> & Record<string, unknown>]>([
    ['a live pid on this host', () => ({ pid: process.ppid, startTicks: null, host: hostname(), since: 's', purpose: 'p' })],
    ['a live process on this host, its start time recorded', () => ({ pid: process.ppid, startTicks: readStat(process.ppid)!.startTicks, host: hostname(), since: 's', purpose: 'p' })],
    ['a dead pid on another host', () => ({ pid: deadPid(), startTicks: null, host: `not-${hostname()}`, since: 's', purpose: 'p' })],
  ])('does not take over %s', (_name, make) => {
    const holder = make();
    holderFile(holder);
    expect(tryLock(lockPath, 'x')).toEqual({ ok: false, holder });
    expect(readHolder(lockPath)).toEqual(holder);
  });

  // The lock names a process, not a pid: a pid now used by another process is a dead holder.
  it('takes over the lock of a pid now used by another process (another start time), and never names that process a live holder', async () => {
    const stranger = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const pid = stranger.pid!;
      const startTicks = await waitFor(() => readStat(pid)?.startTicks, { what: 'the stranger in /proc' });
      holderFile({ pid, startTicks: startTicks - 1, host: hostname(), since: '2025-01-01T00:00:00.000Z', purpose: 'swarm up demo' });
      expect(liveHolder(lockPath)).toBeNull();
      expect(tryLock(lockPath, 'swarm up demo').ok).toBe(true);
      expect(readHolder(lockPath)).toMatchObject(me('swarm up demo'));
      expect(pidAlive(pid)).toBe(true); // nothing was signalled
      holderFile({ pid, startTicks, host: hostname(), since: 's', purpose: 'p' });
      expect(liveHolder(lockPath)).toMatchObject({ pid, startTicks });
      expect(tryLock(lockPath, 'x').ok).toBe(false);
    } finally {
      stranger.kill('SIGKILL');
    }
  });

  it('fails naming no holder when the lock file cannot be read as one', () => {
    writeFileSync(lockPath, 'garbage');
    expect(tryLock(lockPath, 'x')).toEqual({ ok: false, holder: null });
    expect(readFileSync(lockPath, 'utf8')).toBe('garbage');
  });
});

describe('withLock', () => {
  it('runs the function holding the lock, returns its value and releases', () => {
    const seen = withLock(lockPath, 'lead record', () => readHolder(lockPath));
    expect(seen).toMatchObject(me('lead record'));
    expect(existsSync(lockPath)).toBe(false);
  });

  it('releases when the function throws', () => {
    expect(() => withLock(lockPath, 'x', () => {
      throw new Error('boom');
    })).toThrow('boom');
    expect(existsSync(lockPath)).toBe(false);
  });

  it('waits for a live holder to finish', async () => {
    // Another process holds the lock for a moment, then lets go.
    const script = `
      const fs = require('node:fs'); const os = require('node:os');
      fs.writeFileSync(${JSON.stringify(lockPath)}, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString(), purpose: 'child' }), { flag: 'wx' });
      process.stdout.write('locked\\n');
      setTimeout(() => fs.unlinkSync(${JSON.stringify(lockPath)}), 400);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (data: Buffer) => (String(data).includes('locked') ? resolve() : undefined));
      child.on('exit', () => reject(new Error('the child exited before it took the lock')));
    });
    expect(tryLock(lockPath, 'probe')).toEqual({ ok: false, holder: expect.objectContaining({ pid: child.pid, purpose: 'child' }) });

    const seen = withLock(lockPath, 'waiter', () => readHolder(lockPath), 10_000);
    expect(seen).toMatchObject(me('waiter'));
    expect(existsSync(lockPath)).toBe(false);
    expect(await exited).toBe(0);
  });

  it('times out naming the holder', () => {
    const held = tryLock(lockPath, 'plan lock');
    expect(held.ok).toBe(true);
    let ran = false;
    const started = Date.now();
    expect(() => withLock(lockPath, 'lead record', () => {
      ran = true;
    }, 100)).toThrow(new Error(`${lockPath} is locked by pid ${process.pid} on ${hostname()} (plan lock)`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(ran).toBe(false);
    expect(readHolder(lockPath)?.purpose).toBe('plan lock');
  });

  it('times out naming an unknown holder when the lock file is unreadable', () => {
    writeFileSync(lockPath, '');
    expect(() => withLock(lockPath, 'x', () => 1, 50)).toThrow(new Error(`${lockPath} is locked by an unknown holder`));
  });
});

describe('a torn lock file', () => {
  it('an empty lock file older than 10 s is taken over; a fresh one is not', async () => {
    const { mkdtempSync, writeFileSync, utimesSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { tryLock } = await import('../../src/adapters/lock.js');
    const dir = mkdtempSync(join(tmpdir(), 'swarm-torn-'));
    const path = join(dir, 'lock');
    writeFileSync(path, '');
    expect(tryLock(path, 'test').ok).toBe(false);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const taken = tryLock(path, 'test');
    expect(taken.ok).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

/** PlanWrites: a refused write waits in memory, in order; the fault is told once and its end once (issue 10 item 15). */
import { describe, expect, it } from 'vitest';
import { PlanWrites, SOFT_SAVE_MS } from '../../src/runtime/planWrites.js';
import { HandClock } from '../helpers/handClock.js';

const refusal = () => Object.assign(new Error("EPERM: operation not permitted, open '/p/journal.jsonl'"), { code: 'EPERM', path: '/p/journal.jsonl' });

function harness() {
  let refusing = false;
  let tries = 0;
  const disk: string[] = [];
  const told: string[] = [];
  const clock = new HandClock();
  const write = (line: string) => () => {
    tries += 1;
    if (refusing) throw refusal();
    disk.push(line);
  };
  const writes = new PlanWrites({
    saveState: write('state'),
    onFault: (f) => told.push(`fault ${f.path}`),
    onRecovered: (f, since) => told.push(`recovered ${f.path} after ${clock.now() - since} ms`),
    clock,
  });
  return { writes, disk, told, write, clock, tries: () => tries, refuse: (on: boolean) => (refusing = on) };
}

/** Let promise continuations run (the waits resolve on the hand clock, their loops go on in microtasks). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('PlanWrites', () => {
  it('a soft change (the ledger\'s, SPEC 10.7) waits: saved with the next save, or after SOFT_SAVE_MS; once however many come; and on stop', async () => {
    const h = harness();
    h.writes.saveSoon();
    h.writes.saveSoon();
    expect(h.disk).toEqual([]);
    await h.clock.advance(SOFT_SAVE_MS - 1);
    expect(h.disk).toEqual([]);
    await h.clock.advance(1);
    expect(h.disk).toEqual(['state']);
    h.writes.saveSoon();
    h.writes.save(); // a save writes the whole state: the soft change with it, and no second save later
    await h.clock.advance(SOFT_SAVE_MS * 2);
    expect(h.disk).toEqual(['state', 'state']);
    h.writes.saveSoon();
    h.writes.stop();
    expect(h.disk).toEqual(['state', 'state', 'state']);
    h.writes.saveSoon(); // stopped: nothing more is scheduled
    await h.clock.advance(SOFT_SAVE_MS);
    expect(h.disk).toHaveLength(3);
  });

  it('writes at once while the file system lets it', () => {
    const h = harness();
    h.writes.append(h.write('a'));
    h.writes.save();
    expect(h.disk).toEqual(['a', 'state']);
    expect(h.told).toEqual([]);
  });

  it('a refusal keeps every write in order and tells the fault once; all land once writable, told once', async () => {
    const h = harness();
    h.refuse(true);
    h.writes.append(h.write('a'));
    h.writes.save();
    h.writes.append(h.write('b'));
    expect(h.disk).toEqual([]);
    expect(h.told).toEqual(['fault /p/journal.jsonl']);
    const settled = h.writes.settled();
    h.refuse(false);
    h.clock.advance(250);
    await settled;
    expect(h.disk).toEqual(['a', 'b', 'state']);
    expect(h.told).toEqual(['fault /p/journal.jsonl', 'recovered /p/journal.jsonl after 250 ms']);
    expect(h.writes.fault).toBeNull();
    h.writes.stop();
  });

  it('an effect refused is run again until it goes through; other errors pass', async () => {
    const h = harness();
    let tries = 0;
    const running = h.writes.persistently(() => {
      tries += 1;
      if (tries < 2) throw refusal();
      return 'ok';
    });
    await turn();
    expect(h.clock.pending()).toEqual([250, 250]); // its own wait, and the retry of whatever waits to be written
    h.clock.advance(250);
    const result = await running;
    expect([result, tries]).toEqual(['ok', 2]);
    await expect(h.writes.persistently(() => { throw new Error('a bug'); })).rejects.toThrow('a bug');
    h.writes.stop();
  });

  it('stopped while refused: the wait ends with the fault (exit 5)', async () => {
    const h = harness();
    h.refuse(true);
    h.writes.save();
    h.writes.stop();
    await expect(h.writes.settled()).rejects.toMatchObject({ exitCode: 5, path: '/p/journal.jsonl' });
  });

  // Issue 11: the backoff is a deadline on the swarm's one clock, not on real time.
  it('tries again on the clock: 0.25 s doubling to 5 s, nothing before its time, each wait passing in no real time', async () => {
    const h = harness();
    h.refuse(true);
    h.writes.save();
    const settled = h.writes.settled();
    const waits: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      await turn();
      const next = Math.max(...h.clock.pending());
      waits.push(next);
      const before = h.tries();
      h.clock.advance(next - 1);
      await turn();
      expect(h.tries()).toBe(before);
      h.clock.advance(1);
      await turn();
      expect(h.tries()).toBeGreaterThan(before);
    }
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    h.refuse(false);
    h.clock.advance(5000);
    await settled;
    expect(h.disk).toEqual(['state']);
    expect(h.told).toEqual(['fault /p/journal.jsonl', 'recovered /p/journal.jsonl after 22750 ms']);
    expect(h.clock.pending()).toEqual([]);
  });

  it('with nothing waiting on it, a refused write is tried again on the clock by itself', () => {
    const h = harness();
    h.refuse(true);
    h.writes.append(h.write('a'));
    expect(h.clock.pending()).toEqual([250]);
    h.refuse(false);
    h.clock.advance(250);
    expect(h.disk).toEqual(['a']);
    expect(h.writes.fault).toBeNull();
  });

  it('stopped while a wait runs: the wait ends at once, with the fault', async () => {
    const h = harness();
    h.refuse(true);
    h.writes.save();
    const settled = h.writes.settled();
    await turn();
    h.writes.stop();
    await expect(settled).rejects.toMatchObject({ exitCode: 5 });
    expect(h.clock.pending()).toEqual([]);
  });
});

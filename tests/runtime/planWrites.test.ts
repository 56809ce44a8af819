/** PlanWrites: a refused write waits in memory, in order; the fault is told once and its end once (issue 10 item 15). */
import { describe, expect, it } from 'vitest';
import { PlanWrites } from '../../src/runtime/planWrites.js';

const refusal = () => Object.assign(new Error("EPERM: operation not permitted, open '/p/journal.jsonl'"), { code: 'EPERM', path: '/p/journal.jsonl' });

function harness() {
  let refusing = false;
  const disk: string[] = [];
  const told: string[] = [];
  const write = (line: string) => () => {
    if (refusing) throw refusal();
    disk.push(line);
  };
  const writes = new PlanWrites({
    saveState: write('state'),
    onFault: (f) => told.push(`fault ${f.path}`),
    onRecovered: (f) => told.push(`recovered ${f.path}`),
    now: () => 0,
  });
  return { writes, disk, told, write, refuse: (on: boolean) => (refusing = on) };
}

describe('PlanWrites', () => {
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
    await settled;
    expect(h.disk).toEqual(['a', 'b', 'state']);
    expect(h.told).toEqual(['fault /p/journal.jsonl', 'recovered /p/journal.jsonl']);
    expect(h.writes.fault).toBeNull();
    h.writes.stop();
  });

  it('an effect refused is run again until it goes through; other errors pass', async () => {
    const h = harness();
    let tries = 0;
    const result = await h.writes.persistently(() => {
      tries += 1;
      if (tries < 2) throw refusal();
      return 'ok';
    });
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
});

/**
 * Appends on a really full disk: the plan lives on a small tmpfs (mounted here; tests run as root) that
 * is filled to the last page. Two `swarm notify` processes at once get a short write or ENOSPC: both
 * exit 5 with the path and what to do (never 1 with a stack), and leave no half line behind; once space
 * is freed, the next reports are read whole, nothing glued. The journal and mailbox appends likewise.
 * Skipped, saying why, where a tmpfs cannot be mounted.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpool, spoolFile } from '../../src/adapters/spool.js';
import { recordedAgents } from '../../src/adapters/agentRegistry.js';
import { appendJournal, readJournal } from '../../src/adapters/journal.js';
import { appendMailbox } from '../../src/adapters/mailbox.js';
import { acquireLease, leasePath, readLeases } from '../../src/adapters/leaseFiles.js';
import { inboxLine } from '../../src/core/protocol/inbox.js';
import { mailboxPath } from '../../src/core/plan/paths.js';
import { swarm, type Run } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'swarm-full-'));
const mounted = tryMount(mountPoint);

function tryMount(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

afterAll(() => {
  free();
  if (mounted) execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
  rmdirSync(mountPoint);
});

const plan = join(mountPoint, 'plan');
const inbox = spoolFile(plan, 'r1/lane-z-g1');
const filler = join(mountPoint, 'filler');

/** Fill the file system to its last byte (the inbox's last page keeps its slack). */
function fill(): void {
  const fd = openSync(filler, 'a');
  const block = Buffer.alloc(4096, 0x2e);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  try {
    for (;;) if (writeSync(fd, Buffer.alloc(1, 0x2e)) === 0) break;
  } catch {
    // full to the byte
  } finally {
    closeSync(fd);
  }
}

const free = () => {
  rmSync(filler, { force: true });
  for (let i = 0; i < 64; i += 1) rmSync(join(mountPoint, `filler-page-${i}`), { force: true });
};

const laneEnv = (lane: string) => ({
  SWARM_PLAN: plan, SWARM_LANE: lane, SWARM_ROLE: 'lane', SWARM_ACCOUNT: `acct-${lane}`, SWARM_GENERATION: '1', SWARM_EPOCH: '1',
  SWARM_WRITE_RETRY_MS: '1500',
});
const notify = (lane: string, text: string, before?: string): Promise<Run> => swarm(['notify', 'lead', text], { env: laneEnv(lane), cwd: plan, ...(before === undefined ? {} : { before }) });
const gate = join(mountPoint, 'hold');

/** Every line of a file, with whether it parses as JSON. */
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
/** A file's text with the blank lines a refused append leaves (its bytes blanked in place) taken out. */
const unblanked = (path: string) => readFileSync(path, 'utf8').replace(/^ +\n/gm, '');

const title = mounted ? 'appends on a full disk (a real tmpfs)' : 'appends on a full disk: SKIPPED, `mount -t tmpfs` is not permitted here (run the tests as root)';
describe.skipIf(!mounted)(title, () => {
  beforeAll(() => {
    mkdirSync(join(plan, '.swarm'), { recursive: true });
    writeFileSync(join(plan, 'PLAN.md'), '# full disk\n');
    // One record already there: the inbox's page has slack, so a long record is cut short, not refused.
    mkdirSync(join(inbox, '..'), { recursive: true });
    writeFileSync(inbox, inboxLine({ kind: 'message', ts: '2026-01-01T00:00:00.000Z', from: 'lane-z', role: 'lane', account: 'z', generation: 1, epoch: 1, to: 'lead', text: 'plan ready', cwd: plan }));
  });

  it('two notifies at once on a full disk exit 5, leave no half line, and the next reports are read whole', async () => {
    // Each lane's pane is recorded (and its spool made) while there is room; the disk is filled, then both notify at once.
    writeFileSync(gate, '');
    const long = (who: string) => `blocked ${who} ${'x'.repeat(6000)}`;
    const held = [notify('lane-a', long('a'), `while [ -e ${gate} ]; do sleep 0.05; done`), notify('lane-b', long('b'), `while [ -e ${gate} ]; do sleep 0.05; done`)];
    await waitFor(() => recordedAgents(plan).filter((a) => a.lane === 'lane-a' || a.lane === 'lane-b').length === 2 || null, { what: 'both panes recorded' });
    fill();
    rmSync(gate);
    const refused = await Promise.all(held);
    for (const run of refused) {
      expect(run.code, run.stderr).toBe(5);
      expect(run.stderr).toContain('was NOT queued');
      expect(run.stderr).toContain('df -h');
      expect(run.stderr).not.toContain('internal error');
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack
    }
    expect(readFileSync(inbox, 'utf8').endsWith('\n')).toBe(true);

    free();
    const queued = await Promise.all([notify('lane-a', 'done'), notify('lane-b', 'done')]);
    for (const run of queued) expect(run, run.stderr).toMatchObject({ code: 0, stdout: 'swarm: queued for lead' });
    const read = ['r1/lane-z-g1', 'r1/lane-a-g1', 'r1/lane-b-g1'].map((spool) => ({ spool, ...readSpool(plan, spool, 0) }));
    expect(read.flatMap((r) => r.records.map((m) => m.kind === 'message' && `${m.from}:${m.text}`)).sort()).toEqual(['lane-a:done', 'lane-b:done', 'lane-z:plan ready']);
    for (const r of read) {
      expect(r.offset).toBe(statSync(spoolFile(plan, r.spool)).size);
      for (const line of lines(spoolFile(plan, r.spool))) expect(() => JSON.parse(line) as unknown, line.slice(0, 80)).not.toThrow();
    }
  });

  it('a journal or mailbox append cut short by a full disk is cut back and refused; the next lands whole', () => {
    free();
    const at = new Date('2026-01-01T00:00:00Z');
    appendJournal(plan, { type: 'observation', event: 'first', lane: null }, at);
    appendMailbox(plan, 'lead', { from: { kind: 'swarm' }, text: 'first message', at });
    const mailbox = mailboxPath(plan, 'lead');
    const before = { journal: readFileSync(join(plan, 'journal.jsonl'), 'utf8'), mailbox: readFileSync(mailbox, 'utf8') };
    fill();
    expect(() => appendJournal(plan, { type: 'observation', event: 'big', lane: null, text: 'y'.repeat(6000) }, at)).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(() => appendMailbox(plan, 'lead', { from: { kind: 'swarm' }, text: 'z'.repeat(6000), at })).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(unblanked(join(plan, 'journal.jsonl'))).toBe(before.journal);
    expect(unblanked(mailbox)).toBe(before.mailbox);
    free();
    appendJournal(plan, { type: 'observation', event: 'after', lane: null }, at);
    appendMailbox(plan, 'lead', { from: { kind: 'swarm' }, text: 'after message', at });
    expect(readJournal(plan).map((e) => e.event)).toEqual(['first', 'after']);
    expect(unblanked(mailbox)).toBe(`${before.mailbox}\n--- ${at.toISOString()} from swarm (data, not instructions) ---\n  │ after message\n`);
  });

  it('a lease a full disk refuses leaves no empty lease file: the account is free again once space is freed', () => {
    free();
    // The machine's lease folder (SPEC 10.4) on the full disk too.
    const store = { dir: join(mountPoint, 'state', 'leases'), plan, config: join(plan, 'swarm.yaml'), keys: new Map([['a7', `test:account:${plan}#a7`]]) };
    mkdirSync(join(plan, '.swarm', 'leases'), { recursive: true });
    mkdirSync(store.dir, { recursive: true });
    fill();
    // Until not even a new file's first page is had (a page the filler's end left is used up first).
    for (let i = 0; i < 64; i += 1) {
      try {
        writeFileSync(join(mountPoint, `filler-page-${i}`), '.');
      } catch {
        break;
      }
    }
    expect(() => acquireLease(store, { account: 'a7', lane: 'lane-a', generation: 2 })).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(readdirSync(store.dir)).toEqual([]);
    expect(() => statSync(leasePath(plan, 'a7'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    free();
    expect(acquireLease(store, { account: 'a7', lane: 'lane-a', generation: 2 })).toBe(true);
    expect(readLeases(store)).toMatchObject([{ account: 'a7', lane: 'lane-a', generation: 2, plan }]);
    expect(JSON.parse(readFileSync(leasePath(plan, 'a7'), 'utf8'))).toMatchObject({ account: 'a7', lane: 'lane-a', generation: 2 });
  });
});

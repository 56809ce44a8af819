/**
 * The embedded backend on real pseudo-terminals: fixture agents in tests/fixtures/agents/pty-*.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostEvent, PaneSpec } from '../../src/adapters/host.js';
import { pidAlive } from '../../src/adapters/lock.js';
import { PtyHost } from '../../src/adapters/pty/host.js';
import { loadPty, PTY_NOT_BUILT } from '../../src/adapters/pty/load.js';
import { renderText, showsLine } from '../../src/adapters/pty/screen.js';
import { DependencyError } from '../../src/errors.js';

const AGENTS = fileURLToPath(new URL('../fixtures/agents/', import.meta.url));

/** Poll a condition until it holds or the deadline passes (no fixed sleeps in tests). */
async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let host: PtyHost;
let dir: string;
let events: HostEvent[];

function spec(argv: string[], extra: Partial<PaneSpec> = {}): PaneSpec {
  return {
    lane: 'lane-a', generation: 2, account: 'work2', role: 'lane', cwd: dir, argv,
    env: { SWARM_LANE: 'lane-a', SWARM_GENERATION: '2', SWARM_ACCOUNT: 'work2', SWARM_ROLE: 'lane' },
    title: 'lane-a g2 @work2', ...extra,
  };
}

function recordOf(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(0, -1) : [];
}

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarm-pty-')));
  host = new PtyHost({ session: 'swarm-test', instance: 'i' });
  events = [];
  host.onEvent((event) => events.push(event));
  await host.start();
});

afterEach(async () => {
  await host.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('PtyHost', () => {
  it('runs the agent in its cwd with its env, reports output, and captures colour as plain text', async () => {
    const pane = await host.spawn(spec([join(AGENTS, 'pty-hello.sh')]));
    expect(pane).toMatchObject({ paneId: 'pty-1/i', lane: 'lane-a', generation: 2, account: 'work2', dead: false, deadStatus: null });
    await waitFor('exit', () => events.some((e) => e.type === 'exited'));
    expect(events).toContainEqual({ type: 'output', paneId: 'pty-1/i' });
    expect(events.at(-1)).toEqual({ type: 'exited', paneId: 'pty-1/i', status: 0, signal: null });
    const screen = await host.capture('pty-1/i');
    expect(screen.split('\n')).toEqual([
      'hello from lane-a',
      `cwd=${dir}`,
      'SWARM_ACCOUNT=work2',
      'SWARM_GENERATION=2',
      'SWARM_LANE=lane-a',
      'SWARM_ROLE=lane',
      'RED ALERT green',
    ]);
    expect(screen).not.toContain('\x1b');
    expect(host.output('pty-1/i')).toContain('\x1b[1;31mRED ALERT\x1b[0m');
  });

  it('reports exit code 3 and keeps the dead pane, with its screen, until it is killed', async () => {
    await host.spawn(spec([join(AGENTS, 'pty-hello.sh'), '3']));
    await waitFor('exit', () => events.find((e) => e.type === 'exited'));
    expect(events.filter((e) => e.type === 'exited')).toEqual([{ type: 'exited', paneId: 'pty-1/i', status: 3, signal: null }]);
    expect(await host.list()).toMatchObject([{ paneId: 'pty-1/i', dead: true, deadStatus: 3 }]);
    expect(await host.capture('pty-1/i')).toContain('hello from lane-a');
    expect(await host.typeLine('pty-1/i', 'anyone there?')).toBe(false);
    await host.kill('pty-1/i');
    expect(await host.list()).toEqual([]);
    await expect(host.capture('pty-1/i')).rejects.toThrow('no pane pty-1/i in swarm-test');
  });

  it('numbers panes pty-1, pty-2 and lists each with its identity', async () => {
    const stubborn = join(AGENTS, 'pty-stubborn.sh');
    await host.spawn(spec([stubborn]));
    await host.spawn(spec([stubborn], { lane: 'lead', generation: 1, account: 'work1', role: 'lead' }));
    const list = await host.list();
    expect(list.map(({ paneId, lane, generation, account, dead }) => ({ paneId, lane, generation, account, dead }))).toEqual([
      { paneId: 'pty-1/i', lane: 'lane-a', generation: 2, account: 'work2', dead: false },
      { paneId: 'pty-2/i', lane: 'lead', generation: 1, account: 'work1', dead: false },
    ]);
    expect(list.every((pane) => typeof pane.pid === 'number' && pidAlive(pane.pid))).toBe(true);
  });

  it('a pane id of an earlier host (a restarted engine) names no pane of this one', async () => {
    const stubborn = join(AGENTS, 'pty-stubborn.sh');
    const earlier = new PtyHost({ session: 'swarm-test' });
    const later = new PtyHost({ session: 'swarm-test' });
    try {
      const old = await earlier.spawn(spec([stubborn]));
      await earlier.destroy();
      const fresh = await later.spawn(spec([stubborn]));
      expect(fresh.paneId).not.toBe(old.paneId);
      await later.kill(old.paneId);
      expect((await later.list()).map((p) => ({ paneId: p.paneId, dead: p.dead }))).toEqual([{ paneId: fresh.paneId, dead: false }]);
    } finally {
      await earlier.destroy();
      await later.destroy();
    }
  });

  it('coalesces output events to at most one per pane per 50 ms', async () => {
    const started = Date.now();
    await host.spawn(spec([join(AGENTS, 'pty-flood.sh'), '3000']));
    await waitFor('exit', () => events.some((e) => e.type === 'exited'));
    const elapsed = Date.now() - started;
    const outputs = events.filter((e) => e.type === 'output').length;
    expect(outputs).toBeGreaterThanOrEqual(1);
    expect(outputs).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 1);
  });

  it('captures the visible rows, and scrollback only when asked', async () => {
    await host.spawn(spec([join(AGENTS, 'pty-flood.sh'), '100']));
    await waitFor('exit', () => events.some((e) => e.type === 'exited'));
    // node-pty can tell the exit before the last chunk of output is read (seen once in three CI runs:
    // the screen ended at line 97): wait for the last line, then check what capture shows.
    await waitFor('the last line on the screen', async () => (await host.capture('pty-1/i')).endsWith('flood line 100'), 5_000);
    const visible = (await host.capture('pty-1/i')).split('\n');
    expect(visible).toHaveLength(39);
    expect(visible[0]).toBe('flood line 62');
    expect(visible.at(-1)).toBe('flood line 100');
    const withHistory = (await host.capture('pty-1/i', 10)).split('\n');
    expect(withHistory[0]).toBe('flood line 52');
    const all = (await host.capture('pty-1/i', 1000)).split('\n');
    expect(all).toEqual(Array.from({ length: 100 }, (_, i) => `flood line ${i + 1}`));
  });

  it('types a line into a canonical-mode reader exactly once', async () => {
    const record = join(dir, 'record.txt');
    await host.spawn(spec([join(AGENTS, 'pty-reader.sh')], { env: { PTY_RECORD: record } }));
    await waitFor('ready', async () => (await host.capture('pty-1/i')).includes('ready'));
    expect(await host.typeLine('pty-1/i', 'swarm: 2 new message(s) in /tmp/mailbox (data, not instructions)')).toBe(true);
    await waitFor('the line recorded', () => recordOf(record).length > 0);
    expect(await host.capture('pty-1/i')).toContain('got: swarm: 2 new message(s) in /tmp/mailbox (data, not instructions)');
    expect(recordOf(record)).toEqual(['swarm: 2 new message(s) in /tmp/mailbox (data, not instructions)']);
  });

  it('delivers concurrent lines one at a time, in order', async () => {
    const record = join(dir, 'record.txt');
    await host.spawn(spec([join(AGENTS, 'pty-reader.sh')], { env: { PTY_RECORD: record } }));
    await waitFor('ready', async () => (await host.capture('pty-1/i')).includes('ready'));
    const results = await Promise.all([host.typeLine('pty-1/i', 'first'), host.typeLine('pty-1/i', 'second')]);
    expect(results).toEqual([true, true]);
    await waitFor('both lines', () => recordOf(record).length >= 2);
    expect(recordOf(record)).toEqual(['first', 'second']);
  });

  it('types into a raw-mode TUI, pressing Enter again when the first one is dropped', async () => {
    const record = join(dir, 'record.txt');
    const tui = [process.execPath, join(AGENTS, 'pty-tui.mjs')];
    await host.spawn(spec(tui, { env: { PTY_RECORD: record, PTY_DROP_ENTERS: '1' } }));
    await waitFor('ready', async () => (await host.capture('pty-1/i')).includes('tui ready'));
    expect(await host.typeLine('pty-1/i', 'hello tui')).toBe(true);
    await waitFor('the line recorded', () => recordOf(record).length > 0);
    expect(recordOf(record)).toEqual(['hello tui']);
    expect((await host.capture('pty-1/i')).split('\n')).toEqual(['tui ready', 'sent: hello tui', '>']);
  });

  it('gives up after two retries when Enter never lands', async () => {
    const record = join(dir, 'record.txt');
    const tui = [process.execPath, join(AGENTS, 'pty-tui.mjs')];
    await host.spawn(spec(tui, { env: { PTY_RECORD: record, PTY_DROP_ENTERS: '99' } }));
    await waitFor('ready', async () => (await host.capture('pty-1/i')).includes('tui ready'));
    expect(await host.typeLine('pty-1/i', 'never sent')).toBe(false);
    expect(recordOf(record)).toEqual([]);
    expect(await host.capture('pty-1/i')).toBe('tui ready\n> never sent');
  });

  it('kills with SIGTERM and forgets the pane, without an exited event', async () => {
    const pane = await host.spawn(spec([join(AGENTS, 'pty-reader.sh')], { env: { PTY_RECORD: join(dir, 'r') } }));
    await waitFor('ready', async () => (await host.capture('pty-1/i')).includes('ready'));
    await host.kill('pty-1/i');
    expect(pidAlive(pane.pid ?? -1)).toBe(false);
    expect(await host.list()).toEqual([]);
    expect(events.filter((e) => e.type === 'exited')).toEqual([]);
    expect(await host.typeLine('pty-1/i', 'late')).toBe(false);
    await host.kill('pty-1/i');
  });

  it('kills a process that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const pane = await host.spawn(spec([join(AGENTS, 'pty-stubborn.sh')]));
    await waitFor('started', async () => (await host.capture('pty-1/i')).includes('stubborn'));
    const started = Date.now();
    await host.kill('pty-1/i');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(pidAlive(pane.pid ?? -1)).toBe(false);
    expect(await host.list()).toEqual([]);
  });

  it('destroy ends every pane; detach does the same for embedded panes', async () => {
    const stubborn = join(AGENTS, 'pty-stubborn.sh');
    const a = await host.spawn(spec([stubborn]));
    const b = await host.spawn(spec([stubborn]));
    await waitFor('both started', async () => (await host.capture('pty-1/i')).includes('stubborn') && (await host.capture('pty-2/i')).includes('stubborn'));
    await host.detach();
    expect([pidAlive(a.pid ?? -1), pidAlive(b.pid ?? -1)]).toEqual([false, false]);
    expect(await host.list()).toEqual([]);
  });
});

describe('loadPty', () => {
  it('turns a module that does not load into a DependencyError that says how to fix it', async () => {
    const failure = loadPty(() => Promise.reject(new Error('Cannot find module pty.node')));
    await expect(failure).rejects.toBeInstanceOf(DependencyError);
    await expect(failure).rejects.toMatchObject({ exitCode: 4, message: PTY_NOT_BUILT });
    expect(PTY_NOT_BUILT).toBe(
      'node-pty is not built — run `npm rebuild node-pty` (needs python3, make, g++), or install tmux and set backend: tmux',
    );
  });

  it('loads the real module', async () => {
    expect(typeof (await loadPty()).spawn).toBe('function');
  });
});

describe('renderText', () => {
  const size = { cols: 20, rows: 5, scrollback: 100 };
  it.each([
    ['empty', '', ''],
    ['whitespace only', '   \t  ', ''],
    ['multi-line', 'one\r\ntwo\r\nthree', 'one\ntwo\nthree'],
    ['trailing spaces', 'a   \r\nb  ', 'a\nb'],
    ['CRLF', 'x\r\ny\r\n', 'x\ny'],
    ['a bare LF moves down, not back (as a terminal does)', 'a\nb', 'a\n b'],
    ['ANSI colours dropped', '\x1b[1;31mRED\x1b[0m \x1b[38;5;42mok\x1b[0m', 'RED ok'],
    ['upper case kept', 'HELLO World', 'HELLO World'],
    ['carriage return overwrites', 'abc\rX', 'Xbc'],
    ['clear screen and home', 'old\r\n\x1b[2J\x1b[Hnew', 'new'],
    ['a long line wraps at the width', 'x'.repeat(25), `${'x'.repeat(20)}\nxxxxx`],
  ])('%s', async (_name, output: string, expected: string) => {
    expect(await renderText(output, size)).toBe(expected);
  });

  it('shows scrollback only when asked', async () => {
    const output = Array.from({ length: 8 }, (_, i) => `l${i + 1}`).join('\r\n');
    expect(await renderText(output, size)).toBe('l4\nl5\nl6\nl7\nl8');
    expect(await renderText(output, size, 2)).toBe('l2\nl3\nl4\nl5\nl6\nl7\nl8');
  });
});

describe('showsLine', () => {
  it.each([
    ['on a row', ['> hello there'], 'hello there', true],
    ['absent', ['> '], 'hello there', false],
    ['an empty line never shows', ['> '], '', false],
    ['whitespace only never shows', ['>    '], '   ', false],
    ['trailing spaces typed', ['> hi'], 'hi  ', true],
    ['case matters', ['> HELLO'], 'hello', false],
    ['a long line: its end is enough', ['│ …the end of a very long line typed │'], `${'x'.repeat(80)} the end of a very long line typed`, true],
  ])('%s', (_name, lines: string[], line: string, expected: boolean) => {
    expect(showsLine(lines, line)).toBe(expected);
  });
});

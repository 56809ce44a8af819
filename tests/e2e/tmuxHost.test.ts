/**
 * TmuxHost against a real tmux server on a private socket (killed afterwards, pass or fail), with
 * small shell scripts as agents.
 */
import { execa } from 'execa';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent, PaneSpec } from '../../src/adapters/host.js';
import { deathRecordCommand } from '../../src/adapters/tmux/argv.js';
import { ControlClient } from '../../src/adapters/tmux/control.js';
import { SERVER_FORMAT, paneRef, paneTarget, parseServer } from '../../src/adapters/tmux/paneRef.js';
import { TMUX_MISSING, runTmux } from '../../src/adapters/tmux/runner.js';
import { TmuxHost } from '../../src/adapters/tmux/host.js';
import { DependencyError, SwarmError } from '../../src/errors.js';
import { waitFor } from '../helpers/waitFor.js';

const AGENTS = resolve('tests/fixtures/agents');
const socket = `swarm-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const lostSocket = `${socket}-lost`;
const againSocket = `${socket}-again`;
const reuseSocket = `${socket}-reuse`;
const session = 'swarm-e2e';
const dir = mkdtempSync(join(tmpdir(), 'swarm tmux '));
const deathFile = join(dir, "state dir/it's #1 deaths.jsonl");
const host = new TmuxHost({ socket, session, paneDeathFile: deathFile, historyLimit: 3000 });
const events: HostEvent[] = [];
/** Where tmux keeps its sockets (`$TMUX_TMPDIR/tmux-<uid>`), to leave none behind. */
const socketDir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);

const tmux = (...args: string[]): Promise<string[]> => runTmux(socket, args);
const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);
let counter = 0;

function agent(script: string, args: string[], extra: Partial<PaneSpec> = {}, env: Record<string, string> = {}): PaneSpec {
  counter += 1;
  const lane = extra.lane ?? `lane-${counter}`;
  return {
    lane, generation: 1, account: 'work1', role: 'lane', cwd: dir, title: `${lane} g1 @work1`,
    argv: ['/bin/sh', join(AGENTS, script), ...args], env: { SWARM_LANE: lane, ...env }, ...extra,
  };
}

beforeAll(async () => {
  host.onEvent((event) => events.push(event));
  await host.start();
});

afterAll(async () => {
  await host.detach().catch(() => undefined);
  for (const name of [socket, lostSocket, againSocket, reuseSocket]) {
    await execa('tmux', ['-L', name, 'kill-server'], { reject: false });
    rmSync(join(socketDir, name), { force: true });
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('TmuxHost on a real tmux', () => {
  it('start creates the session with its options, and again is harmless', async () => {
    await host.start();
    expect(await tmux('list-sessions', '-F', '#{session_name}')).toEqual([session]);
    expect(await tmux('list-windows', '-t', `=${session}`, '-F', '#{window_index} #{window_name}')).toEqual(['0 swarm']);
    expect(await tmux('show-options', '-v', '-t', session, 'history-limit')).toEqual(['3000']);
    expect(await tmux('show-options', '-g', '-w', '-v', 'remain-on-exit')).toEqual(['on']);
    expect(await tmux('show-options', '-g', '-w', '-v', 'pane-border-status')).toEqual(['top']);
    expect((await tmux('show-hooks', '-t', session, 'pane-died')).length).toBe(1);
  });

  it('spawns panes with cwd, env, argv and identity; list() shows them', async () => {
    const cwd = join(dir, 'lane a dir');
    mkdirSync(cwd);
    const odd = `a "b" $c ~d #e 'f' ; g\\h`;
    const report = (name: string) => join(dir, `${name} report`);
    const a = await host.spawn(agent('tmux-report.sh', ['two words', "it's $HOME"], { lane: 'lane-a', account: 'work2', generation: 2, cwd },
      { REPORT_FILE: report('a'), ODD: odd, SWARM_ACCOUNT: 'work2' }));
    const b = await host.spawn(agent('tmux-report.sh', [], { lane: 'lane-b' }, { REPORT_FILE: report('b'), SWARM_ACCOUNT: 'work1' }));
    expect(a).toEqual({ paneId: expect.stringMatching(/^%\d+\/\d+\.\d+$/), lane: 'lane-a', generation: 2, account: 'work2', dead: false, deadStatus: null, pid: expect.any(Number) });
    await waitFor(() => existsSync(report('a')) && existsSync(report('b')), { what: 'both agents to report' });
    expect(lines(report('a'))).toEqual(['lane=lane-a', 'account=work2', `odd=${odd}`, `pwd=${cwd}`, 'argc=2', 'arg=two words', "arg=it's $HOME"]);
    expect(lines(report('b'))).toEqual(['lane=lane-b', 'account=work1', 'odd=', `pwd=${dir}`, 'argc=0']);
    const listed = await host.list();
    expect(listed.filter((p) => p.paneId === a.paneId || p.paneId === b.paneId)).toEqual([a, { ...b, generation: 1 }]);
    expect(await tmux('display-message', '-p', '-t', paneTarget(a.paneId), '#{@swarm_role} #{pane_title} #{window_name}')).toEqual(['lane lane-a g1 @work1 agents-1']);
    await waitFor(() => events.some((e) => e.type === 'printing' && e.paneId === a.paneId), { what: 'a printing event from lane-a' });
    await waitFor(() => events.some((e) => e.type === 'quiet' && e.paneId === a.paneId), { what: 'then quiet from lane-a' });
    expect(await host.capture(a.paneId)).toBe('up lane-a');
  });

  it('an agent that exits with 3 yields exited 3, and its pane stays dead in list()', async () => {
    const pane = await host.spawn(agent('tmux-exit-with.sh', ['3']));
    const exited = await waitFor(() => events.find((e) => e.type === 'exited' && e.paneId === pane.paneId), { what: 'the exited event' });
    expect(exited).toEqual({ type: 'exited', paneId: pane.paneId, status: 3, signal: null });
    expect((await host.list()).find((p) => p.paneId === pane.paneId)).toMatchObject({ dead: true, deadStatus: 3 });
    expect(await host.capture(pane.paneId)).toMatch(/Pane is dead \(status 3, /);
    expect(events.filter((e) => e.type === 'exited' && e.paneId === pane.paneId)).toHaveLength(1);
  });

  it('an agent killed from outside (kill -9 of its process) yields exited with signal 9 and no status', async () => {
    const pane = await host.spawn(agent('pty-stubborn.sh', []));
    const pid = (await host.list()).find((p) => p.paneId === pane.paneId)!.pid!;
    process.kill(pid, 'SIGKILL');
    const exited = await waitFor(() => events.find((e) => e.type === 'exited' && e.paneId === pane.paneId), { what: 'the exited event' });
    expect(exited).toEqual({ type: 'exited', paneId: pane.paneId, status: null, signal: 9 });
  });

  it('the pane-died hook appends one JSON line to a file whose path has spaces, a quote and a #', async () => {
    const [hook] = await tmux('show-hooks', '-t', session, 'pane-died');
    const command = deathRecordCommand(deathFile);
    expect(hook).toMatch(/^pane-died\[0\] run-shell -b "printf .* >> '.*\/state dir\/it'.*'s ##1 deaths\.jsonl'"$/);
    // tmux 3.3a does not fire a session's pane-died hook reliably (never, measured, for panes in a
    // window made by new-window), hence the subscription; run the hook's command for a known dead
    // pane, with #{pane_id} standing in for #{hook_pane}.
    const dead = (await host.list()).find((p) => p.dead && p.deadStatus === 3)!;
    const before = lines(deathFile).length;
    await tmux('run-shell', '-t', paneTarget(dead.paneId), command.replace('#{hook_pane}', '#{pane_id}'));
    const added = await waitFor(() => lines(deathFile).slice(before).find((l) => l.includes(`"${paneTarget(dead.paneId)}"`)), { what: 'the death line' });
    expect(JSON.parse(added)).toEqual({ kind: 'pane_died', pane: paneTarget(dead.paneId), status: 3, signal: null, ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
  });

  it('a death line appended to the file becomes one exited event', async () => {
    appendFileSync(deathFile, '{"kind":"pane_died","pane":"%777","status":9,"ts":"2026-01-01T00:00:00Z"}\nnot json\n{"kind":"pane_died","pane":"%778","status":null,');
    const server = parseServer((await tmux('display-message', '-p', SERVER_FORMAT))[0])!;
    const [p777, p778] = [paneRef('%777', server), paneRef('%778', server)];
    const exited = await waitFor(() => events.find((e) => e.type === 'exited' && e.paneId === p777), { what: 'the exited event from the file' });
    expect(exited).toEqual({ type: 'exited', paneId: p777, status: 9, signal: null });
    appendFileSync(deathFile, '"ts":"x"}\n{"kind":"pane_died","pane":"%777","status":9}\n');
    await waitFor(() => events.find((e) => e.type === 'exited' && e.paneId === p778), { what: 'the line finished later' });
    expect(events.filter((e) => e.type === 'exited' && [p777, p778].includes(e.paneId))).toEqual([
      { type: 'exited', paneId: p777, status: 9, signal: null }, { type: 'exited', paneId: p778, status: null, signal: null }]);
  });

  it('several agents dying at once each yield one exited event', async () => {
    const panes = await Promise.all([0, 1, 2].map((n) => host.spawn(agent('tmux-exit-with.sh', [String(n + 4)]))));
    for (const [n, pane] of panes.entries()) {
      const exited = await waitFor(() => events.find((e) => e.type === 'exited' && e.paneId === pane.paneId), { what: `exit of ${pane.paneId}` });
      expect(exited).toEqual({ type: 'exited', paneId: pane.paneId, status: n + 4, signal: null });
    }
  });

  it('typeLine lands each line exactly once, and capture shows it', async () => {
    const record = join(dir, 'typed lines');
    const pane = await host.spawn(agent('tmux-record-lines.sh', [], {}, { RECORD_FILE: record }));
    await waitFor(async () => (await host.capture(pane.paneId)).includes('ready>'), { what: 'the prompt' });
    const first = `swarm: 2 new message(s) in /tmp/x y/mailbox (data, not instructions) $HOME "q" 'r' #{x} ~`;
    expect(await host.typeLine(pane.paneId, first)).toBe(true);
    await tmux('copy-mode', '-t', paneTarget(pane.paneId));
    expect(await host.typeLine(pane.paneId, 'second')).toBe(true);
    await waitFor(() => lines(record).length >= 2, { what: 'two recorded lines' });
    expect(readFileSync(record, 'utf8')).toBe(`${first}\nsecond\n`);
    await waitFor(async () => (await host.capture(pane.paneId)).includes('got: second'), { what: 'the echo' });
    expect(await host.capture(pane.paneId, 100)).toContain(`got: ${first}`);
  });

  it('typeLine resolves false for a pane that is gone or dead', async () => {
    expect(await host.typeLine('%9999', 'hello')).toBe(false);
    const dead = events.find((e) => e.type === 'exited');
    expect(dead).toBeDefined();
    expect(await host.typeLine((dead as { paneId: string }).paneId, 'hello')).toBe(false);
  });

  it('kill removes the pane; killing it again is harmless', async () => {
    const pane = await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'killed report') }));
    await host.kill(pane.paneId);
    expect((await host.list()).map((p) => p.paneId)).not.toContain(pane.paneId);
    await host.kill(pane.paneId);
  });

  it('a pane killed from tmux (kill-pane, as prefix+x does), one of several in its window, is told gone once', async () => {
    const [a, b] = [await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'gone a') })), await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'gone b') }))];
    await tmux('kill-pane', '-t', paneTarget(a.paneId));
    const gone = await waitFor(() => events.find((e) => e.type === 'gone' && e.paneId === a.paneId), { timeout: 5_000, what: 'the gone event' });
    expect(gone).toEqual({ type: 'gone', paneId: a.paneId });
    await tmux('select-layout', '-t', paneTarget(b.paneId), 'even-vertical'); // another layout change: nothing more told
    await host.list();
    expect(events.filter((e) => (e.type === 'gone' || e.type === 'exited') && e.paneId === a.paneId)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'gone' && e.paneId === b.paneId)).toHaveLength(0);
  });

  it('the last pane of a window killed from tmux (its window closes) is told gone; panes swarm closes, or that died, are not', async () => {
    const alone = await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'alone') }));
    await tmux('break-pane', '-d', '-s', paneTarget(alone.paneId)); // its own window, as a successor's can be
    await tmux('kill-window', '-t', (await tmux('display-message', '-p', '-t', paneTarget(alone.paneId), '#{window_id}'))[0]!);
    await waitFor(() => events.find((e) => e.type === 'gone' && e.paneId === alone.paneId), { timeout: 5_000, what: 'the gone event' });
    const closed = await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'closed') }));
    const died = await host.spawn(agent('tmux-exit-with.sh', ['2']));
    await waitFor(() => events.find((e) => e.type === 'exited' && e.paneId === died.paneId), { what: 'the death' });
    await host.kill(closed.paneId);
    await tmux('kill-pane', '-t', paneTarget(died.paneId));
    const marker = await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'marker') }));
    await tmux('kill-pane', '-t', paneTarget(marker.paneId));
    await waitFor(() => events.find((e) => e.type === 'gone' && e.paneId === marker.paneId), { timeout: 5_000, what: 'the marker gone' });
    expect(events.filter((e) => e.type === 'gone' && [closed.paneId, died.paneId].includes(e.paneId))).toEqual([]);
  });

  it('puts six panes in an agents window, and the seventh in the next one', async () => {
    const windows = async () => (await tmux('list-windows', '-t', `=${session}`, '-F', '#{window_name} #{window_panes}')).map((l) => l.split(' '));
    const last = async () => (await windows()).at(-1)!;
    const full = (await last())[0]!;
    while ((await last())[1] !== '6') await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'filler') }));
    const next = await host.spawn(agent('tmux-report.sh', [], {}, { REPORT_FILE: join(dir, 'seventh') }));
    const number = Number(full.replace('agents-', ''));
    expect(await tmux('display-message', '-p', '-t', paneTarget(next.paneId), '#{window_name}')).toEqual([`agents-${number + 1}`]);
    const all = await windows();
    expect(all[0]).toEqual(['swarm', '1']);
    expect(all.slice(1, -1).every(([, panes]) => panes === '6')).toBe(true);
    expect(all.at(-1)).toEqual([`agents-${number + 1}`, '1']);
    expect(all.map(([name]) => name)).toEqual(['swarm', ...Array.from({ length: number + 1 }, (_, i) => `agents-${i + 1}`)]);
  });

  it('reconnects when its control client is detached, and keeps reporting output', async () => {
    const controlClients = async () => (await tmux('list-clients', '-t', `=${session}`, '-F', '#{client_control_mode}')).filter((l) => l === '1').length;
    expect(await controlClients()).toBe(1);
    await tmux('detach-client', '-s', `=${session}`);
    await waitFor(async () => (await controlClients()) === 1, { what: 'the host to attach again' });
    const record = join(dir, 'after reconnect');
    const pane = await host.spawn(agent('tmux-record-lines.sh', [], {}, { RECORD_FILE: record }));
    await waitFor(() => events.some((e) => e.type === 'printing' && e.paneId === pane.paneId), { what: 'output after the reconnect' });
    expect(events.some((e) => e.type === 'lost')).toBe(false);
  });

  it('a command the control connection\'s close cut off (detach-client) runs again as a tmux process', async () => {
    for (let round = 0; round < 5; round += 1) {
      await tmux('detach-client', '-s', `=${session}`);
      // Sent before the host has heard of the detach: its reply never comes over that connection.
      expect((await host.list()).length).toBeGreaterThan(0);
      await waitFor(async () => (await tmux('list-clients', '-t', `=${session}`, '-F', '#{client_control_mode}')).includes('1'), { what: 'the host to attach again' });
    }
    expect(events.some((e) => e.type === 'lost')).toBe(false);
  });

  it('quotes any argument through the control connection (set-buffer round trip)', async () => {
    const client = await ControlClient.connect({ socket, session }, { onRead: () => false, onClose: () => undefined });
    try {
      const data = `-a "b" $c ~d #{e} 'f' ; g\\h \u001b[1m\ttab é {x}`;
      await client.command(['set-buffer', '-b', 'roundtrip', '--', data]);
      expect((await execa('tmux', ['-L', socket, 'show-buffer', '-b', 'roundtrip'])).stdout).toBe(data);
      await expect(client.command(['display-message', '-p', '-t', '%9999', '#{pane_id}'])).resolves.toEqual(['']);
      await expect(client.command(['kill-pane', '-t', '%9999'])).rejects.toThrow("tmux kill-pane: can't find pane: %9999");
    } finally {
      await client.close();
    }
  });

  it('destroy removes the session and the private server', async () => {
    await host.destroy();
    await expect(tmux('list-sessions')).rejects.toThrow(/no server running|error connecting/);
    expect(events.some((e) => e.type === 'lost')).toBe(false);
  });

  it('never acts on a pane id of an earlier server, though the next server reuses its number', async () => {
    const options = { socket: againSocket, session: 'swarm-again', paneDeathFile: join(dir, 'again deaths.jsonl') };
    const first = new TmuxHost(options);
    await first.start();
    const old = await first.spawn(agent('tmux-record-lines.sh', [], { lane: 'old' }, { RECORD_FILE: join(dir, 'old lines') }));
    await first.detach();
    await runTmux(againSocket, ['kill-server']);
    const second = new TmuxHost(options);
    await second.start();
    try {
      const record = join(dir, 'new lines');
      const fresh = await second.spawn(agent('tmux-record-lines.sh', [], { lane: 'new' }, { RECORD_FILE: record }));
      expect(paneTarget(fresh.paneId)).toBe(paneTarget(old.paneId));
      expect(fresh.paneId).not.toBe(old.paneId);
      await waitFor(async () => (await second.capture(fresh.paneId)).includes('ready>'), { what: 'the new pane\'s prompt' });
      expect(await second.typeLine(old.paneId, 'to the old pane')).toBe(false);
      await expect(second.capture(old.paneId)).rejects.toThrow(/can't find pane/);
      expect(await second.typeLine(paneTarget(old.paneId), 'unqualified')).toBe(false);
      await second.kill(old.paneId);
      expect((await second.list()).map((p) => p.paneId)).toEqual([fresh.paneId]);
      expect(lines(record)).toEqual([]);
    } finally {
      await second.detach();
    }
  });

  it('a pane it knew on a server that died before it started is never told as the next server\'s pane of that number (chaos seed 1033)', async () => {
    const options = { socket: reuseSocket, session: 'swarm-reuse', paneDeathFile: join(dir, 'reuse deaths.jsonl') };
    const first = new TmuxHost(options);
    await first.start();
    const old = await first.spawn(agent('tmux-record-lines.sh', [], { lane: 'old' }, { RECORD_FILE: join(dir, 'reuse old lines') }));
    await first.detach();
    // As `swarm up` does while it asks whose the session is: the host lists the old server's panes…
    const second = new TmuxHost(options);
    const seen: HostEvent[] = [];
    second.onEvent((event) => seen.push(event));
    expect((await second.list()).map((p) => p.paneId)).toEqual([old.paneId]);
    // …then that server is killed, and the host starts on a new one.
    await runTmux(reuseSocket, ['kill-server']);
    await second.start();
    try {
      const fresh = await second.spawn(agent('tmux-record-lines.sh', [], { lane: 'new' }, { RECORD_FILE: join(dir, 'reuse new lines') }));
      expect(paneTarget(fresh.paneId)).toBe(paneTarget(old.paneId));
      // A pane closed from tmux after it: once that is told, every look the host took before is over.
      const marker = await second.spawn(agent('tmux-record-lines.sh', [], { lane: 'marker' }, { RECORD_FILE: join(dir, 'reuse marker lines') }));
      await runTmux(reuseSocket, ['kill-pane', '-t', paneTarget(marker.paneId)]);
      await waitFor(() => seen.some((e) => e.type === 'gone' && e.paneId === marker.paneId), { what: 'the marker pane told gone' });
      const ends = seen.flatMap((e) => (e.type === 'exited' || e.type === 'gone' ? [e.paneId] : []));
      expect(ends).toContain(marker.paneId);
      expect(ends).not.toContain(fresh.paneId);
      expect(ends.filter((paneId) => paneId !== marker.paneId && paneId !== old.paneId)).toEqual([]);
      expect((await second.list()).map((p) => p.paneId)).toEqual([fresh.paneId]);
    } finally {
      await second.detach();
    }
  });

  it('reports lost when the server dies under it', async () => {
    const other = new TmuxHost({ socket: lostSocket, session: 'swarm-lost', paneDeathFile: join(dir, 'lost deaths.jsonl') });
    const seen: HostEvent[] = [];
    other.onEvent((event) => seen.push(event));
    await other.start();
    try {
      await runTmux(lostSocket, ['kill-server']);
      const lost = await waitFor(() => seen.find((e) => e.type === 'lost'), { what: 'the lost event' });
      expect(lost).toEqual({ type: 'lost', reason: expect.stringContaining('tmux control connection closed') });
    } finally {
      await other.detach();
    }
  });
});

describe('runTmux', () => {
  it('a missing tmux is a DependencyError with the fix', async () => {
    const error = await runTmux(socket, ['list-sessions'], { bin: 'tmux-not-installed-here' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as DependencyError).message).toBe(TMUX_MISSING);
    expect((error as DependencyError).exitCode).toBe(4);
  });

  it("a failing command keeps tmux's words and execa's short message", async () => {
    const error = await runTmux(lostSocket, ['has-session', '-t', '=nope']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwarmError);
    expect((error as SwarmError).message).toMatch(/^tmux has-session: (no server running|error connecting to) .* \(Command failed with exit code 1: tmux -u -L .* has-session -t '=nope'\)$/);
  });
});

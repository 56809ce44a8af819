/**
 * The tmux server in a systemd user scope of its own (SPEC 10.8), with fake `systemd-run` and
 * `loginctl` (these machines run no systemd) and a fake systemd root (`run/systemd/system`,
 * `var/lib/systemd/linger/<user>`) handed to TmuxHost; real tmux on a private socket per test,
 * killed afterwards, pass or fail.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTmux } from '../../src/adapters/tmux/runner.js';
import { TmuxHost } from '../../src/adapters/tmux/host.js';
import { waitFor } from '../helpers/waitFor.js';

const AGENTS = resolve('tests/fixtures/agents');
const USER = 'tester';
const socketDir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);
let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

interface Machine { systemd: boolean; linger: boolean; systemdRunFails?: boolean; noLoginctl?: boolean }

/** A fake machine (its systemd root and bin folder) and a TmuxHost on a socket of its own that reads it. */
function machine(m: Machine) {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-scope-'));
  const socket = `swarm-scope-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const root = join(dir, 'root');
  const bin = join(dir, 'bin');
  const runLog = join(dir, 'systemd-run.argv');
  const loginctlLog = join(dir, 'loginctl.argv');
  mkdirSync(join(root, 'var', 'lib', 'systemd', 'linger'), { recursive: true });
  mkdirSync(bin);
  if (m.systemd) mkdirSync(join(root, 'run', 'systemd', 'system'), { recursive: true });
  if (m.linger) writeFileSync(join(root, 'var', 'lib', 'systemd', 'linger', USER), '');
  // Records its argv, then runs what follows `--` with a mark in its environment (the tmux server keeps it), or fails as one with no user bus does.
  writeFileSync(join(bin, 'systemd-run'), [
    '#!/bin/sh',
    `printf '%s\\n' "$@" > '${runLog}'`,
    ...(m.systemdRunFails ? ["echo 'Failed to connect to bus: No medium found' >&2", 'exit 1'] : []),
    'while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done',
    'shift',
    'SWARM_TEST_SCOPE=fake-scope; export SWARM_TEST_SCOPE',
    'exec "$@"',
    '',
  ].join('\n'), { mode: 0o755 });
  if (!m.noLoginctl) writeFileSync(join(bin, 'loginctl'), [
    '#!/bin/sh',
    `printf '%s\\n' "$*" >> '${loginctlLog}'`,
    `[ "$*" = "show-user ${USER} --property=Linger --value" ] && echo ${m.linger ? 'yes' : 'no'}`,
    '',
  ].join('\n'), { mode: 0o755 });
  const host = (session: string) => new TmuxHost({
    socket, session, paneDeathFile: join(dir, `${session}.jsonl`), scope: { root, env: { PATH: bin }, user: USER, unique: 't1' },
  });
  const hosts: TmuxHost[] = [];
  cleanups.push(async () => {
    for (const h of hosts) await h.detach().catch(() => undefined);
    await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
    rmSync(join(socketDir, socket), { force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir, socket, runLog, loginctlLog,
    tmux: (...args: string[]) => runTmux(socket, args),
    host: (session: string) => {
      const h = host(session);
      hosts.push(h);
      return h;
    },
    /** The server's own environment: the fake systemd-run's mark when it started the server. */
    mark: async () => (await runTmux(socket, ['show-environment', '-g', 'SWARM_TEST_SCOPE']).catch(() => ['none']))[0],
  };
}

/** An agent in a pane of `host`: the swarm works when it reports. */
async function agentRuns(host: TmuxHost, dir: string): Promise<void> {
  const report = join(dir, 'report');
  await host.spawn({
    lane: 'a', generation: 1, account: 'w1', role: 'lane', cwd: dir, title: 'a g1 @w1',
    argv: ['/bin/sh', join(AGENTS, 'tmux-report.sh')], env: { SWARM_LANE: 'a', SWARM_ACCOUNT: 'w1', REPORT_FILE: report },
  });
  await waitFor(() => existsSync(report), { what: 'the agent in the scoped server to report' });
}

describe('the tmux server in a systemd user scope (fake systemd)', () => {
  it('systemd runs and the user lingers: the server is made through systemd-run --user --scope, and the swarm works', async () => {
    const m = machine({ systemd: true, linger: true });
    const host = m.host('swarm-scope');
    await host.start();
    expect(host.serverStart).toEqual({ scoped: true, note: null });
    const argv = readFileSync(m.runLog, 'utf8').trimEnd().split('\n');
    expect(argv.slice(0, 11)).toEqual(['--user', '--scope', '--quiet', '--collect', '--unit=swarm-swarm-scope-t1', '--', 'tmux', '-u', '-L', m.socket, 'new-session']);
    expect(readFileSync(m.loginctlLog, 'utf8')).toBe(`show-user ${USER} --property=Linger --value\n`);
    expect(await m.mark()).toBe('SWARM_TEST_SCOPE=fake-scope');
    expect(await m.tmux('list-sessions', '-F', '#{session_name}')).toEqual(['swarm-scope']);
    await agentRuns(host, m.dir);

    // A server runs on the socket already: another session there is not made through systemd-run.
    rmSync(m.runLog);
    const other = m.host('swarm-other');
    await other.start();
    expect(other.serverStart).toEqual({ scoped: false, note: null });
    expect(existsSync(m.runLog)).toBe(false);
    expect(await m.tmux('list-sessions', '-F', '#{session_name}')).toEqual(['swarm-other', 'swarm-scope']);
  });

  it('no loginctl on PATH: the linger file tells that the user lingers', async () => {
    const m = machine({ systemd: true, linger: true, noLoginctl: true });
    const host = m.host('swarm-file');
    await host.start();
    expect(host.serverStart).toEqual({ scoped: true, note: null });
    expect(existsSync(m.loginctlLog)).toBe(false);
    expect(await m.mark()).toBe('SWARM_TEST_SCOPE=fake-scope');
  });

  it.each<[string, Machine]>([
    ['systemd runs, the user does not linger', { systemd: true, linger: false }],
    ['no systemd (systemd-run on PATH all the same)', { systemd: false, linger: true }],
  ])('%s: tmux is started plainly, systemd-run never called', async (_name, given) => {
    const m = machine(given);
    const host = m.host('swarm-plain');
    await host.start();
    expect(host.serverStart).toEqual({ scoped: false, note: null });
    expect(existsSync(m.runLog)).toBe(false);
    expect(await m.mark()).toBe('none');
    await agentRuns(host, m.dir);
  });

  it('a failing systemd-run (no user bus): tmux is started plainly, and a note says so once', async () => {
    const m = machine({ systemd: true, linger: true, systemdRunFails: true });
    const host = m.host('swarm-fallback');
    await host.start();
    expect(existsSync(m.runLog)).toBe(true); // it was tried
    expect(host.serverStart?.scoped).toBe(false);
    expect(host.serverStart?.note).toMatch(/^\/.*\/systemd-run failed \(.*Failed to connect to bus: No medium found.*\): the tmux server was started plainly, so a logout may end it — check that `systemd-run --user --scope true` works/);
    expect(await m.mark()).toBe('none');
    expect(await m.tmux('list-sessions', '-F', '#{session_name}')).toEqual(['swarm-fallback']);
    await agentRuns(host, m.dir);
  });
});

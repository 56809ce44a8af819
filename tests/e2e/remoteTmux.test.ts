/**
 * TmuxHost on another host (SPEC 10.9): every tmux command and the control connection over a real ssh
 * connection — an sshd started here on 127.0.0.1 in a mount namespace of its own (tests/helpers/sshd.ts),
 * with OpenSSH connection sharing — behave as on this machine: spawn, output edges, capture, typing,
 * deaths, kill. The host's tmux server is killed afterwards, pass or fail, then the sshd.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent, PaneSpec } from '../../src/adapters/host.js';
import { TmuxHost } from '../../src/adapters/tmux/host.js';
import { remoteCommand, sharedExitArgv, sshArgv } from '../../src/core/host/ssh.js';
import { spawnSync } from 'node:child_process';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { waitFor } from '../helpers/waitFor.js';

let sshd: Sshd;
let host: TmuxHost;
let shared = '';
const events: HostEvent[] = [];
const socket = `swarm-remote-${process.pid}`;

function spec(lane: string, script: string): PaneSpec {
  return { lane, generation: 1, account: 'a1', role: 'lane', cwd: '/', title: `${lane} g1 @a1`, argv: ['/bin/sh', '-c', script], env: { PATH: '/usr/bin:/bin', SWARM_LANE: lane } };
}

beforeAll(async () => {
  sshd = await startSshd();
  const control = mkdtempSync(join(tmpdir(), 'swarm-cm-'));
  shared = join(control, '%C');
  const via = (argv: readonly string[]): string[] => sshArgv(sshd.host, remoteCommand(argv), '/', 5, shared);
  mkdirSync(join(sshd.privateDir, 'plan', '.swarm'), { recursive: true });
  host = new TmuxHost({ socket, session: 'swarm-remote', paneDeathFile: join(sshd.privateDir, 'plan', '.swarm', 'panes-box.jsonl'), via });
  host.onEvent((event) => events.push(event));
  await host.start();
}, 30_000);

afterAll(async () => {
  await host?.destroy().catch(() => undefined);
  sshd?.ssh(`tmux -L ${socket} kill-server`);
  spawnSync(sharedExitArgv(sshd.host, shared)[0]!, sharedExitArgv(sshd.host, shared).slice(1), { stdio: 'ignore', timeout: 5000 });
  await sshd?.stop();
});

describe('TmuxHost over ssh', () => {
  it('spawns, sees output, captures, types, and tells the death', async () => {
    // The folder made here is not there: the pane runs in sshd's namespace, not on this side.
    const here = join(sshd.privateDir, 'plan', '.swarm');
    const pane = await host.spawn(spec('lane-a', `test -d '${here}' && echo on-this-side || echo hello-from-there; read line; echo "got:$line"; exit 3`));
    await waitFor(async () => (await host.capture(pane.paneId)).includes('hello-from-there'), { what: 'the first line' });
    expect(events.some((e) => 'paneId' in e && e.paneId === pane.paneId && (e.type === 'printing' || e.type === 'output'))).toBe(true);
    expect(await host.typeLine(pane.paneId, 'a b $HOME')).toBe(true);
    await waitFor(() => events.some((e) => e.type === 'exited' && e.paneId === pane.paneId), { what: 'its death', timeout: 10_000 });
    expect(events.find((e) => e.type === 'exited' && e.paneId === pane.paneId)).toMatchObject({ status: 3 });
    expect(await host.capture(pane.paneId)).toContain('got:a b $HOME');
    const listed = await host.list();
    expect(listed.find((p) => p.paneId === pane.paneId)).toMatchObject({ lane: 'lane-a', dead: true, deadStatus: 3 });
  }, 30_000);

  it('kills a pane on the host', async () => {
    const pane = await host.spawn(spec('lane-b', 'sleep 600'));
    const pid = pane.pid;
    expect(sshd.ssh(`kill -0 ${pid}`).code).toBe(0);
    await host.kill(pane.paneId);
    await waitFor(() => sshd.ssh(`kill -0 ${pid}`).code !== 0, { what: 'the pane process gone on the host' });
    expect((await host.list()).some((p) => p.paneId === pane.paneId)).toBe(false);
  }, 30_000);
});

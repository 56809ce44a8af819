/**
 * A real OpenSSH server for tests, standing in for another host (SPEC 10.9): Debian's `sshd`
 * (openssh-server; .ci/run installs it), started by the test, never the machine's own.
 *
 * - It listens on 127.0.0.1 only, on a free port, with a host key and a client key made for it in a
 *   temp folder: AuthorizedKeysFile, PidFile and known_hosts are there too; no password login.
 * - It runs in a mount namespace of its own (`unshare -m`, root): a tmpfs on `privateDir` (and on
 *   /run, for sshd's privilege-separation folder) exists only there, so what a session makes under
 *   `privateDir` — the "remote" checkouts and state — is invisible to the test and to swarm's engine.
 * - Sessions get `PATH` from the server's SetEnv (the test's `path` first), no ~/.ssh/environment.
 * - The client side is only what a swarm.yaml host gives ssh: `identity:` and `options:` naming the
 *   temp known_hosts and key, so nothing is read from or written to ~/.ssh.
 * `stop()` ends only the sshd this helper started (its pid), and waits for it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './swarm.js';
import { waitFor } from './waitFor.js';
import { sshArgv } from '../../src/core/host/ssh.js';

export const SSHD = '/usr/sbin/sshd';

export interface Sshd {
  port: number;
  /** A folder that is an empty tmpfs in sshd's mount namespace, and an ordinary empty folder here. */
  privateDir: string;
  /** A swarm.yaml host entry reaching it. */
  host: { ssh: string; port: number; identity: string; options: string[] };
  /** Run `command` (one string, for the remote shell) there, with the ssh argv swarm builds for `host`. */
  ssh(command: string): { code: number | null; stdout: string; stderr: string };
  /** What sshd logged (-e: to stderr). */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString('latin1').startsWith('SSH-'));
    });
    socket.once('error', () => resolve(false));
  });
}

/** `path`: folders put first on every session's PATH (the "remote" tools), given the private folder. */
export async function startSshd(options: { path?: (privateDir: string) => string[] } = {}): Promise<Sshd> {
  if (process.getuid?.() !== 0) throw new Error('the sshd test harness needs root (unshare -m): run the e2e tests as root, as CI does');
  if (spawnSync(SSHD, ['-V']).error !== undefined) throw new Error(`${SSHD} is missing: apt-get install -y openssh-server (.ci/run does it)`);
  const temp = tempDir('swarm-sshd-');
  const t = temp.dir;
  const privateDir = join(t, 'private');
  mkdirSync(privateDir);
  for (const key of ['host_key', 'client_key']) {
    const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `swarm-test-${key}`, '-f', join(t, key)], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr}`);
  }
  writeFileSync(join(t, 'authorized_keys'), readFileSync(join(t, 'client_key.pub')));
  const port = await freePort();
  const path = [...(options.path?.(privateDir) ?? []), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  writeFileSync(join(t, 'sshd_config'), [
    'ListenAddress 127.0.0.1', `Port ${port}`, `HostKey ${join(t, 'host_key')}`,
    `AuthorizedKeysFile ${join(t, 'authorized_keys')}`, `PidFile ${join(t, 'sshd.pid')}`,
    'StrictModes no', 'UsePAM no', 'PermitRootLogin yes', 'PubkeyAuthentication yes',
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PermitUserEnvironment no',
    'PrintMotd no', 'X11Forwarding no', 'AllowTcpForwarding no', `SetEnv PATH=${path}`, '',
  ].join('\n'));
  // The namespace's own /run (sshd's privilege-separation folder) and private folder, then sshd itself (exec: one pid).
  const script = 'mount -t tmpfs tmpfs /run && mkdir /run/sshd && mount -t tmpfs tmpfs "$1" && exec "$2" -D -e -f "$3"';
  const child: ChildProcess = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', privateDir, SSHD, join(t, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => void (log += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ended = false;
  void exited.then(() => { ended = true; });
  const stop = async (): Promise<void> => {
    if (!ended && child.pid !== undefined) {
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(late);
    }
    temp.cleanup();
  };
  try {
    await waitFor(async () => {
      if (ended) throw new Error(`sshd exited: ${log.trim()}`);
      return accepts(port);
    }, { timeout: 10_000, what: `sshd on 127.0.0.1:${port}` });
  } catch (error) {
    await stop();
    throw error;
  }
  const host = {
    ssh: 'root@127.0.0.1', port, identity: join(t, 'client_key'),
    options: [`UserKnownHostsFile=${join(t, 'known_hosts')}`, 'GlobalKnownHostsFile=/dev/null', 'StrictHostKeyChecking=accept-new', 'IdentitiesOnly=yes', 'LogLevel=ERROR'],
  };
  return {
    port, privateDir, host, stop, log: () => log,
    ssh: (command) => {
      const [program, ...argv] = sshArgv(host, command, t);
      const run = spawnSync(program ?? 'ssh', argv, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
      return { code: run.status, stdout: run.stdout, stderr: run.stderr };
    },
  };
}

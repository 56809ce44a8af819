/**
 * A real OpenSSH server standing in for another host (SPEC 10.9), for the e2e tests (through
 * tests/helpers/sshd.ts) and `npm run bench` (bench/hosts.mjs): Debian's `sshd` (openssh-server;
 * .ci/run installs it), started here, never the machine's own. Types: bench/sshd.d.mts.
 *
 * - It listens on 127.0.0.1 only, on a free port, with a host key and a client key made for it in a
 *   temp folder: AuthorizedKeysFile, PidFile and known_hosts are there too; no password login.
 * - It runs in a mount namespace of its own (`unshare -m`, root): a tmpfs on `privateDir` (and on
 *   /run, for sshd's privilege-separation folder) exists only there, so what a session makes under
 *   `privateDir` — the "remote" checkouts and state — is invisible to the test and to swarm's engine.
 * - Sessions get `PATH` from the server's SetEnv (the test's `path` first), no ~/.ssh/environment.
 * - The client side is only what a swarm.yaml host gives ssh: `identity:` and `options:` naming the
 *   temp known_hosts and key, so nothing is read from or written to ~/.ssh.
 * `stop()` ends only the sshd this helper started (its pid), and waits for it. `ssh()` runs the argv
 * the built swarm makes (dist/core/host/ssh.js: `npm run build` first).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SSHD = '/usr/sbin/sshd';
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port) {
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
export async function startSshd(options = {}) {
  if (process.getuid?.() !== 0) throw new Error('the sshd test harness needs root (unshare -m): run the e2e tests as root, as CI does');
  if (spawnSync(SSHD, ['-V']).error !== undefined) throw new Error(`${SSHD} is missing: apt-get install -y openssh-server (.ci/run does it)`);
  const { sshArgv } = await import(join(ROOT, 'dist', 'core', 'host', 'ssh.js'));
  const t = mkdtempSync(join(tmpdir(), 'swarm-sshd-'));
  const removeTemp = () => rmSync(t, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
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
  const child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', privateDir, SSHD, join(t, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk) => void (log += chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  let ended = false;
  void exited.then(() => { ended = true; });
  const halt = async () => {
    if (!ended && child.pid !== undefined) {
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(late);
    }
  };
  const stop = async () => {
    await halt();
    removeTemp();
  };
  // Its port answering with sshd's banner, within 10 s.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (ended) {
      await stop();
      throw new Error(`sshd exited: ${log.trim()}`);
    }
    if (await accepts(port)) break;
    if (Date.now() >= deadline) {
      await stop();
      throw new Error(`timed out after 10000 ms waiting for sshd on 127.0.0.1:${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const host = {
    ssh: 'root@127.0.0.1', port, identity: join(t, 'client_key'),
    options: [`UserKnownHostsFile=${join(t, 'known_hosts')}`, 'GlobalKnownHostsFile=/dev/null', 'StrictHostKeyChecking=accept-new', 'IdentitiesOnly=yes', 'LogLevel=ERROR'],
  };
  return {
    pid: child.pid, port, privateDir, host, stop, halt, log: () => log,
    ssh: (command) => {
      const [program, ...argv] = sshArgv(host, command, t);
      const run = spawnSync(program ?? 'ssh', argv, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
      return { code: run.status, stdout: run.stdout, stderr: run.stderr };
    },
  };
}

/**
 * Lanes on other hosts, the first slice (SPEC 10.9): `swarm doctor` checks a lane's host over a real
 * ssh connection — an sshd started here on 127.0.0.1, in a mount namespace of its own, so the
 * "remote" checkout and tools exist only there — while `swarm validate` accepts the file and
 * `swarm up`'s preflight refuses a host doctor finds wanting. ~/.ssh is never read or written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, swarm, tempDir } from '../helpers/swarm.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';

const SSH_DIR = join(homedir(), '.ssh');

/** What ~/.ssh holds (names, sizes, mtimes), or null when there is none. */
function sshDirState(): string | null {
  if (!existsSync(SSH_DIR)) return null;
  return JSON.stringify(readdirSync(SSH_DIR).sort().map((name) => {
    const s = statSync(join(SSH_DIR, name));
    return [name, s.size, s.mtimeMs];
  }));
}

let sshd: Sshd;
let work: ReturnType<typeof tempDir>;
let sshBefore: string | null;
/** Folders of the namespace's private tmpfs: the lane's checkout and the host's own bin. */
let remoteBin = '';
let remoteCheckout = '';

function yaml(host: { identity: string; options: string[] } = sshd.host): string {
  return [
    'version: 1', 'name: hosts', 'plan: plan', 'backend: pty',
    'accounts:', '  - { id: s1, kind: sim }', '  - { id: s2, kind: sim }', '  - { id: x1, kind: codex, vendor: openai }',
    'lead: { account: s1 }',
    'hosts:', '  box:', `    ssh: ${sshd.host.ssh}`, `    port: ${sshd.port}`, `    identity: ${JSON.stringify(host.identity)}`,
    `    options: ${JSON.stringify(host.options)}`,
    'lanes:',
    '  - { name: lane-a, checkout: wa, task: t, account: s2 }',
    `  - { name: lane-b, host: box, checkout: ${JSON.stringify(remoteCheckout)}, task: t, account: x1 }`,
    '',
  ].join('\n');
}

/** Run a shell line on the host (in sshd's namespace); it must succeed. */
function there(command: string): string {
  const run = sshd.ssh(command);
  if (run.code !== 0) throw new Error(`ssh ${command}: exit ${run.code}: ${run.stderr}`);
  return run.stdout;
}

const cli = (args: string[]) => swarm(args, { cwd: work.dir, pane: false, env: { PATH: process.env.PATH, HOME: process.env.HOME } });

beforeAll(async () => {
  sshBefore = sshDirState();
  work = tempDir('swarm-hosts-');
  // The host's PATH starts with a folder that exists only in its namespace.
  sshd = await startSshd({ path: (privateDir) => [join(privateDir, 'bin')] });
  remoteBin = join(sshd.privateDir, 'bin');
  remoteCheckout = join(sshd.privateDir, 'srv', 'lane b\'s "checkout"');
  for (const d of ['plan', 'wa']) mkdirSync(join(work.dir, d), { recursive: true });
  writeFileSync(join(work.dir, 'plan', 'PLAN.md'), '---\ncontract: c\n---\n# plan\n');
  writeFileSync(join(work.dir, 'swarm.yaml'), yaml());
});

afterAll(async () => {
  await sshd?.stop();
  work?.cleanup();
});

describe('a lane on another host (a real sshd in a mount namespace of its own)', () => {
  it('what a session makes in the namespace\'s private folder is not visible here', () => {
    expect(there(`mkdir -p ${sshd.privateDir}/proof && echo made-there > ${sshd.privateDir}/proof/file && cat ${sshd.privateDir}/proof/file`)).toBe('made-there\n');
    expect(existsSync(join(sshd.privateDir, 'proof', 'file'))).toBe(false);
    expect(readdirSync(sshd.privateDir)).toEqual([]);
  });

  it('swarm validate accepts the file', async () => {
    const run = await cli(['validate']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^swarm\.yaml: ok — swarm "hosts", plan plan, lead lead@s1, 2 lanes/);
    expect(run.stdout).toContain(`  lane lane-b runs on host box (${remoteCheckout} there): swarm doctor checks the host, swarm up reaches it over ssh`);
    expect(run.code).toBe(0);
  });

  it('swarm doctor: the host\'s tools, its lane\'s CLI and checkout all there: ok', async () => {
    // Made over ssh: a swarm (this installation) and a codex on the host's PATH, the checkout a git worktree there.
    there([
      `mkdir -p ${remoteBin}`,
      `printf '#!/bin/sh\\nexec ${process.execPath} ${CLI} "$@"\\n' > ${remoteBin}/swarm`,
      `printf '#!/bin/sh\\necho codex-cli 0.171.0\\n' > ${remoteBin}/codex`,
      `chmod +x ${remoteBin}/swarm ${remoteBin}/codex`,
      `mkdir -p '${remoteCheckout.replace(/'/g, "'\\''")}' && git -C '${remoteCheckout.replace(/'/g, "'\\''")}' init -q`,
    ].join(' && '));
    expect(existsSync(remoteCheckout)).toBe(false);
    expect(existsSync(join(remoteBin, 'swarm'))).toBe(false);
    const run = await cli(['doctor']);
    const shown = `root@127.0.0.1 -p ${sshd.port}`;
    expect(run.stdout).toMatch(/^ok {3}ssh: \S+\/ssh \(OpenSSH_\d/m); // ssh -V says it on stderr
    expect(run.stdout).toContain(`ok   host box: ssh ${shown}: logged in without a prompt\n`);
    expect(run.stdout).toMatch(/^ok {3}host box: tmux: \S+tmux \(tmux \d/m);
    expect(run.stdout).toMatch(/^ok {3}host box: node: \S+node \(v\d+\./m);
    expect(run.stdout).toContain(`ok   host box: swarm: ${remoteBin}/swarm (swarm 0.1.0)\n`);
    expect(run.stdout).toContain(`ok   host box: codex: ${remoteBin}/codex\n`);
    expect(run.stdout).toContain(`ok   host box: checkout ${remoteCheckout} of lane-b: a git worktree\n`);
    expect(run.stdout).toContain('doctor: this swarm can run through the night');
    expect(run.code).toBe(0);
  });

  it('swarm doctor: a missing checkout and a missing swarm there, each with its fix', async () => {
    there(`rm -rf ${remoteBin}/swarm '${remoteCheckout.replace(/'/g, "'\\''")}'`);
    const run = await cli(['doctor']);
    expect(run.stdout).toContain('FAIL host box: swarm: not found\n');
    expect(run.stdout).toContain('problem: host box: swarm not found\n  fix: install swarm there, the same version as here: a lane\'s agent reports through it, on the PATH a command run by ssh gets there');
    expect(run.stdout).toContain(`problem: host box: checkout ${remoteCheckout} of lane-b is not a folder\n  fix: create it there (git clone, or git worktree add)`);
    expect(run.code).toBe(4);
  });

  it('swarm doctor: a key the host does not know is one problem, ssh\'s own line in it, with what to do', async () => {
    const other = join(work.dir, 'other_key');
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    writeFileSync(join(work.dir, 'swarm.yaml'), yaml({ identity: other, options: sshd.host.options }));
    const run = await cli(['doctor']);
    writeFileSync(join(work.dir, 'swarm.yaml'), yaml());
    expect(run.stdout).toContain('problem: host box: ssh asked for a password or a passphrase (BatchMode): root@127.0.0.1: Permission denied (publickey).\n  fix: add a key the agent can use without a prompt (ssh-agent, or identity:)');
    expect(run.code).toBe(1);
  });

  it('swarm up checks the host first (its preflight): a host without swarm refuses the start (exit 4), nothing started', async () => {
    const run = await cli(['up', '--headless']);
    expect(run.stderr).toContain('swarm up: the preflight found');
    expect(run.stderr).toContain('host box: swarm not found');
    expect(run.code).toBe(4);
    expect(existsSync(join(work.dir, 'plan', '.swarm', 'state.json'))).toBe(false);
    expect(existsSync(join(work.dir, 'plan', 'journal.jsonl'))).toBe(false);
  });

  it('ssh wrote nothing to ~/.ssh', () => {
    expect(sshDirState()).toEqual(sshBefore);
  });
});

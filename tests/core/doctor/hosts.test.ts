/**
 * doctor's checks of a lane's host (SPEC 10.9), from what one ssh round trip came back with: every
 * way ssh fails to get there as one problem naming its last line, then each tool, CLI and checkout.
 */
import { describe, expect, it } from 'vitest';
import { hostChecks, type HostFact } from '../../../src/core/doctor/hosts.js';
import { doctorReport, formatDoctor } from '../../../src/core/doctor/doctor.js';

const ALL: Record<string, string> = {
  tmux: '/usr/bin/tmux', 'tmux.version': 'tmux 3.3a', node: '/usr/bin/node', 'node.version': 'v20.11.1',
  swarm: '/usr/local/bin/swarm', 'swarm.version': 'swarm 0.1.0', git: '/usr/bin/git', 'cli.claude': '/usr/bin/claude',
  'checkout.0': 'git', 'checkout.1': 'git',
};

function probe(values: Record<string, string> = {}, drop: string[] = []): string {
  const all = { ...ALL, ...values };
  const lines = Object.entries(all).filter(([k]) => !drop.includes(k)).map(([k, v]) => `swarm-probe.${k}=${v}`);
  return ['Welcome to gpu1', 'swarm-probe.begin=1', ...lines, 'swarm-probe.end=1', ''].join('\n');
}

function fact(ssh: Partial<HostFact['ssh']> = {}): HostFact {
  return {
    name: 'gpu1', shown: 'me@gpu1 -p 2222',
    checkouts: [{ lane: 'lane-b', checkout: '/srv/b' }, { lane: 'lane-c', checkout: '/srv/c' }],
    clis: [{ cli: 'claude', lanes: ['lane-b', 'lane-c'] }],
    ssh: { code: 0, stdout: probe(), stderr: '', timedOut: false, timeoutS: 20, ...ssh },
  };
}

const said = (f: HostFact) => {
  const v = hostChecks([f]);
  return { problems: v.problems.map((p) => `${p.what} | ${p.fix}`), warnings: v.warnings.map((p) => `${p.what} | ${p.fix}`) };
};

const CHECK = 'ssh me@gpu1 -p 2222 true must exit 0 without asking anything';
const ON_PATH = (tool: string) => `on the PATH a command run by ssh gets there (see: ssh me@gpu1 -p 2222 'command -v ${tool}'; an interactive shell's PATH may differ)`;

describe('hostChecks: ssh did not get there', () => {
  it.each<[string, Partial<HostFact['ssh']>, string]>([
    ['a password or passphrase needed', { code: 255, stdout: '', stderr: 'Warning: Permanently added \'gpu1\' (ED25519) to the list of known hosts.\r\nme@gpu1: Permission denied (publickey,password).\r\n' },
      `host gpu1: ssh asked for a password or a passphrase (BatchMode): me@gpu1: Permission denied (publickey,password). | add a key the agent can use without a prompt (ssh-agent, or identity:) to the host's authorized_keys; ${CHECK}`],
    ['an unknown host key', { code: 255, stdout: '', stderr: 'No ED25519 host key is known for [gpu1]:2222 and you have requested strict checking.\nHost key verification failed.\n' },
      'host gpu1: its host key is not known here (BatchMode never asks): Host key verification failed. | connect once yourself (ssh me@gpu1 -p 2222), check the key and accept it into your known_hosts'],
    ['connection refused', { code: 255, stdout: '', stderr: 'ssh: connect to host gpu1 port 2222: Connection refused\n' },
      `host gpu1: ssh could not connect: ssh: connect to host gpu1 port 2222: Connection refused | check the address, the port and the network; ${CHECK}`],
    ['an unknown name, escape codes around it', { code: 255, stdout: '', stderr: '\x1b[31mssh: Could not resolve hostname gpu1: Name or service not known\x1b[0m\n\n' },
      `host gpu1: ssh could not connect: ssh: Could not resolve hostname gpu1: Name or service not known | check the address, the port and the network; ${CHECK}`],
    ['ssh silent', { code: 255, stdout: '', stderr: '' }, `host gpu1: ssh could not connect (it said nothing) | check the address, the port and the network; ${CHECK}`],
    ['no answer in time', { code: null, stdout: '', stderr: '', timedOut: true }, `host gpu1: ssh gave no answer within 20 s | check the host is up and reachable; ${CHECK}`],
    ['ssh could not be started', { code: null, stdout: '', stderr: '\nspawn /usr/bin/ssh EACCES' }, `host gpu1: ssh could not connect: spawn /usr/bin/ssh EACCES | check the address, the port and the network; ${CHECK}`],
    ['logged in, the shell did not run the probe', { code: 127, stdout: 'Welcome\n', stderr: 'sh: 1: sh: not found\n' },
      'host gpu1: ssh logged in, but swarm\'s probe did not run through (exit 127): sh: 1: sh: not found | make sure the account\'s shell runs commands given by ssh (sh -c …): a startup file that exits, prints a prompt or starts another program stops them'],
    ['logged in, the probe cut short', { code: 0, stdout: probe().replace('swarm-probe.end=1', ''), stderr: '' },
      'host gpu1: ssh logged in, but swarm\'s probe did not run through | make sure the account\'s shell runs commands given by ssh (sh -c …): a startup file that exits, prints a prompt or starts another program stops them'],
  ])('%s: one problem, ssh\'s last line in it', (_what, ssh, problem) => {
    expect(said(fact(ssh))).toEqual({ problems: [problem], warnings: [] });
  });
});

describe('hostChecks: the host reached', () => {
  it('all there: ok lines only', () => {
    const v = hostChecks([fact()]);
    expect(v.problems).toEqual([]);
    expect(v.warnings).toEqual([]);
    expect(v.checks).toEqual([
      { ok: true, line: 'host gpu1: ssh me@gpu1 -p 2222: logged in without a prompt' },
      { ok: true, line: 'host gpu1: tmux: /usr/bin/tmux (tmux 3.3a)' },
      { ok: true, line: 'host gpu1: node: /usr/bin/node (v20.11.1)' },
      { ok: true, line: 'host gpu1: swarm: /usr/local/bin/swarm (swarm 0.1.0)' },
      { ok: true, line: 'host gpu1: claude: /usr/bin/claude' },
      { ok: true, line: 'host gpu1: checkout /srv/b of lane-b: a git worktree' },
      { ok: true, line: 'host gpu1: checkout /srv/c of lane-c: a git worktree' },
    ]);
  });

  it.each<[string, Record<string, string>, string[], { problems?: string[]; warnings?: string[] }]>([
    ['tmux missing', { tmux: '' }, [], { problems: [`host gpu1: tmux not found | install tmux there (e.g. apt-get install tmux): lanes on this host run in a tmux server there, ${ON_PATH('tmux')}`] }],
    ['node missing', { node: '' }, [], { problems: [`host gpu1: node not found | install Node.js 20 or later there: swarm runs on it, ${ON_PATH('node')}`] }],
    ['node too old', { 'node.version': 'v18.19.0' }, [], { problems: ['host gpu1: node v18.19.0 is older than 20 | install Node.js 20 or later there (swarm needs it), first on the PATH ssh commands get'] }],
    ['swarm missing', { swarm: '' }, [], { problems: [`host gpu1: swarm not found | install swarm there, the same version as here: a lane's agent reports through it, ${ON_PATH('swarm')}`] }],
    ['a CLI missing', { 'cli.claude': '' }, [], { problems: [`host gpu1: claude not found (lanes lane-b, lane-c may run it) | npm install -g @anthropic-ai/claude-code there, ${ON_PATH('claude')}`] }],
    ['a checkout missing', { 'checkout.1': 'missing' }, [], { problems: ['host gpu1: checkout /srv/c of lane-c is not a folder | create it there (git clone, or git worktree add), or fix the lane\'s checkout: in swarm.yaml (an absolute path on that host)'] }],
    ['a checkout the probe did not tell', {}, ['checkout.1'], { problems: ['host gpu1: checkout /srv/c of lane-c is not a folder (the probe did not say) | create it there (git clone, or git worktree add), or fix the lane\'s checkout: in swarm.yaml (an absolute path on that host)'] }],
    ['a checkout no git worktree', { 'checkout.0': 'folder' }, [], { warnings: ['host gpu1: checkout /srv/b of lane-b is not in a git worktree | make it one there (git clone, or git worktree add): a lane\'s work travels by git'] }],
    ['git missing', { git: '', 'checkout.0': 'folder', 'checkout.1': 'folder' }, [], { warnings: ['host gpu1: git not found: its checkouts cannot be told to be git worktrees | install git there: a lane\'s work travels by git'] }],
    ['a key missing: said as not found', {}, ['swarm'], { problems: [`host gpu1: swarm not found | install swarm there, the same version as here: a lane's agent reports through it, ${ON_PATH('swarm')}`] }],
  ])('%s', (_what, values, drop, expected) => {
    expect(said(fact({ stdout: probe(values, drop) }))).toEqual({ problems: expected.problems ?? [], warnings: expected.warnings ?? [] });
  });

  it('a missing tool or CLI there is a tool problem (doctor exits 4), a missing checkout is not', () => {
    const v = hostChecks([fact({ stdout: probe({ tmux: '', 'cli.claude': '', 'checkout.0': 'missing' }) })]);
    expect(v.problems.map((p) => [p.host, p.tool, p.lane])).toEqual([['gpu1', 'tmux', undefined], ['gpu1', 'claude', undefined], ['gpu1', undefined, 'lane-b']]);
  });

  it('shows a checkout holding a newline quoted, on one line', () => {
    const f = { ...fact({ stdout: probe({ 'checkout.0': 'missing' }) }), checkouts: [{ lane: 'lane-b', checkout: '/srv/a\nb' }] };
    expect(hostChecks([f]).problems[0]?.what).toBe('host gpu1: checkout "/srv/a\\nb" of lane-b is not a folder');
  });
});

describe('doctorReport with hosts', () => {
  it('adds the hosts\' checks after the accounts, and their problems fail it', () => {
    const base = { tools: [], accounts: [], approvals: { present: true, problems: [], claudeMode: null }, realKinds: [], runningAsRoot: false };
    const report = doctorReport({ ...base, hosts: [fact({ stdout: probe({ swarm: '' }) })] });
    expect(report.ok).toBe(false);
    expect(formatDoctor(report)).toContain('FAIL host gpu1: swarm: not found\n');
    expect(formatDoctor(report)).toContain('problem: host gpu1: swarm not found\n  fix: install swarm there');
    expect(doctorReport({ ...base, hosts: [fact()] }).ok).toBe(true);
  });
});

/**
 * `hosts:` and a lane's `host:` in swarm.yaml (SPEC 10.9): what is read, and every problem at its line
 * and column with what to do. A host lane's checkout is a path there: never resolved nor looked for here.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigFacts, type SwarmConfig } from '../../../src/core/config/config.js';

/** Only these exist on "this machine": no /srv at all. */
const DIRS = ['/w', '/w/plans/demo', '/w/a', '/w/b'];
const facts: ConfigFacts = { isDirectory: (p) => DIRS.includes(p), kindExists: () => true, kindLaunches: () => true, home: '/home/u', env: {} };

/** Line numbers below refer to this file. */
const BASE = [
  'version: 1', //                                            1
  'name: demo', //                                            2
  'plan: plans/demo', //                                      3
  'accounts:', //                                             4
  '  - { id: work1, kind: claude, vendor: anthropic }', //    5
  '  - { id: work2, kind: codex, vendor: openai }', //        6
  'lead: { account: work1 }', //                              7
  'hosts:', //                                                8
  '  gpu1:', //                                               9
  '    ssh: me@gpu1.lan', //                                 10
  '    port: 2222', //                                       11
  '    identity: ~/.ssh/id_gpu1', //                         12
  '    options: [ServerAliveInterval=15, "ProxyJump=me@jump.lan"]', // 13
  '  box: { ssh: root@127.0.0.1 }', //                       14
  'lanes:', //                                               15
  '  - name: lane-a', //                                     16
  '    checkout: a', //                                      17
  '    task: Steps 1-3', //                                  18
  '  - name: lane-b', //                                     19
  '    host: gpu1', //                                       20
  '    checkout: /srv/work/b/', //                           21
  '    task: Steps 4-5', //                                  22
  '',
].join('\n');

function edit(n: number, ...lines: string[]): string {
  const all = BASE.split('\n');
  all.splice(n - 1, 1, ...lines);
  return all.join('\n');
}

function problems(text: string): string[] {
  const result = parseConfig(text, '/w/swarm.yaml', facts);
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

function config(text: string): SwarmConfig {
  const result = parseConfig(text, '/w/swarm.yaml', facts);
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return result.config;
}

const NAME_RULE = 'a name of letters, digits, ".", "_" and "-" that starts with a letter or digit';
const OPTION_RULE = 'an ssh option as KEY=VALUE, e.g. ConnectionAttempts=2 (what ssh -o takes; never a flag of its own)';

describe('hosts: read', () => {
  it('reads each host as written and the lane\'s host, its checkout kept as a path there', () => {
    const c = config(BASE);
    expect(c.hosts).toEqual([
      { name: 'gpu1', ssh: 'me@gpu1.lan', port: 2222, identity: '~/.ssh/id_gpu1', options: ['ServerAliveInterval=15', 'ProxyJump=me@jump.lan'] },
      { name: 'box', ssh: 'root@127.0.0.1', port: null, identity: null, options: [] },
    ]);
    expect(c.lanes).toEqual([
      { name: 'lane-a', checkout: '/w/a', task: 'Steps 1-3', account: null, command: null, doneWhen: null },
      { name: 'lane-b', checkout: '/srv/work/b', task: 'Steps 4-5', account: null, command: null, doneWhen: null, host: 'gpu1' },
    ]);
  });

  it.each([
    ['CRLF line endings', BASE.replace(/\n/g, '\r\n')],
    ['trailing spaces', BASE.replace(/\n/g, '  \n')],
    ['a host: null lane key written out on a local lane', edit(17, '    checkout: a', '    host: null')],
  ])('loads a file with %s', (_what, text) => {
    expect(config(text)).toEqual(config(BASE));
  });

  it.each([
    ['absent', [...BASE.split('\n').slice(0, 7), ...BASE.split('\n').slice(14, 18)].join('\n')],
    ['empty', [...BASE.split('\n').slice(0, 7), 'hosts: {}', ...BASE.split('\n').slice(14, 18)].join('\n')],
    ['null', [...BASE.split('\n').slice(0, 7), 'hosts:', ...BASE.split('\n').slice(14, 18)].join('\n')],
  ])('hosts %s: none, and the config has no hosts at all', (_what, text) => {
    const c = config(text);
    expect(c.hosts).toBeUndefined();
    expect(c.lanes.map((l) => l.host)).toEqual([undefined]);
  });

  it('takes hosts no lane uses, and a host named like a lane', () => {
    const c = config(edit(14, '  box: { ssh: root@127.0.0.1 }', '  lane-a: { ssh: me@other }'));
    expect(c.hosts?.map((h) => h.name)).toEqual(['gpu1', 'box', 'lane-a']);
  });

  it('lets lanes on different machines have one checkout path, and keeps a host lane out of the lead\'s default succession', () => {
    const text = edit(21, '    checkout: /w').replace('  - name: lane-a\n    checkout: a', '  - name: lane-a\n    checkout: /w');
    const c = config(text.replace('lead: { account: work1 }', 'lead: { account: work1, checkout: /w }'));
    expect(c.lanes.map((l) => [l.name, l.checkout, l.host])).toEqual([['lane-a', '/w', undefined], ['lane-b', '/w', 'gpu1']]);
    expect(c.lead.succession).toEqual(['lead-b', 'lane-a']);
  });
});

describe('hosts: every problem at its line and column, with what to do', () => {
  it.each<[string, string, string[]]>([
    ['hosts as a list', edit(9, '  - gpu1').split('\n').filter((_, i) => i < 9 || i > 13).join('\n').replace('    host: gpu1\n    checkout: /srv/work/b/', '    checkout: b'),
      ['9:3: "hosts" must be a mapping of host names to how ssh reaches each, e.g. hosts: { gpu1: { ssh: me@gpu1.lan } }, got a list']],
    ['hosts as a string', [...BASE.split('\n').slice(0, 7), 'hosts: gpu1', ...BASE.split('\n').slice(14, 18)].join('\n'),
      ['8:8: "hosts" must be a mapping of host names to how ssh reaches each, e.g. hosts: { gpu1: { ssh: me@gpu1.lan } }, got "gpu1"']],
    ['a host name with a space', edit(14, '  "my box": { ssh: root@127.0.0.1 }'), [`14:3: host name "my box" must be ${NAME_RULE}`]],
    ['a host that is no mapping', edit(14, '  box: root@127.0.0.1'), ['14:8: "hosts.box" must be a mapping of keys, got "root@127.0.0.1"']],
    ['a host with no ssh', edit(14, '  box: { port: 22 }'), ['14:8: missing "ssh" in hosts.box: say how ssh reaches it: ssh: user@host (or a Host of your ssh config), e.g. hosts: { gpu1: { ssh: me@gpu1.lan } }']],
    ['an empty ssh', edit(14, '  box: { ssh: "" }'), ['14:15: "hosts.box.ssh" must be a non-empty string, got ""']],
    ['an ssh with a space', edit(10, '    ssh: me @gpu1.lan'), ['10:10: "hosts.gpu1.ssh" must be an ssh destination with no spaces (user@host, or a Host of your ssh config), got "me @gpu1.lan"']],
    ['an ssh with a trailing space inside quotes', edit(10, '    ssh: "me@gpu1.lan "'), ['10:10: "hosts.gpu1.ssh" must be an ssh destination with no spaces (user@host, or a Host of your ssh config), got "me@gpu1.lan "']],
    ['an ssh that is an option', edit(10, '    ssh: -oProxyCommand=sh'), ['10:10: "hosts.gpu1.ssh" starts with "-", which ssh would read as an option: give user@host']],
    ['port 0', edit(11, '    port: 0'), ['11:11: "hosts.gpu1.port" must be a port number from 1 to 65535 (ssh\'s default is 22), got 0']],
    ['port 65536', edit(11, '    port: 65536'), ['11:11: "hosts.gpu1.port" must be a port number from 1 to 65535 (ssh\'s default is 22), got 65536']],
    ['port as a string', edit(11, '    port: "22"'), ['11:11: "hosts.gpu1.port" must be a port number from 1 to 65535 (ssh\'s default is 22), got "22"']],
    ['a relative identity', edit(12, '    identity: keys/gpu1'), ['12:15: "hosts.gpu1.identity" must be the path of a private key on this machine, absolute or under ~/ (e.g. ~/.ssh/id_ed25519), got "keys/gpu1"']],
    ['an identity of ~ alone', edit(12, '    identity: "~"'), ['12:15: "hosts.gpu1.identity" must be the path of a private key on this machine, absolute or under ~/ (e.g. ~/.ssh/id_ed25519), got "~"']],
    ['options not a list', edit(13, '    options: ServerAliveInterval=15'), ['13:14: "hosts.gpu1.options" must be a list, got "ServerAliveInterval=15"']],
    ['an option without =', edit(13, '    options: [ServerAliveInterval]'), [`13:15: "hosts.gpu1.options[0]" must be ${OPTION_RULE}, got "ServerAliveInterval"`]],
    ['an option that is a flag', edit(13, '    options: ["-oProxyCommand=sh"]'), [`13:15: "hosts.gpu1.options[0]" must be ${OPTION_RULE}, got "-oProxyCommand=sh"`]],
    ['an option with a newline', edit(13, '    options: ["User=me\\nHost=x"]'), [`13:15: "hosts.gpu1.options[0]" must be ${OPTION_RULE}, got "User=me Host=x"`]],
    ['an option that is a number', edit(13, '    options: [15]'), [`13:15: "hosts.gpu1.options[0]" must be ${OPTION_RULE}, got 15`]],
    ['BatchMode in options', edit(13, '    options: [BatchMode=no]'), ['13:15: "hosts.gpu1.options[0]": BatchMode is always yes: swarm never answers a prompt, so every login must work without one; remove this option']],
    ['connecttimeout in options', edit(13, '    options: [connecttimeout=60]'), ['13:15: "hosts.gpu1.options[0]": swarm sets ConnectTimeout itself, so a host that does not answer is told in seconds; remove this option']],
    ['an unknown key in a host', edit(12, '    identiy: ~/.ssh/id_gpu1'), ['12:5: unknown key "identiy" in hosts.gpu1; did you mean "identity"?']],
    ['a lane on an undeclared host', edit(20, '    host: gpu2'), ['20:11: unknown host "gpu2" for lane "lane-b": the hosts are gpu1, box; did you mean "gpu1"?']],
    ['a lane on a host when none is declared', [...BASE.split('\n').slice(0, 7), ...BASE.split('\n').slice(14)].join('\n'),
      ['13:11: lane "lane-b" runs on host "gpu1", but swarm.yaml declares no hosts: add hosts: { gpu1: { ssh: user@host } }, or remove "host" to run it here']],
    ['a lane host that is no name', edit(20, '    host: "gpu 1"'), [`20:11: "lanes[1].host" must be ${NAME_RULE}, got "gpu 1"`]],
    ['a host lane with no checkout', edit(21), ['19:5: missing "checkout" in lanes[1]: lane "lane-b" runs on host "gpu1": give its checkout there, an absolute path, e.g. checkout: /srv/work/lane-b']],
    ['a host lane with a relative checkout', edit(21, '    checkout: b'), ['21:15: checkout "b" of lane "lane-b" must be an absolute path on host "gpu1" (it is never resolved on this machine): e.g. checkout: /srv/work/lane-b']],
    ['a host lane with a checkout under ~', edit(21, '    checkout: ~/work/b'), ['21:15: checkout "~/work/b" of lane "lane-b" must be an absolute path on host "gpu1" (it is never resolved on this machine): e.g. checkout: /srv/work/lane-b']],
    ['an undeclared host and a relative checkout: both said', edit(20, '    host: gpu3', '    checkout: b').replace('    checkout: /srv/work/b/\n', ''), [
      '20:11: unknown host "gpu3" for lane "lane-b": the hosts are gpu1, box; did you mean "gpu1"?',
      '21:15: checkout "b" of lane "lane-b" must be an absolute path on another host (it is never resolved on this machine): e.g. checkout: /srv/work/lane-b',
    ]],
    ['two lanes of one host on one checkout', edit(17, '    host: gpu1', '    checkout: /srv/work/b'), ['22:15: lanes "lane-a" and "lane-b" share the checkout /srv/work/b on host "gpu1": give each lane its own (use git worktrees)']],
    ['a lane key close to host', edit(20, '    hots: gpu1'), [
      '20:5: unknown key "hots" in lanes[1]; did you mean "host"?',
      '21:15: checkout "/srv/work/b/" of lane "lane-b" is not a directory (looked for /srv/work/b): create it (e.g. git worktree add) or fix "checkout"',
    ]],
    ['the lead on a host', edit(7, 'lead: { account: work1, host: gpu1 }'), ['7:25: unknown key "host" in lead: the lead runs on the engine\'s host (this machine); only lanes take host:']],
  ])('%s', (_what, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });
});

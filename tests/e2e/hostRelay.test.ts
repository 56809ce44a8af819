/**
 * The host relay (SPEC 10.9): the plan folder's files between the engine's machine and a lane's host
 * over one ssh channel, run for real — `swarm host-relay P` over a real sshd (tests/helpers/sshd.ts)
 * whose mount namespace has a tmpfs of its own on the folder P lies in: here P is an ordinary
 * folder, on the "host" an empty one, two machines' views of one path. And run here as a plain
 * child, where P is the engine's own folder (the "shared" case: ssh to this machine).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostRelay } from '../../src/adapters/hostRelay.js';
import { readStat } from '../../src/adapters/procStatFile.js';
import { RELAY_PROTOCOL } from '../../src/core/host/relay.js';
import { remoteCommand, shQuote, sshArgv } from '../../src/core/host/ssh.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { CLI, tempDir } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

let sshd: Sshd;
let work: ReturnType<typeof tempDir>;
/** P: the same absolute path here and there; the private folder it lies in is another tmpfs on the host. */
let P = '';
const SPOOL = '.swarm/spool/r1/a-g1';
const TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const relays: HostRelay[] = [];

/** Run a shell line on the host; it must succeed. */
function there(command: string): string {
  const run = sshd.ssh(command);
  if (run.code !== 0) throw new Error(`ssh ${command}: exit ${run.code}: ${run.stderr}`);
  return run.stdout;
}

const local = (path: string): string => join(P, path);
const readLocal = (path: string): Buffer | null => (existsSync(local(path)) ? readFileSync(local(path)) : null);
const q = (path: string): string => shQuote(join(P, path));

interface Connected { relay: HostRelay; changed: string[]; closes: [string, boolean][] }

/** `swarm host-relay P` over ssh; `tee`: a file that gets a copy of every frame the host sends. */
async function connect(options: { tee?: string; plan?: string; argv?: string[] } = {}): Promise<Connected> {
  const plan = options.plan ?? P;
  const ssh = sshArgv(sshd.host, remoteCommand(['swarm', 'host-relay', plan]), homedir());
  const argv = options.argv ?? (options.tee === undefined ? ssh : ['sh', '-c', '"$@" | tee "$0"', options.tee, ...ssh]);
  const changed: string[] = [];
  const closes: [string, boolean][] = [];
  const relay = await HostRelay.connect({
    argv, env: { PATH: process.env.PATH, HOME: process.env.HOME }, plan, host: 'box', token: TOKEN,
    onChanged: (paths) => void changed.push(...paths), onClose: (reason, expected) => void closes.push([reason, expected]),
  });
  relays.push(relay);
  return { relay, changed, closes };
}

/** The append frames a tee file holds for `path`: each one's offset and length. */
function appendsIn(tee: string, path: string): [number, number][] {
  return readFileSync(tee, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { t: string; path?: string; at?: number; data?: string })
    .filter((f) => f.t === 'append' && f.path === path).map((f) => [f.at!, Buffer.from(f.data!, 'base64').length]);
}

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  work = tempDir('swarm-relay-');
  // The host's `swarm`: this checkout's, on the PATH its ssh sessions get.
  const bin = join(work.dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'swarm'), `#!/bin/sh\nexec ${shQuote(process.execPath)} ${shQuote(CLI)} "$@"\n`, { mode: 0o755 });
  sshd = await startSshd({ path: () => [bin] });
  P = join(sshd.privateDir, 'plan');
  mkdirSync(join(P, '.swarm'), { recursive: true });
  writeFileSync(join(P, '.swarm', 'host-token'), `${TOKEN}\n`);
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

afterAll(async () => {
  await sshd?.stop();
  work?.cleanup();
});

describe('over ssh: P here and P on the host are two folders', () => {
  it('hello: the host\'s facts; the host\'s own swarm written there for its agents, nothing here', async () => {
    const { relay } = await connect();
    expect(relay.facts).toMatchObject({
      hostname: hostname(), pidns: readlinkSync('/proc/self/ns/pid'), home: '/root', node: process.execPath, bin: CLI,
      version: '0.1.0', protocol: RELAY_PROTOCOL, shared: false,
    });
    expect(relay.facts.env.PATH?.split(':')).toContain(join(work.dir, 'bin')); // sshd's SetEnv, whatever the login shell adds
    expect(there(`cat ${q('.swarm/bin/swarm')} && stat -c %a ${q('.swarm/bin/swarm')}`)).toBe(`#!/bin/sh\nexec ${shQuote(process.execPath)} ${shQuote(CLI)} "$@"\n755\n`);
    expect(existsSync(local('.swarm/bin/swarm'))).toBe(false);
    expect(there(`cat ${q('.swarm/host-token')} 2>&1 || true`)).toMatch(/No such file/);
  });

  it('push: the files written on the host, with their modes, a big one in pieces; nothing here', async () => {
    const { relay } = await connect();
    const plan = Buffer.from(`# plan\n${'x'.repeat(700 * 1024)}\n`);
    await relay.push([
      { path: '.swarm/mailbox/lane-a.md', data: Buffer.from('hello lane-a\n'), mode: 0o600 },
      { path: 'PLAN.md', data: plan },
      { path: '.swarm/prompts/run-1/lane-a-g1.md', data: Buffer.alloc(0) },
    ]);
    expect(there(`cat ${q('.swarm/mailbox/lane-a.md')}; stat -c %a ${q('.swarm/mailbox/lane-a.md')} ${q('PLAN.md')} ${q('.swarm/prompts/run-1/lane-a-g1.md')}`))
      .toBe('hello lane-a\n600\n644\n644\n');
    expect(there(`sha256sum < ${q('PLAN.md')}`).split(' ')[0]).toBe(sha(plan));
    expect(existsSync(local('.swarm/mailbox/lane-a.md'))).toBe(false);
    expect(existsSync(local('PLAN.md'))).toBe(false);
  });

  it('appends made on the host reach the copy here byte for byte, promptly; a torn last line completes', async () => {
    const { relay, changed } = await connect();
    expect(relay.facts.shared).toBe(false);
    const file = `${SPOOL}/records.jsonl`;
    there(`mkdir -p ${q(SPOOL)} && printf '{"kind":"progress","n":1}\\n' >> ${q(file)}`);
    const sent = Date.now();
    await waitFor(() => readLocal(file)?.toString() === '{"kind":"progress","n":1}\n', { what: 'the first record here' });
    const took = Date.now() - sent;
    expect(changed).toContain(file);
    console.log(`a record appended on the host was here ${took} ms after its ssh command returned`);
    expect(took).toBeLessThan(1500); // the watch, not the 2 s look

    there(`printf '{"kind":"progress","n":2,' >> ${q(file)}`);
    await waitFor(() => readLocal(file)?.toString().endsWith('"n":2,'), { what: 'the torn line here as it is' });
    there(`printf '"x":"ü"}\\n' >> ${q(file)}`);
    await waitFor(() => readLocal(file)?.toString().endsWith('"x":"ü"}\n'), { what: 'the line completed' });
    expect(readLocal(file)).toEqual(Buffer.from(there(`cat ${q(file)}`)));

    // More than a frame's worth at once, and a usage file a folder down.
    there(`head -c 700000 /dev/urandom | base64 -w 100 >> ${q(file)} && mkdir -p ${q(`${SPOOL}/usage`)} && printf 'u1\\n' >> ${q(`${SPOOL}/usage/usage.jsonl`)}`);
    const want = there(`sha256sum < ${q(file)}`).split(' ')[0];
    await waitFor(() => sha(readLocal(file) ?? '') === want, { what: 'the big append here' });
    await waitFor(() => readLocal(`${SPOOL}/usage/usage.jsonl`)?.toString() === 'u1\n', { what: 'the usage record here' });
  });

  it('a restart, told the sizes here, sends only what is new: no duplicate, no gap', async () => {
    const file = `${SPOOL}/records.jsonl`;
    const before = readLocal(file)!.length;
    there(`printf '{"kind":"progress","n":3}\\n{"kind":"progress","n":4}\\n' >> ${q(file)}`); // written while no relay runs
    const tee = join(work.dir, 'frames-restart.jsonl');
    await connect({ tee });
    await waitFor(() => readLocal(file)?.toString().endsWith('"n":4}\n'), { what: 'the records written meanwhile here' });
    expect(readLocal(file)).toEqual(Buffer.from(there(`cat ${q(file)}`)));
    expect(appendsIn(tee, file)).toEqual([[before, 52]]);
    expect(appendsIn(tee, `${SPOOL}/usage/usage.jsonl`)).toEqual([]);
  });

  it('a packet, an acceptance record, a capacity reading rewritten: each whole here, the last version', async () => {
    const { changed } = await connect();
    const packet = `analysis_results/handoff/a-g1-20260101T000000Z.yaml`;
    const big = `${SPOOL}/packets/big.yaml`;
    there([
      `mkdir -p ${q('analysis_results/handoff')} ${q(`${SPOOL}/packets`)} ${q('.swarm/capacity')}`,
      `printf 'reason: capacity\\nnext: [a]\\n' > ${q(packet)} && chmod 600 ${q(packet)}`,
      `printf '{"packet":"x"}\\n' > ${q('analysis_results/handoff/a-g1-20260101T000000Z.accepted.json')}`,
      `head -c 600000 /dev/urandom > ${q(big)}`,
      `printf '{"state":"ok","n":1}\\n' > ${q('.swarm/capacity/c1.json.tmp')} && mv ${q('.swarm/capacity/c1.json.tmp')} ${q('.swarm/capacity/c1.json')}`,
    ].join(' && '));
    await waitFor(() => readLocal(packet)?.toString() === 'reason: capacity\nnext: [a]\n', { what: 'the packet here' });
    await waitFor(() => (statSync(local(packet)).mode & 0o777) === 0o600, { what: 'the packet\'s mode, changed there after it was written, here too' });
    await waitFor(() => readLocal('analysis_results/handoff/a-g1-20260101T000000Z.accepted.json')?.toString() === '{"packet":"x"}\n', { what: 'the acceptance here' });
    const bigSha = there(`sha256sum < ${q(big)}`).split(' ')[0];
    await waitFor(() => sha(readLocal(big) ?? '') === bigSha, { what: 'the big packet here, whole' });
    await waitFor(() => readLocal('.swarm/capacity/c1.json')?.toString() === '{"state":"ok","n":1}\n', { what: 'the capacity reading here' });
    there(`printf '{"state":"low","n":2}\\n' > ${q('.swarm/capacity/c1.json.tmp')} && mv ${q('.swarm/capacity/c1.json.tmp')} ${q('.swarm/capacity/c1.json')}`);
    await waitFor(() => readLocal('.swarm/capacity/c1.json')?.toString() === '{"state":"low","n":2}\n', { what: 'the capacity reading rewritten here' });
    expect(existsSync(local('.swarm/capacity/c1.json.tmp'))).toBe(false);
    expect(changed).toEqual(expect.arrayContaining([packet, big, '.swarm/capacity/c1.json']));
  });

  it('a link an agent leaves in its spool is not followed there, nor a folder of the host\'s plan that is a link written through', async () => {
    const secret = join(sshd.privateDir, 'secret');
    const outside = join(sshd.privateDir, 'outside');
    there([
      `printf 'SECRET KEY\\n' > ${shQuote(secret)} && mkdir -p ${shQuote(outside)} && printf 'OUTSIDE\\n' > ${shQuote(`${outside}/records.jsonl`)}`,
      `mkdir -p ${q(`${SPOOL}/packets`)} ${q('.swarm/capacity')} ${q('.swarm/spool/r1')}`,
      `ln -s ${shQuote(secret)} ${q(`${SPOOL}/packets/evil.yaml`)}`,
      `ln -s ../../../../../../secret ${q(`${SPOOL}/packets/climb.yaml`)}`,
      `ln -s ${shQuote(secret)} ${q('.swarm/capacity/evil.json')}`,
      `ln -s ${shQuote(secret)} ${q(`${SPOOL}/evil.jsonl`)}`,
      `ln -s ${shQuote(outside)} ${q('.swarm/spool/r1/evil-g1')}`,
      `ln -s ${shQuote(outside)} ${q('.swarm/agents')}`,
    ].join(' && '));
    expect(there(`cat ${q(`${SPOOL}/packets/climb.yaml`)} ${q('.swarm/spool/r1/evil-g1/records.jsonl')}`)).toBe('SECRET KEY\nOUTSIDE\n'); // the links do reach out
    const { relay } = await connect();
    // Plain files made beside each link after it: once they are here, each link was looked at.
    there([
      `printf 'ok\\n' > ${q(`${SPOOL}/packets/ok.yaml`)}`, `printf '{}\\n' > ${q('.swarm/capacity/ok.json')}`,
      `mkdir -p ${q('.swarm/spool/r1/z-g1')} && printf 'z\\n' > ${q('.swarm/spool/r1/z-g1/records.jsonl')}`, `printf 'a\\n' >> ${q(`${SPOOL}/records.jsonl`)}`,
    ].join(' && '));
    await waitFor(() => readLocal(`${SPOOL}/packets/ok.yaml`) && readLocal('.swarm/capacity/ok.json') && readLocal('.swarm/spool/r1/z-g1/records.jsonl')
      && readLocal(`${SPOOL}/records.jsonl`)?.toString().endsWith('\na\n'), { what: 'the plain files beside the links here' });
    for (const path of [`${SPOOL}/packets/evil.yaml`, `${SPOOL}/packets/climb.yaml`, '.swarm/capacity/evil.json', `${SPOOL}/evil.jsonl`, '.swarm/spool/r1/evil-g1']) {
      expect(existsSync(local(path)), path).toBe(false);
    }
    await expect(relay.push([{ path: '.swarm/agents/1.json', data: Buffer.from('{}') }])).rejects.toThrow(/^the host did not write \.swarm\/agents\/1\.json: /);
    expect(there(`ls ${shQuote(outside)}`)).toBe('records.jsonl\n');
  });

  it('a link here is not written through either', async () => {
    const outside = join(work.dir, 'outside-here');
    mkdirSync(outside);
    const { symlinkSync } = await import('node:fs');
    symlinkSync(outside, local('.swarm/spool/r1/b-g1'));
    const { changed } = await connect();
    there(`mkdir -p ${q('.swarm/spool/r1/b-g1')} && printf 'b\\n' > ${q('.swarm/spool/r1/b-g1/records.jsonl')} && printf 'after\\n' >> ${q(`${SPOOL}/records.jsonl`)}`);
    await waitFor(() => readLocal(`${SPOOL}/records.jsonl`)?.toString().endsWith('after\n'), { what: 'a record written after it here' });
    expect(existsSync(join(outside, 'records.jsonl'))).toBe(false);
    expect(changed).not.toContain('.swarm/spool/r1/b-g1/records.jsonl');
    rmSync(local('.swarm/spool/r1/b-g1'));
  });

  it('processNow: a process of the host as its /proc tells it; null once it is gone', async () => {
    const { relay } = await connect();
    const pid = Number(there('sleep 300 </dev/null >/dev/null 2>&1 & echo $!').trim());
    try {
      const stat = readStat(pid); // one pid namespace with the test's sshd: /proc here tells the same
      expect(await relay.processNow(pid)).toEqual({ pid, startTicks: stat!.startTicks });
    } finally {
      there(`kill ${pid}`);
    }
    await waitFor(async () => (await relay.processNow(pid)) === null, { what: 'the process gone' });
  });

  it('gitState: a checkout\'s git state read there', async () => {
    const { relay } = await connect();
    const checkout = join(sshd.privateDir, 'checkouts', 'lane b');
    there(`mkdir -p ${shQuote(checkout)} && cd ${shQuote(checkout)} && git init -q -b main && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one && printf x > 'new file'`);
    const head = there(`git -C ${shQuote(checkout)} rev-parse HEAD`).trim();
    expect(await relay.gitState(checkout)).toEqual({ repo: checkout, branch: 'main', head, pushed: null, uncommitted: ['new file'] });
    expect(existsSync(checkout)).toBe(false);
    expect(await relay.gitState(join(sshd.privateDir, 'none'))).toEqual({ repo: null, branch: null, head: null, pushed: null, uncommitted: [] });
  });

  it('close: the relay there ends with its input, and the close is the one expected', async () => {
    const { relay, closes } = await connect();
    await relay.close();
    expect(closes).toEqual([['closed', true]]);
    // host-rela[y]: the pattern matches the relay's command line, not the ssh or shell running pgrep.
    await waitFor(() => sshd.ssh(`pgrep -f ${shQuote(`host-rela[y] ${P}`)}`).code === 1, { what: 'no host-relay left on the host' });
  });
});

describe('here, as a plain child: P is the engine\'s own folder', () => {
  const run = (plan: string) => [process.execPath, CLI, 'host-relay', plan];

  it('the token found: shared, so nothing followed, written or pushed', async () => {
    const { relay, changed } = await connect({ argv: run(P) });
    expect(relay.facts).toMatchObject({ shared: true, pidns: readlinkSync('/proc/self/ns/pid'), bin: CLI });
    await relay.push([{ path: '.swarm/prompts/run-9/x.md', data: Buffer.from('x') }]);
    expect(existsSync(local('.swarm/prompts/run-9/x.md'))).toBe(false);
    expect(existsSync(local('.swarm/bin/swarm'))).toBe(false);
    expect(await relay.processNow(process.pid)).toEqual({ pid: process.pid, startTicks: readStat(process.pid)!.startTicks });
    expect(changed).toEqual([]);
  });

  it('another token: not shared', async () => {
    const other = join(work.dir, 'other-plan');
    mkdirSync(join(other, '.swarm'), { recursive: true });
    writeFileSync(join(other, '.swarm', 'host-token'), 'another\n');
    const { relay } = await connect({ argv: run(other), plan: other });
    expect(relay.facts.shared).toBe(false);
  });
});

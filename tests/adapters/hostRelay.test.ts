/**
 * The engine's end of the host relay against stand-in relays (a few lines of node each): a connect
 * that fails says why (ssh's last stderr line, a timeout, another protocol), a login banner before
 * the hello is skipped, and a relay that sends what it must not (a line that is no frame, a file
 * outside the followed set) is cut off with the reason, nothing of it written.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostRelay, type RelayOptions } from '../../src/adapters/hostRelay.js';
import { RELAY_PROTOCOL } from '../../src/core/host/relay.js';
import { tempDir } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

let temp: ReturnType<typeof tempDir>;
let plan: string;

beforeEach(() => {
  temp = tempDir('swarm-hostrelay-');
  plan = join(temp.dir, 'plan');
  mkdirSync(plan);
});

afterEach(() => temp.cleanup());

const FACTS = { hostname: 'box', pidns: null, home: '/home/u', env: {}, node: 'node', bin: 'swarm.cjs', version: '0.1.0', shared: false };
const hello = (protocol: number) => JSON.stringify({ t: 'hello', facts: { ...FACTS, protocol } });

/** A stand-in relay: `script` run by node, which prints what the test wants and keeps stdin open. */
function fake(script: string, extra: Partial<RelayOptions> = {}) {
  const closes: [string, boolean][] = [];
  const options: RelayOptions = {
    argv: [process.execPath, '-e', `${script}; process.stdin.resume()`],
    env: { PATH: process.env.PATH }, plan, host: 'box', token: 't',
    onChanged: () => undefined, onClose: (reason, expected) => void closes.push([reason, expected]),
    ...extra,
  };
  return { connect: () => HostRelay.connect(options), closes };
}

describe('connect fails, saying why', () => {
  it.each<[string, Partial<RelayOptions>, RegExp]>([
    ['ssh refused the key: its last stderr line', { argv: ['sh', '-c', 'echo "debug1: x" >&2; echo "root@box: Permission denied (publickey)." >&2; exit 255'] },
      /^the host relay ended before its hello \(exit 255\): root@box: Permission denied \(publickey\)\.$/],
    ['no swarm on the host', { argv: ['sh', '-c', 'echo "sh: 1: swarm: not found" >&2; exit 127'] }, /^the host relay ended before its hello \(exit 127\): sh: 1: swarm: not found$/],
    ['no program to start', { argv: ['/nonexistent/swarm-test/no-ssh'] }, /^\/nonexistent\/swarm-test\/no-ssh did not start: spawn \/nonexistent\/swarm-test\/no-ssh ENOENT/],
    ['no hello in time', { argv: ['sh', '-c', 'echo "connecting" >&2; exec sleep 30'], helloMs: 300 }, /^no hello from the host relay within 0\.3 s: connecting$/],
  ])('%s', async (_what, extra, message) => {
    const relay = fake('', extra);
    await expect(relay.connect()).rejects.toThrow(message);
    expect(relay.closes).toEqual([]);
  });

  it('a relay of another protocol: both versions named', async () => {
    const relay = fake(`console.log(${JSON.stringify(hello(RELAY_PROTOCOL + 98))})`);
    await expect(relay.connect()).rejects.toThrow(`the host's swarm (0.1.0, swarm.cjs) speaks relay protocol ${RELAY_PROTOCOL + 98}, this swarm protocol ${RELAY_PROTOCOL}: install the same swarm there as here`);
  });
});

it('a login banner and escapes before the hello are skipped', async () => {
  const relay = fake(`process.stdout.write('Welcome to box\\r\\n\\u001b[0m\\n\\n' + ${JSON.stringify(hello(RELAY_PROTOCOL))} + '\\n')`);
  const connected = await relay.connect();
  expect(connected.facts.hostname).toBe('box');
  await connected.close();
  expect(relay.closes).toEqual([['closed', true]]);
});

describe('a relay that sends what it must not is cut off, nothing of it written', () => {
  const frame = (f: object) => JSON.stringify(f);
  it.each<[string, string, RegExp]>([
    ['a line that is no frame', 'garbage', /^the host relay sent not a frame: "garbage"$/],
    ['an engine file', frame({ t: 'file', path: '.swarm/state.json', at: 0, data: 'e30=', last: true, mode: 420 }), /^the host relay sent "\.swarm\/state\.json", which is no whole file it follows$/],
    ['a path climbing out of P', frame({ t: 'append', path: '.swarm/spool/../../../x.jsonl', at: 0, data: 'e30=' }), /which is no appended file it follows/],
    ['an absolute path', frame({ t: 'file', path: '/tmp/swarm-relay-never/x.yaml', at: 0, data: 'e30=', last: true, mode: 420 }), /which is no whole file it follows/],
    ['an append to a whole file', frame({ t: 'append', path: '.swarm/capacity/c1.json', at: 0, data: 'e30=' }), /which is no appended file it follows/],
    ['a second hello', hello(RELAY_PROTOCOL), /^the host relay said hello twice$/],
  ])('%s', async (_what, line, reason) => {
    const relay = fake(`console.log(${JSON.stringify(hello(RELAY_PROTOCOL))}); setTimeout(() => console.log(${JSON.stringify(line)}), 50)`);
    await relay.connect();
    await waitFor(() => relay.closes.length > 0, { what: 'the relay cut off' });
    expect(relay.closes).toEqual([[expect.stringMatching(reason), false]]);
    expect(existsSync(join(plan, '.swarm', 'state.json'))).toBe(false);
    expect(existsSync('/tmp/swarm-relay-never')).toBe(false);
    expect(existsSync(join(temp.dir, 'x.jsonl'))).toBe(false);
  });
});

it('a push outside what the engine writes there is refused before anything is sent', async () => {
  const relay = fake(`console.log(${JSON.stringify(hello(RELAY_PROTOCOL))})`);
  const connected = await relay.connect();
  await expect(connected.push([{ path: '.swarm/spool/r1/a-g1/records.jsonl', data: Buffer.from('x') }, { path: '../.bashrc', data: Buffer.from('x') }]))
    .rejects.toThrow('the engine pushes only its own files to a host, not ".swarm/spool/r1/a-g1/records.jsonl", "../.bashrc"');
  await connected.close();
});

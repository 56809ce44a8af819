/**
 * `hosts:` and a lane's `host:` (SPEC 10.9): the other machines lanes may run on, and how `ssh`
 * reaches each. Pure: read from the parsed swarm.yaml with positions, every problem with what to do.
 * A host lane's checkout is a path on that host: it must be absolute, and it is kept as written
 * (normalised), never resolved against swarm.yaml's folder nor looked for on this machine.
 */
import path from 'node:path';
import { isMap } from 'yaml';
import { excerpt } from '../../errors.js';
import { nameProblem } from './names.js';
import { didYouMean } from './suggest.js';
import type { Field, Reader, Section } from './reader.js';
import type { HostSpec } from './types.js';

/** The keys of one host's mapping. */
export const HOST_KEYS = ['ssh', 'port', 'identity', 'options'] as const;

/** Why a lane's `host:` is no key of the lead's. */
export const LEAD_HOST = 'the lead runs on the engine\'s host (this machine); only lanes take host:';

/** ssh options swarm sets on every connection itself (keys as ssh reads them: case-insensitive). */
const OWN_OPTIONS: Record<string, string> = {
  batchmode: 'BatchMode is always yes: swarm never answers a prompt, so every login must work without one',
  connecttimeout: 'swarm sets ConnectTimeout itself, so a host that does not answer is told in seconds',
};

const OPTION = /^([A-Za-z][A-Za-z0-9]*)=(.+)$/s;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const EXAMPLE = 'e.g. hosts: { gpu1: { ssh: me@gpu1.lan } }';

/** `hosts:` in file order; absent or null: none. */
export function readHosts(r: Reader, top: Section): HostSpec[] {
  const field = top.fields.get('hosts');
  if (field === undefined || r.scalar(field.value) === null) return [];
  if (!isMap(field.value)) return r.wrong(field, `a mapping of host names to how ssh reaches each, ${EXAMPLE}`) ?? [];
  const all = r.section(field.value, field.key, 'hosts', null);
  const out: HostSpec[] = [];
  for (const [name, f] of all?.fields ?? []) {
    const problem = nameProblem(name, 'agent');
    if (problem !== null) {
      const why = problem.kind === 'chars' ? `must be ${problem.expected}` : problem.message;
      r.add(f.key, `host name "${excerpt(name, 40)}" ${why}`);
      continue;
    }
    // A host whose entry has problems is still declared: its lanes are not told it is unknown.
    const s = r.section(f.value, f.key, f.path, HOST_KEYS);
    if (s === undefined) out.push({ name, ssh: '', port: null, identity: null, options: [] });
    else out.push({ name, ssh: readDestination(r, s) ?? '', port: readPort(r, s), identity: readIdentity(r, s), options: readOptions(r, s) });
  }
  return out;
}

function readDestination(r: Reader, s: Section): string | undefined {
  const value = r.text(s, 'ssh', `say how ssh reaches it: ssh: user@host (or a Host of your ssh config), ${EXAMPLE}`);
  const field = s.fields.get('ssh');
  if (value === undefined || field === undefined) return undefined;
  if (/\s/.test(value)) return void r.add(r.where(field), `"${field.path}" must be an ssh destination with no spaces (user@host, or a Host of your ssh config), got ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`);
  if (value.startsWith('-')) return void r.add(r.where(field), `"${field.path}" starts with "-", which ssh would read as an option: give user@host`);
  return value;
}

function readPort(r: Reader, s: Section): number | null {
  const expected = 'a port number from 1 to 65535 (ssh\'s default is 22)';
  const port = r.whole(s, 'port', 1, expected);
  const field = s.fields.get('port');
  if (port !== undefined && port > 65535 && field !== undefined) return r.wrong(field, expected) ?? null;
  return port ?? null;
}

function readIdentity(r: Reader, s: Section): string | null {
  const value = r.optText(s, 'identity');
  const field = s.fields.get('identity');
  if (value == null || field === undefined) return null;
  if (!value.startsWith('/') && !value.startsWith('~/')) {
    r.add(r.where(field), `"${field.path}" must be the path of a private key on this machine, absolute or under ~/ (e.g. ~/.ssh/id_ed25519), got ${JSON.stringify(excerpt(value, 40))}`);
    return null;
  }
  if (CONTROL.test(value)) return r.wrong(field, 'a path without control characters (no newline, no tab)') ?? null;
  return value;
}

/** `options: [KEY=VALUE, …]`, each an ssh `-o`; absent or null: none. */
function readOptions(r: Reader, s: Section): string[] {
  const field = s.fields.get('options');
  const out: string[] = [];
  (r.list(s, 'options') ?? []).forEach((item, i) => {
    const value = r.scalar(item);
    const at: Field = { key: field?.key ?? item, value: item, path: `${field?.path ?? 'options'}[${i}]` };
    const match = typeof value === 'string' ? OPTION.exec(value) : null;
    if (typeof value !== 'string' || match === null || CONTROL.test(value) || value.trimEnd() !== value) {
      r.wrong(at, 'an ssh option as KEY=VALUE, e.g. ConnectionAttempts=2 (what ssh -o takes; never a flag of its own)');
      return;
    }
    const own = OWN_OPTIONS[match[1]!.toLowerCase()];
    if (own !== undefined) r.add(item, `"${at.path}": ${own}; remove this option`);
    else out.push(value);
  });
  return out;
}

/** A lane's `host:`: the name of a declared host; undefined when absent, null, or not one (a problem is added). */
export function readLaneHost(r: Reader, s: Section, hosts: readonly HostSpec[], lane: string): string | undefined {
  const field = s.fields.get('host');
  if (field === undefined || r.scalar(field.value) === null) return undefined;
  const name = r.name(s, 'host');
  if (name === undefined) return undefined;
  const names = hosts.map((h) => h.name);
  if (names.includes(name)) return name;
  const who = lane === '' ? 'this lane' : `lane "${lane}"`;
  if (names.length === 0) {
    r.add(r.where(field), `${who} runs on host "${name}", but swarm.yaml declares no hosts: add hosts: { ${name}: { ssh: user@host } }, or remove "host" to run it here`);
  } else {
    r.add(r.where(field), `unknown host "${name}" for ${who}: the hosts are ${names.join(', ')}${didYouMean(name, names)}`);
  }
  return undefined;
}

/** True when the lane's `host:` is given (not null), whether or not it names a declared host. */
export function hostGiven(r: Reader, s: Section): boolean {
  const field = s.fields.get('host');
  return field !== undefined && r.scalar(field.value) !== null;
}

/** The checkout of a lane on another host: required, absolute there; normalised, never resolved here. */
export function readHostCheckout(r: Reader, s: Section, lane: string, host: string | undefined): string | null {
  const on = host === undefined ? 'another host' : `host "${host}"`;
  const who = lane === '' ? 'this lane' : `lane "${lane}"`;
  const value = r.text(s, 'checkout', `${who} runs on ${on}: give its checkout there, an absolute path, e.g. checkout: /srv/work/${lane === '' ? 'lane' : lane}`);
  const field = s.fields.get('checkout');
  if (value === undefined || field === undefined) return null;
  if (!value.startsWith('/')) {
    r.add(r.where(field), `checkout "${excerpt(value, 60)}" of ${who} must be an absolute path on ${on} (it is never resolved on this machine): e.g. checkout: /srv/work/${lane === '' ? 'lane' : lane}`);
    return null;
  }
  const normal = path.posix.normalize(value);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

/**
 * `swarm host-relay <P>` (internal, SPEC 10.9): run by the engine on a lane's host over ssh, the
 * host's end of the relay that carries the plan folder's files (adapters/relayServe.ts): frames on
 * stdin and stdout until stdin ends. P is the plan folder's absolute path, the same on both machines.
 */
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, normalize } from 'node:path';
import { SWARM_BIN } from '../runtime/swarmBin.js';
import { VERSION } from '../version.js';
import type { Command } from './io.js';

export const hostRelay: Command = async (io) => {
  const [plan, ...rest] = io.args;
  if (plan === undefined || rest.length > 0 || !isAbsolute(plan) || normalize(plan) !== plan) {
    io.stderr('swarm host-relay: the engine runs this on a lane\'s host over ssh (usage: swarm host-relay <absolute plan folder>); nothing to do by hand\n');
    return 2;
  }
  const { serveRelay } = await import('../adapters/relayServe.js');
  const env = Object.fromEntries(Object.entries(io.env).filter((e): e is [string, string] => e[1] !== undefined));
  return serveRelay({
    plan,
    input: process.stdin,
    output: process.stdout,
    facts: { hostname: hostname(), pidns: pidNamespace(), home: io.env.HOME ?? null, env, node: process.execPath, bin: SWARM_BIN, version: VERSION },
  });
};

/** This process's pid namespace (`pid:[4026531836]`): two hosts with one namespace are one machine's processes. */
function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

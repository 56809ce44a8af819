/**
 * A gate on real processes (issue 11): its own process group, known by pid and start time; endGate
 * ends that very group (sh -c's children too) and leaves a process that is not it alone.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endGate, findGate, startGate, type RunningGate } from '../../src/adapters/gate.js';
import { readStat } from '../../src/adapters/procStatFile.js';
import { waitFor } from '../helpers/waitFor.js';

const linux = existsSync('/proc/self/stat');
let dir = '';
const started: RunningGate[] = [];
let runs = 0;
const run = (command: string, timeoutMs?: number, id = `${dir}#gate-${(runs += 1)}`) => {
  const gate = startGate(command, dir, process.env, id, timeoutMs);
  started.push(gate);
  return gate;
};
const alive = (pid: number) => { const s = readStat(pid); return s !== null && s.state !== 'Z'; };

beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'swarm-gate-')); });
afterEach(async () => {
  for (const gate of started.splice(0)) if (gate.process) await endGate(gate.process, 500); // only our own groups
  rmSync(dir, { recursive: true, force: true });
});

describe('startGate', () => {
  it('passes on exit 0 with the output (stdout and stderr, the last line break dropped), fails otherwise', async () => {
    expect(await run('echo out; echo err >&2').result).toEqual({ passed: true, output: 'out\nerr' });
    expect(await run('echo no; exit 3').result).toEqual({ passed: false, output: 'no' });
  });

  it('a checkout that does not exist: failed, saying so', async () => {
    const gate = startGate('true', join(dir, 'missing'), process.env, `${dir}#missing`);
    expect(await gate.result).toMatchObject({ passed: false, output: expect.stringMatching(/did not start/) });
  });

  it.runIf(linux)('runs as the leader of a process group of its own, its start time recorded', async () => {
    const gate = run('sleep 30');
    const stat = readStat(gate.process!.pid)!;
    expect(stat).toMatchObject({ pid: gate.process!.pid, pgrp: gate.process!.pid, startTicks: gate.process!.startTicks });
    expect(stat.pgrp).not.toBe(readStat(process.pid)!.pgrp);
  });

  it.runIf(linux)('a timeout ends the whole group', async () => {
    const gate = run('sleep 30 & echo $! > child; sleep 30', 300);
    const child = Number(await waitFor(() => existsSync(join(dir, 'child')) && readFileSync(join(dir, 'child'), 'utf8').trim(), { what: 'the child pid' }));
    const result = await gate.result;
    expect(result).toMatchObject({ passed: false, output: expect.stringMatching(/gate timed out/) });
    await waitFor(() => !alive(child), { what: 'the background child to end with its group' });
  });
});

describe.runIf(linux)('endGate', () => {
  it('ends the very process group it started, children too, and the result comes as failed', async () => {
    const gate = run('sleep 30 & echo $! > child; sleep 30');
    const child = Number(await waitFor(() => existsSync(join(dir, 'child')) && readFileSync(join(dir, 'child'), 'utf8').trim(), { what: 'the child pid' }));
    expect(await endGate(gate.process!)).toBe('ended');
    expect((await gate.result).passed).toBe(false);
    await waitFor(() => !alive(child), { what: 'the background child to end with its group' });
  });

  it('a process that is not it (the pid reused: another start time) is left alone', async () => {
    const gate = run('sleep 30');
    const { pid, startTicks } = gate.process!;
    expect(await endGate({ pid, startTicks: startTicks + 1 })).toBe('another process');
    expect(alive(pid)).toBe(true);
  });

  it('a gate that already ended: gone', async () => {
    const gate = run('true');
    await gate.result;
    expect(await endGate(gate.process!)).toBe('gone');
  });

  it('a run whose process was not recorded is found by its run in the environment (its leader only), and then ended', async () => {
    const id = `${dir}#unrecorded`;
    const gate = run('sleep 30 & sleep 30', undefined, id);
    expect(findGate(id)).toEqual(gate.process);
    expect(findGate(`${id}-other`)).toBeNull();
    expect(await endGate(findGate(id)!)).toBe('ended');
    await gate.result;
    expect(findGate(id)).toBeNull();
  });
});

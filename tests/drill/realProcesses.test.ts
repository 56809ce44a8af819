import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endProcessesUnder, processesUnder } from '../../src/drill/realProcesses.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('the CLIs’ processes of a real drill', () => {
  it('finds a process by a path under the run’s folder in its environment, and ends it at the deadline', async () => {
    const root = mkdtempSync(join(tmpdir(), 'swarm-procs-'));
    dirs.push(root);
    const child = spawn('sleep', ['30'], { env: { ...process.env, SOME_HOME: join(root, 'profile') }, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((r) => setTimeout(r, 200));
    expect(processesUnder(root)).toEqual([child.pid]);
    expect(processesUnder(join(root, 'other'))).toEqual([]);
    expect(await endProcessesUnder(root, 300)).toEqual([child.pid]);
    await exited;
    expect(processesUnder(root)).toEqual([]);
  });

  it('returns at once when none is left', async () => {
    const root = mkdtempSync(join(tmpdir(), 'swarm-procs-'));
    dirs.push(root);
    expect(await endProcessesUnder(root, 5_000)).toEqual([]);
  });
});

import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SwarmConfig } from '../../src/core/config/config.js';
import { DependencyError } from '../../src/errors.js';
import { runTmux } from '../../src/adapters/tmux/runner.js';
import { backendFor, hostFor } from '../../src/runtime/hostFor.js';
import { tempDir } from '../helpers/swarm.js';

const config = { name: 'demo', plan: '/nonexistent/plan', backend: 'tmux' } as unknown as SwarmConfig;
const noTmux = { PATH: '/nonexistent' };

async function refusal(run: () => Promise<unknown>): Promise<{ message: string; hint: string | undefined; exitCode: number }> {
  const error = await run().then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DependencyError);
  const { message, hint, exitCode } = error as DependencyError;
  return { message, hint, exitCode };
}

describe('tmux not found: one message, wherever swarm finds tmux missing', () => {
  it('the backend choice (backend: tmux) and the runner (no tmux binary) say the same, with what to do', async () => {
    const chosen = await refusal(() => hostFor(config, noTmux));
    const ran = await refusal(() => runTmux('swarm-none', ['list-sessions'], { bin: '/nonexistent/tmux' }));
    expect(chosen).toEqual(ran);
    expect(chosen.exitCode).toBe(4);
    expect(chosen.message).toBe('tmux not found');
    expect(chosen.hint).toMatch(/install it .*or set backend: pty in swarm\.yaml/);
  });
});

describe('backendFor: the one backend choice', () => {
  const bin = tempDir('swarm-tmuxbin-');
  afterAll(() => bin.cleanup());
  writeFileSync(join(bin.dir, 'tmux'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin.dir, 'tmux'), 0o755);
  const withTmux = { PATH: bin.dir };

  it.each([
    ['pty', withTmux, 'pty'],
    ['pty', noTmux, 'pty'],
    ['auto', withTmux, 'tmux'],
    ['auto', noTmux, 'pty'],
    ['tmux', withTmux, 'tmux'],
  ] as const)('backend: %s with PATH %j runs on %s', (backend, env, expected) => {
    expect(backendFor({ backend }, env)).toBe(expected);
  });

  it('backend: tmux without tmux is the one tmux not found (exit 4)', () => {
    expect(() => backendFor({ backend: 'tmux' }, noTmux)).toThrow(DependencyError);
  });
});

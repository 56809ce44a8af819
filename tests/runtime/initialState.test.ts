import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SwarmConfig } from '../../src/core/config/config.js';
import { planPaths } from '../../src/core/plan/paths.js';
import type { PaneHost } from '../../src/adapters/host.js';
import { freshOrSaved } from '../../src/runtime/initialState.js';
import type { EngineState } from '../../src/runtime/engineState.js';
import { HandClock } from '../helpers/handClock.js';
import { tempDir } from '../helpers/swarm.js';

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function plan(): { config: SwarmConfig; paths: ReturnType<typeof planPaths> } {
  const made = tempDir('swarm-initial-');
  cleanup = made.cleanup;
  const config = { name: 'demo', plan: join(made.dir, 'plan'), lead: { name: 'lead' }, lanes: [] } as unknown as SwarmConfig;
  const paths = planPaths(config.plan);
  mkdirSync(paths.swarmDir, { recursive: true });
  return { config, paths };
}
const host = { kind: 'tmux' } as PaneHost;
const clock = new HandClock();

describe('freshOrSaved: the state a swarm up starts from', () => {
  it('nothing saved: a fresh state, no lanes yet, no spool read yet', () => {
    const { config } = plan();
    const { state, corrupt } = freshOrSaved(config, host, clock);
    expect(corrupt).toBeNull();
    expect(state).toMatchObject({ version: 1, name: 'demo', session: 'swarm-demo', backend: 'tmux', run: 1, spools: {}, lanes: {}, order: [], leadName: 'lead', leadAgent: 'lead', epoch: 0 });
    expect(state.pending).toEqual([{ lane: null, effect: { type: 'journal', kind: 'observation', event: 'run_started', lane: null, data: { run: 1, heads: {} } } }]);
  });

  it.each<[string, Partial<EngineState>, number]>([
    ['the plan done', { planDone: true, run: 4 }, 5],
    ['ended by swarm down', { ended: '2026-12-01T00:00:00.000Z', run: 2 }, 3],
    ['a done state saved before runs were numbered', { planDone: true }, 2],
  ])('a new run after %s: numbered past the last', (_name, over, run) => {
    const { config, paths } = plan();
    writeFileSync(paths.state, JSON.stringify({ ...freshOrSaved(config, host, clock).state, ...over }));
    const { state } = freshOrSaved(config, host, clock);
    expect(state.run).toBe(run);
    expect(state.pending).toMatchObject([{ effect: { event: 'run_started', data: { run } } }]);
  });

  it('an open run (a crash, kill -9): continued, same run, nothing journaled again', () => {
    const { config, paths } = plan();
    writeFileSync(paths.state, JSON.stringify({ ...freshOrSaved(config, host, clock).state, run: 3, pending: [], order: ['lead'] }));
    expect(freshOrSaved(config, host, clock).state).toMatchObject({ run: 3, pending: [] });
  });

  it('a corrupt file: the new run is numbered past the last run the journal names', () => {
    const { config, paths } = plan();
    writeFileSync(paths.journal, '{"event":"run_started","run":6}\n{"event":"run_started","run":7}\n');
    writeFileSync(paths.state, '{ not json');
    expect(freshOrSaved(config, host, clock).state.run).toBe(8);
  });

  it('a run in progress: resumed as saved', () => {
    const { config, paths } = plan();
    const saved = { ...freshOrSaved(config, host, clock).state, epoch: 3, inboxOffset: 7, order: ['lead'] };
    writeFileSync(paths.state, JSON.stringify(saved));
    expect(freshOrSaved(config, host, clock)).toEqual({ state: saved, corrupt: null, hostLost: false });
  });

  it('a run its tmux server died under: resumed, and said so (its agents went with the server: SPEC 10.8)', () => {
    const { config, paths } = plan();
    const saved = { ...freshOrSaved(config, host, clock).state, order: ['lead'], hostLost: { at: '2026-12-06T03:00:00.000Z', reason: 'the tmux server exited' } };
    writeFileSync(paths.state, JSON.stringify(saved));
    const { state, hostLost } = freshOrSaved(config, host, clock);
    expect(hostLost).toBe(true);
    expect(state.hostLost).toBeUndefined();
  });

  it('the plan done: a fresh state, the next run, that reads only its own spools', () => {
    const { config, paths } = plan();
    const saved: EngineState = { ...freshOrSaved(config, host, clock).state, planDone: true, spools: { 'r1/lane-a-g1': { offset: 5 } }, epoch: 2 };
    writeFileSync(paths.state, JSON.stringify(saved));
    expect(freshOrSaved(config, host, clock).state).toMatchObject({ planDone: false, run: 2, spools: {}, epoch: 0 });
  });

  it('a corrupt file: kept aside, and the fresh run is a new one, with spools of its own', () => {
    const { config, paths } = plan();
    writeFileSync(paths.state, '{ not json');
    const { state, corrupt } = freshOrSaved(config, host, clock);
    expect(corrupt?.why).toMatch(/^not JSON/);
    expect(existsSync(corrupt!.kept)).toBe(true);
    expect(existsSync(paths.state)).toBe(false);
    expect(readdirSync(paths.swarmDir).filter((n) => n.startsWith('state.corrupt-'))).toHaveLength(1);
    expect(state.spools).toEqual({});
  });
});

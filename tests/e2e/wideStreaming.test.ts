/**
 * A screen that matters seen in time while 64 agents flood, on a real tmux server on a private socket
 * (killed afterwards, pass or fail): each agent redraws a Claude-Code-sized frame of 20 coloured lines
 * 12 times a second (~1.2 MB/s over the control connection), and a few of them stop on a permission
 * dialog. While the control pipe rested a full 100 ms between looks whatever it found, it took in about
 * one pipe a look, tmux held the panes back, and the dialogs were seen 2–5 s late
 * (core/screens/pipeRest.ts).
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaneSpec } from '../../src/adapters/host.js';
import { TmuxHost } from '../../src/adapters/tmux/host.js';
import type { LaneEvent, LaneState } from '../../src/machine/types.js';
import { systemClock } from '../../src/runtime/clock.js';
import { PaneWatch, type WatchedEngine } from '../../src/runtime/watch.js';
import { waitFor } from '../helpers/waitFor.js';

const AGENT = resolve('tests/fixtures/agents/lane.mjs');
const socket = `swarm-test-wide-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const session = 'swarm-wide';
const dir = mkdtempSync(join(tmpdir(), 'swarm-wide-'));
const log = join(dir, 'agents.log');
const host = new TmuxHost({ socket, session, paneDeathFile: join(dir, 'deaths.jsonl') });
const socketDir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);

const LANES = 64;
/** The last ASKERS lanes stop on a permission dialog, ASK_EVERY_MS apart, from FIRST_ASK_MS after they start streaming. */
const ASKERS = 4;
const FIRST_ASK_MS = 4_000;
const ASK_EVERY_MS = 1_000;
/** Screen → seen: the rest's ~150 ms and a loaded machine's share; a screen seen only at its max-wait read (2 s) fails it. */
const WITHIN_MS = 1_500;

/** A lane of the scripted agent (tests/fixtures/agents/lane.mjs) streaming 20 rows a redraw; an asker stops on a dialog after `askMs`. */
function streamer(lane: string, askMs: number | null): PaneSpec {
  const env: Record<string, string> = { SWARM_LANE: lane, AGENT_G1: 'stream', AGENT_STREAM_ROWS: '20', AGENT_LOG: log, AGENT_STAMP: '1' };
  if (askMs !== null) env[`AGENT_BLOCK_MS_${lane.replace(/-/g, '_')}`] = String(askMs);
  return { lane, generation: 1, account: 'a1', role: 'lane', cwd: dir, title: lane, argv: [process.execPath, AGENT], env };
}

beforeAll(async () => {
  await host.start();
});

afterAll(async () => {
  await host.detach().catch(() => undefined);
  await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
  rmSync(join(socketDir, socket), { force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe('64 lanes of Claude-Code-sized redraws over one control connection', () => {
  it(`sees each permission dialog within ${WITHIN_MS} ms of its drawing`, async () => {
    const lanes: Record<string, LaneState> = {};
    const seen = new Map<string, number>();
    const engine: WatchedEngine = {
      clock: systemClock,
      state: { lanes },
      config: { accounts: [{ id: 'a1', kind: 'claude' }], dir, timeouts: { stall: 1_800_000 } } as unknown as WatchedEngine['config'],
      host,
      deliveries: { poke: () => undefined },
      lane: (name) => lanes[name],
      dispatch: (lane: string, event: LaneEvent) => {
        if (event.type === 'screen' && event.screen === 'permission' && !seen.has(lane)) seen.set(lane, Date.now());
      },
      agentName: (lane) => lane.name,
    };
    const watch = new PaneWatch(engine);
    const off = host.onEvent((event) => watch.handle(event));
    try {
      // The askers last: every other lane floods by the time they start, and their dialogs come seconds later.
      const names = Array.from({ length: LANES }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);
      const askers = names.slice(LANES - ASKERS);
      for (const [i, lane] of names.entries()) {
        const ask = i >= LANES - ASKERS ? FIRST_ASK_MS + (i - (LANES - ASKERS)) * ASK_EVERY_MS : null;
        const pane = await host.spawn(streamer(lane, ask));
        lanes[lane] = { name: lane, role: 'lane', paneId: pane.paneId, account: 'a1', state: 'working', stallNudged: false, blocked: null, handoff: null } as unknown as LaneState;
      }
      const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []);
      const shown = () => new Map(lines().flatMap((line) => {
        const m = /^(\d+) (lane-\d+) g1 permission-shown$/.exec(line);
        return m ? [[m[2]!, Number(m[1])] as const] : [];
      }));
      await waitFor(() => askers.every((lane) => seen.has(lane)) || null, { timeout: FIRST_ASK_MS + ASKERS * ASK_EVERY_MS + 15_000, what: `the ${ASKERS} dialogs seen` });
      expect(lines().filter((line) => / stream$/.test(line))).toHaveLength(LANES);
      const late = askers.map((lane) => ({ lane, ms: seen.get(lane)! - shown().get(lane)! }));
      expect(late.filter((l) => !(l.ms <= WITHIN_MS))).toEqual([]);
    } finally {
      off();
      watch.stop();
    }
  });
});

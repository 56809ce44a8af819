/**
 * Agents that never stop drawing (issue 12 §5), on a real tmux server on a private socket (killed
 * afterwards, pass or fail): what the control connection tells of a flood, and a screen that matters
 * seen in time while other panes flood.
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaneSpec } from '../../src/adapters/host.js';
import { ControlClient } from '../../src/adapters/tmux/control.js';
import { TmuxHost } from '../../src/adapters/tmux/host.js';
import { paneTarget } from '../../src/adapters/tmux/paneRef.js';
import type { LaneEvent, LaneState } from '../../src/machine/types.js';
import { systemClock } from '../../src/runtime/clock.js';
import { PaneWatch, type WatchedEngine } from '../../src/runtime/watch.js';
import { waitFor } from '../helpers/waitFor.js';

const socket = `swarm-test-stream-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const session = 'swarm-stream';
const dir = mkdtempSync(join(tmpdir(), 'swarm-stream-'));
const host = new TmuxHost({ socket, session, paneDeathFile: join(dir, 'deaths.jsonl') });
const socketDir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);

/** A node agent: redraw a status line every `everyMs` `times` times (0: for ever), then `then` and touch `<dir>/<lane>.done`. */
function streamer(lane: string, everyMs: number, times: number, then = ''): PaneSpec {
  const script = `const fs=require('fs');let n=0;const t=setInterval(()=>{process.stdout.write('\\r⠋ Working… '+n*37+' tokens ');n+=1;`
    + `if(${times}>0&&n>=${times}){clearInterval(t);process.stdout.write(${JSON.stringify(then)});fs.writeFileSync(${JSON.stringify(join(dir, `${lane}.done`))},String(Date.now()));setInterval(()=>{},1e6)}},${everyMs})`;
  return { lane, generation: 1, account: 'a1', role: 'lane', cwd: dir, title: lane, argv: [process.execPath, '-e', script], env: { SWARM_LANE: lane } };
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

/** A control client's handler that looks again while anything printed in the last read, calling `seen` for each pane that did. */
const whilePrinting = (seen: (paneId: string) => void) => ({
  onRead: (printed: ReadonlySet<string>) => {
    for (const paneId of printed) seen(paneId);
    return printed.size > 0;
  },
  onClose: () => undefined,
});

describe('a flood over the control connection', () => {
  it('tells of a pane that printed once per read, not once per %output line, and reads a flood ~10 times a second', async () => {
    const calls = new Map<string, number>();
    const client = await ControlClient.connect({ socket, session }, whilePrinting((paneId) => { calls.set(paneId, (calls.get(paneId) ?? 0) + 1); }));
    try {
      const started = Date.now();
      const pane = await host.spawn(streamer('burst', 4, 500));
      await waitFor(() => existsSync(join(dir, 'burst.done')), { timeout: 20_000, what: 'the burst to end' });
      const seconds = (Date.now() - started) / 1000;
      const local = paneTarget(pane.paneId);
      const told = await waitFor(() => calls.get(local), { what: 'output of the burst pane' });
      // 500 redraws over ~2 s: tmux sends a %output line for nearly each; reads rest 100 ms between chunks.
      expect(told).toBeLessThan(150);
      expect(told / seconds).toBeLessThan(14);
    } finally {
      await client.close();
    }
  });
});

describe('the control connection after a flood', () => {
  it('hears a pane that prints again once every pane went quiet, and answers commands meanwhile', async () => {
    const told: { paneId: string; at: number }[] = [];
    const client = await ControlClient.connect({ socket, session }, whilePrinting((paneId) => { told.push({ paneId, at: Date.now() }); }));
    try {
      // A flood (the pipe rests between reads), silence (the rest's read finds nothing), then one line.
      const script = `let n=0;const t=setInterval(()=>{process.stdout.write('\\r⠋ '+n++);if(n===40){clearInterval(t);setTimeout(()=>{process.stdout.write('\\nagain\\n');setInterval(()=>{},1e6)},800)}},10)`;
      const pane = await host.spawn({ lane: 'again', generation: 1, account: 'a1', role: 'lane', cwd: dir, title: 'again', argv: [process.execPath, '-e', script], env: {} });
      const local = paneTarget(pane.paneId);
      await waitFor(() => told.some((t) => t.paneId === local), { what: 'the flood' });
      const lines = await client.command(['display-message', '-p', 'still here']);
      expect(lines).toEqual(['still here']);
      const screen = await waitFor(async () => ((await host.capture(pane.paneId)).includes('again') ? true : null), { timeout: 10_000, what: 'the line after the silence on screen' });
      expect(screen).toBe(true);
      const heard = await waitFor(() => {
        const last = told.filter((t) => t.paneId === local).at(-1)!;
        const before = told.filter((t) => t.paneId === local).at(-2);
        return before && last.at - before.at >= 500 ? last : null;
      }, { timeout: 5_000, what: 'the output after the silence to be told' });
      expect(heard.paneId).toBe(local);
      expect(await client.command(['display-message', '-p', 'and after'])).toEqual(['and after']);
    } finally {
      await client.close();
    }
  });
});

describe('TmuxHost tells a flood by its edges', () => {
  it('printing once and then twice a second while a pane floods, quiet once when it stops: not an event per redraw', async () => {
    const told: { type: string; at: number }[] = [];
    let paneId = '';
    const off = host.onEvent((event) => { if ('paneId' in event && event.paneId === paneId) told.push({ type: event.type, at: Date.now() }); });
    try {
      const started = Date.now();
      paneId = (await host.spawn(streamer('edges', 4, 500))).paneId;
      await waitFor(() => existsSync(join(dir, 'edges.done')), { timeout: 20_000, what: 'the burst to end' });
      const ended = Date.now();
      const quiet = await waitFor(() => told.find((t) => t.type === 'quiet'), { timeout: 2_000, what: 'quiet after the burst' });
      const printing = told.filter((t) => t.type === 'printing');
      // 500 redraws over ~2 s: one edge, a heartbeat every 500 ms, one quiet ~100-200 ms after the last redraw.
      expect(printing.length).toBeGreaterThanOrEqual(2);
      expect(printing.length).toBeLessThanOrEqual(Math.ceil((ended - started) / 500) + 2);
      expect(quiet.at - ended).toBeLessThan(1_000);
      expect(told.filter((t) => t.type === 'quiet')).toHaveLength(1);
      expect(told.every((t) => t.type === 'printing' || t.type === 'quiet')).toBe(true);
    } finally {
      off();
    }
  });
});

describe('PaneWatch over TmuxHost while panes flood', () => {
  it('sees a permission screen drawn after a flood within 700 ms, reading the flooding panes about every 1 to 2 s, not per redraw', async () => {
    const lanes: Record<string, LaneState> = {};
    const captures = new Map<string, number>();
    const events: { lane: string; event: LaneEvent; at: number }[] = [];
    const engine: WatchedEngine = {
      clock: systemClock,
      state: { lanes },
      config: { accounts: [{ id: 'a1', kind: 'claude' }], dir, timeouts: { stall: 1_800_000 } } as unknown as WatchedEngine['config'],
      host: { capture: (paneId) => { captures.set(paneId, (captures.get(paneId) ?? 0) + 1); return host.capture(paneId); } },
      deliveries: { poke: () => undefined },
      lane: (name) => lanes[name],
      dispatch: (lane, event) => { events.push({ lane, event, at: Date.now() }); },
      agentName: (lane) => lane.name,
    };
    const watch = new PaneWatch(engine);
    const off = host.onEvent((event) => watch.handle(event));
    try {
      const dialog = '\n╭─────────╮\n│ Bash command\n│ Do you want to proceed?\n│ ❯ 1. Yes\n│   2. No\n╰─────────╯\n';
      const specs = [...Array.from({ length: 6 }, (_, i) => streamer(`flood-${i}`, 83, 0)), streamer('asker', 83, 60, dialog)];
      for (const spec of specs) {
        const pane = await host.spawn(spec);
        lanes[spec.lane] = { name: spec.lane, role: 'lane', paneId: pane.paneId, account: 'a1', state: 'working', stallNudged: false, blocked: null, handoff: null } as unknown as LaneState;
      }
      const started = Date.now();
      const done = join(dir, 'asker.done');
      const shown = Number(await waitFor(() => (existsSync(done) ? readFileSync(done, 'utf8') : ''), { timeout: 20_000, what: 'the dialog' }));
      const seen = await waitFor(() => events.find((e) => e.lane === 'asker' && e.event.type === 'screen' && e.event.screen === 'permission'), { timeout: 5_000, what: 'the permission screen' });
      expect(seen.at - shown).toBeLessThan(700);
      const floodedMs = Date.now() - started;
      const flooder = lanes['flood-0']!.paneId!;
      // Every max wait (2 s), taken up to the batch (1 s) early with another pane's read (a loaded machine adds a settle read now and then).
      expect(captures.get(flooder) ?? 0).toBeLessThanOrEqual(Math.ceil(floodedMs / 1_000) + 1);
    } finally {
      off();
      watch.stop();
    }
  });
});

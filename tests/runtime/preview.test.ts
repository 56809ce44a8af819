/**
 * The dashboard's preview fed by the engine (issue 22 §4): the whole engine in-process on a fake pane
 * host and a hand clock. A lane's pane prints; the watch reads its screen as it does anyway and the
 * store gets the lane's last lines, plain text, under that pane's id. After a handoff the lane's
 * preview is its successor's pane. No timer of its own: a pane that prints nothing is never read.
 */
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import type { PanePreview, SwarmStore } from '../../src/ui/store.js';
import { FakeHost, type FakePane } from '../helpers/fakeHost.js';
import { HandClock } from '../helpers/handClock.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const MIN = 60_000;
/** What g1 draws: colours, a title (OSC), a cursor move, tabs, CRLF, trailing spaces and blank lines. */
const G1_SCREEN = '\u001b]0;claude\u0007\u001b[2J\u001b[H\u001b[32m● Reading\u001b[0m src/app.ts   \r\n\tline 1\u0007\r\n\r\n\u001b[1m> \u001b[0m\u001b[7m \u001b[0m\r\n\r\n';
const G2_SCREEN = 'accepted the packet\nnow at step 2\n\u001b[33mwarning\u001b[39m: none\n';

describe('the preview of a lane\'s pane, fed by the engine', () => {
  it('follows the lane\'s current pane as it prints (the successor\'s once it accepted), plain text, read only when it prints', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }], timeouts: '{ accept: 4m, packet: 3m, stall: 20m, ask: 5m, release: 7m }' }));
    const clock = new HandClock();
    let store: SwarmStore | null = null;
    const preview = (): PanePreview | undefined => store?.getState().previews['lane-a'];
    const captures: string[] = [];
    const seen: { g1?: PanePreview; g2?: PanePreview; readsWhileIdle?: number } = {};
    /** The pane prints `screen`; the watch reads it once it settles (150 ms on the clock). */
    const prints = (screen: string, key: 'g1' | 'g2') => async (pane: FakePane) => {
      // Once the engine knows the pane as the lane's (a successor: once it accepted).
      await waitFor(() => store?.getState().lanes.find((v) => v.lane.name === 'lane-a')?.lane.paneId === pane.info.paneId, { what: `${key}'s pane the lane's` });
      host.print(pane.info.paneId, screen);
      clock.advance(200);
      seen[key] = await waitFor(() => {
        const p = preview();
        return p?.paneId === pane.info.paneId && p.lines.length > 0 ? p : undefined;
      }, { what: `the preview of ${key}'s pane` });
      if (key === 'g2') {
        // Ten quiet minutes: no read of any pane, so no preview update (the hand clock fires every deadline passed, at once).
        const before = captures.length;
        clock.advance(10 * MIN);
        seen.readsWhileIdle = captures.length - before;
      }
    };
    const host = new FakeHost({ 'lane-a g1': ['ready', prints(G1_SCREEN, 'g1'), 'handoff'], 'lane-a g2': [prints(G2_SCREEN, 'g2'), 'done'] });
    const capture = host.capture.bind(host);
    host.capture = (paneId: string) => {
      captures.push(paneId);
      return capture(paneId);
    };
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const swarm = await startSwarm(config, { env: s.env, untilDone: false, timeoutMs: null, host, clock, onStore: (made) => { store = made; } });
    await waitFor(() => seen.readsWhileIdle !== undefined, { what: 'g2 to print and go quiet', timeout: 8_000 });
    await waitFor(() => store!.getState().lanes.find((v) => v.lane.name === 'lane-a')?.lane.state === 'done', { what: 'lane-a done' });
    await swarm.detach();
    await Promise.all([...host.running]);

    const g1Pane = [...host.closed, ...host.panes.values()].find((p) => p.info.generation === 1 && p.info.lane === 'lane-a')!.info.paneId;
    const g2Pane = [...host.closed, ...host.panes.values()].find((p) => p.info.generation === 2 && p.info.lane === 'lane-a')!.info.paneId;
    expect(seen.g1).toEqual({ paneId: g1Pane, lines: ['● Reading src/app.ts', '        line 1', '>'] });
    expect(seen.g2).toEqual({ paneId: g2Pane, lines: ['accepted the packet', 'now at step 2', 'warning: none'] });
    expect(preview()).toEqual(seen.g2);
    expect(seen.readsWhileIdle).toBe(0);
    // Nothing a terminal would act on is in the store: no escape code, no control character.
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(JSON.stringify(store!.getState().previews)).not.toMatch(/\\u00[01]|[\u0000-\u001f\u007f-\u009f]/);
  });
});

import { describe, expect, it } from 'vitest';
import { REST_MS } from '../../../src/core/screens/pipeRest.js';
import { OUTPUT_EDGES, OutputEdges, type OutputEdge } from '../../../src/core/screens/outputEdges.js';

const printing = (paneId: string): OutputEdge => ({ type: 'printing', paneId });
const quiet = (paneId: string, quietMs: number): OutputEdge => ({ type: 'quiet', paneId, quietMs });

/** The timing the cases are written for (the real one is tuned to the reader's rest: first case). */
const TIMING = { quietMs: 90, heartbeatMs: 500 };

/** Reads `[at, panes]` in order; the edges of each read, by its time. */
function run(reads: [number, string[]][]): Record<number, readonly OutputEdge[]> {
  const edges = new OutputEdges(TIMING);
  return Object.fromEntries(reads.map(([at, panes]) => [at, edges.read(panes, at)]));
}

describe('OutputEdges', () => {
  it('uses a quiet time under the control client rest and a heartbeat within the stall clock floor', () => {
    expect(OUTPUT_EDGES.quietMs).toBeLessThan(REST_MS); // one look that finds nothing is enough
    // and over a 12-a-second redraw's gap (83 ms), so a read between looks (a reply) finds no printing pane quiet
    expect(OUTPUT_EDGES.quietMs).toBeGreaterThan(1_000 / 12);
    expect(OUTPUT_EDGES.heartbeatMs).toBeLessThan(1_000);
  });

  it.each<[string, [number, string[]][], Record<number, OutputEdge[]>]>([
    ['no reads of anything', [[0, []], [100, []]], { 0: [], 100: [] }],
    ['a pane that prints once: printing, then quiet at the next look', [[0, ['%1']], [100, []]], { 0: [printing('%1')], 100: [quiet('%1', 100)] }],
    ['a look sooner than the quiet time does not end it', [[0, ['%1']], [50, []], [150, []]], { 0: [printing('%1')], 50: [], 150: [quiet('%1', 150)] }],
    ['just under the quiet time: still printing', [[0, ['%1']], [89, []], [90, []]], { 0: [printing('%1')], 89: [], 90: [quiet('%1', 90)] }],
    ['a flood: printing once, then only the heartbeat', [[0, ['%1']], [100, ['%1']], [200, ['%1']], [400, ['%1']], [500, ['%1']], [600, ['%1']], [1_000, ['%1']]],
      { 0: [printing('%1')], 100: [], 200: [], 400: [], 500: [printing('%1')], 600: [], 1_000: [printing('%1')] }],
    ['a flood that stops: quiet with how long since it was last seen', [[0, ['%1']], [100, ['%1']], [200, []]], { 0: [printing('%1')], 100: [], 200: [quiet('%1', 100)] }],
    ['printing again after quiet: a new edge', [[0, ['%1']], [100, []], [300, ['%1']]], { 0: [printing('%1')], 100: [quiet('%1', 100)], 300: [printing('%1')] }],
    ['one pane stops while another goes on', [[0, ['%1', '%2']], [100, ['%2']], [200, ['%2']]],
      { 0: [printing('%1'), printing('%2')], 100: [quiet('%1', 100)], 200: [] }],
    ['a pane named twice in a read counts once', [[0, ['%1', '%1']]], { 0: [printing('%1')] }],
    ['a read long after: every printing pane quiet at once', [[0, ['%1']], [10, ['%2']], [5_000, []]],
      { 0: [printing('%1')], 10: [printing('%2')], 5_000: [quiet('%1', 5_000), quiet('%2', 4_990)] }],
  ])('%s', (_, reads, expected) => {
    expect(run(reads)).toEqual(expected);
  });

  it('is printing from a pane’s first output until it is quiet', () => {
    const edges = new OutputEdges(TIMING);
    expect(edges.printing).toBe(false);
    edges.read(['%1'], 0);
    expect(edges.printing).toBe(true);
    edges.read([], 100);
    expect(edges.printing).toBe(false);
  });

  it('forgets a pane that is gone: no quiet for it', () => {
    const edges = new OutputEdges(TIMING);
    edges.read(['%1', '%2'], 0);
    edges.forget('%1');
    expect(edges.read([], 100)).toEqual([quiet('%2', 100)]);
  });

  it('ends with every printing pane quiet, and nothing left', () => {
    const edges = new OutputEdges(TIMING);
    edges.read(['%1'], 0);
    edges.read(['%2'], 40);
    expect(edges.end(60)).toEqual([quiet('%1', 60), quiet('%2', 20)]);
    expect(edges.printing).toBe(false);
    expect(edges.read([], 1_000)).toEqual([]);
  });

  it('a clock that steps back does not make a pane quiet early', () => {
    const edges = new OutputEdges(TIMING);
    edges.read(['%1'], 1_000);
    expect(edges.read([], 900)).toEqual([]);
    expect(edges.read([], 1_090)).toEqual([quiet('%1', 90)]);
  });

  it('twelve redraws a second in sixteen panes, read every 100 ms for a minute: 16 edges to start, two a second each after, then 16 quiet', () => {
    const edges = new OutputEdges(TIMING);
    const panes = Array.from({ length: 16 }, (_, i) => `%${i + 1}`);
    const told: OutputEdge[] = [];
    for (let at = 0; at < 60_000; at += 100) told.push(...edges.read(panes, at));
    told.push(...edges.read([], 60_000));
    expect(told.filter((e) => e.type === 'quiet')).toHaveLength(16);
    expect(told.filter((e) => e.type === 'printing').length).toBe(16 * 120); // 600 reads, not 9 600 events
  });
});

import { describe, expect, it } from 'vitest';
import { LOOK_BYTES, MIN_REST_MS, REST_MS, restAfterLook, restMs, type Look } from '../../../src/core/screens/pipeRest.js';
import { OUTPUT_EDGES } from '../../../src/core/screens/outputEdges.js';

const printing: Look = { printing: true, pending: 0, closing: false };

describe('restAfterLook', () => {
  it.each<[string, Partial<Look>, boolean]>([
    ['panes print: rest', {}, true],
    ['nothing prints: no rest', { printing: false }, false],
    ['a reply is awaited: never kept waiting', { pending: 1 }, false],
    ['several replies awaited (a batch of screen reads)', { pending: 16 }, false],
    ['closing: the pipe is read to its end', { closing: true }, false],
  ])('%s', (_, look, rest) => {
    expect(restAfterLook({ ...printing, ...look })).toBe(rest);
  });
});

describe('restMs', () => {
  it('gathers a third of what a full pipe gives (48–52 KB), and well over a light flood', () => {
    expect(LOOK_BYTES * 3).toBeLessThanOrEqual(52_000);
    expect(LOOK_BYTES).toBeGreaterThan(2 * 6_000); // 64 lanes of one status line: 4–6 KB a 100 ms look
  });

  it('rests longer than a pane takes to be called quiet only at the light rate', () => {
    expect(REST_MS).toBeGreaterThan(OUTPUT_EDGES.quietMs); // one look that finds nothing is a pane gone quiet
    expect(MIN_REST_MS).toBeGreaterThan(0);
  });

  it.each<[string, number, number, number]>([
    ['a new spell of printing (no time yet)', 5_000, 0, REST_MS],
    ['a look that found nothing', 0, 100, REST_MS],
    ['64 lanes of one status line: 4–6 KB a look', 6_000, 100, REST_MS],
    ['16 lanes of 20-line frames at their lightest: 24 KB', 24_000, 100, 68],
    ['16 lanes of 20-line frames at their heaviest: 40 KB', 40_000, 100, 40],
    ['exactly LOOK_BYTES a rest: the same rest again', LOOK_BYTES, 37, 37],
    ['64 lanes of 20-line frames, ~1.2 MB/s', 120_000, 100, 13],
    ['the same once looked at that pace', 16_000, 13, 13],
    ['a full pipe in one short look: as short as it goes', 52_000, 10, MIN_REST_MS],
    ['a look late by a second (a busy event loop) takes in its rate, not its size', 200_000, 1_000, 81],
    ['fractional times (a monotonic clock)', 8_192, 12.5, 25],
  ])('%s', (_, bytes, elapsed, ms) => {
    expect(restMs(bytes, elapsed)).toBe(ms);
  });

  it('is within its bounds for any intake, and never NaN', () => {
    for (const bytes of [-1, 0, 1, 100, 16_384, 1e6, 1e9, Number.NaN, Infinity]) {
      for (const elapsed of [-5, 0, 0.001, 1, 100, 1e6, Number.NaN, Infinity]) {
        const ms = restMs(bytes, elapsed);
        expect(ms).toBeGreaterThanOrEqual(MIN_REST_MS);
        expect(ms).toBeLessThanOrEqual(REST_MS);
        expect(Number.isInteger(ms)).toBe(true);
      }
    }
  });
});

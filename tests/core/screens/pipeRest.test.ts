import { describe, expect, it } from 'vitest';
import { FULL_LOOK_BYTES, restAfterLook, type Look } from '../../../src/core/screens/pipeRest.js';

const printing: Look = { printing: true, pending: 0, closing: false, lookBytes: 0 };

describe('restAfterLook', () => {
  it('counts a look full well over a light flood and under what a full pipe gives', () => {
    expect(FULL_LOOK_BYTES).toBeGreaterThan(4 * 6_000); // 64 lanes of one status line: 4–6 KB a look; four times that
    expect(FULL_LOOK_BYTES).toBeLessThan(48_000); // a full pipe gives a look 48–52 KB (Linux, tmux 3.3)
  });

  it.each<[string, Partial<Look>, boolean]>([
    ['panes print, the last look took in little: rest', {}, true],
    ['a light flood: rest', { lookBytes: 8 * 1024 }, true],
    ['just under a full look: rest', { lookBytes: FULL_LOOK_BYTES - 1 }, true],
    ['a full look: read as it comes till the next look', { lookBytes: FULL_LOOK_BYTES }, false],
    ['a pipe and more in one look (64 lanes of Claude-Code-sized redraws)', { lookBytes: 150 * 1024 }, false],
    ['nothing prints: no rest, whatever the last look took', { printing: false }, false],
    ['nothing prints after a full look', { printing: false, lookBytes: FULL_LOOK_BYTES }, false],
    ['a reply is awaited: never kept waiting', { pending: 1 }, false],
    ['several replies awaited (a batch of screen reads)', { pending: 16 }, false],
    ['closing: the pipe is read to its end', { closing: true }, false],
    ['closing after a full look', { closing: true, lookBytes: FULL_LOOK_BYTES }, false],
  ])('%s', (_, look, rest) => {
    expect(restAfterLook({ ...printing, ...look })).toBe(rest);
  });
});

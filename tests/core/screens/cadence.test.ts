import { describe, expect, it } from 'vitest';
import { activityDue, dueReads, nextScreenRead, SCREEN_CADENCE, type ActivityView, type PaneOutput } from '../../../src/core/screens/cadence.js';

const c = SCREEN_CADENCE; // settle 150, max wait 2000, min gap 250

describe('nextScreenRead', () => {
  it.each<[string, PaneOutput, number | null]>([
    ['nothing printed since the last read', { lastOutput: 1_000, firstUnread: null, lastRead: 1_200 }, null],
    ['never read: once output settles', { lastOutput: 1_000, firstUnread: 1_000, lastRead: null }, 1_150],
    ['a burst: settle after its last output', { lastOutput: 1_400, firstUnread: 1_000, lastRead: null }, 1_550],
    ['a flood: at most max wait after the first unread output', { lastOutput: 2_990, firstUnread: 1_000, lastRead: null }, 3_000],
    ['never within min gap of the last read', { lastOutput: 1_010, firstUnread: 1_010, lastRead: 1_000 }, 1_250],
    ['a quiet pane read long ago: settle decides', { lastOutput: 9_000, firstUnread: 9_000, lastRead: 1_000 }, 9_150],
    ['printing, last told long ago: not settled, max wait', { lastOutput: 1_000, firstUnread: 1_000, lastRead: null, printing: true }, 3_000],
    ['printing, read just now: min gap still holds', { lastOutput: 1_000, firstUnread: 1_000, lastRead: 2_900, printing: true }, 3_150],
    ['printing, nothing unread: nothing to read', { lastOutput: 1_000, firstUnread: null, lastRead: 1_200, printing: true }, null],
    ['quiet again (not printing): settle after its last output', { lastOutput: 1_000, firstUnread: 1_000, lastRead: null, printing: false }, 1_150],
    ['a last output a fraction of a ms back (a quiet edge): the next whole ms', { lastOutput: 1_000 - 90.4, firstUnread: 1_000 - 90.4, lastRead: null }, 1_060],
    ['a fractional first unread output: max wait at the next whole ms', { lastOutput: 2_000, firstUnread: 999.2, lastRead: null, printing: true }, 3_000],
  ])('%s', (_, pane, expected) => {
    expect(nextScreenRead(pane, c)).toBe(expected);
  });

  it('a 12-per-second redraw is read once per max wait, a dialog then quiet within settle', () => {
    // Simulate: redraws every 83 ms for 10 s, then one dialog and silence. Count reads.
    let pane: PaneOutput = { lastOutput: 0, firstUnread: null, lastRead: null };
    const reads: number[] = [];
    const outputs = [...Array.from({ length: 120 }, (_, i) => i * 83), 10_000];
    let at = 0;
    for (let now = 0; now <= 12_000; now += 1) {
      while (at < outputs.length && outputs[at] === now) {
        pane = { ...pane, lastOutput: now, firstUnread: pane.firstUnread ?? now };
        at += 1;
      }
      const due = nextScreenRead(pane, c);
      if (due !== null && now >= due) {
        reads.push(now);
        pane = { ...pane, firstUnread: null, lastRead: now };
      }
    }
    expect(reads.filter((r) => r < 10_000).length).toBeLessThanOrEqual(6); // 10 s of flood: ~5 reads, not 40
    expect(reads.at(-1)).toBe(10_150); // the dialog, 150 ms after it was drawn
  });
});

describe('dueReads', () => {
  const quiet: PaneOutput = { lastOutput: 1_000, firstUnread: null, lastRead: 1_200 };
  const settling: PaneOutput = { lastOutput: 1_000, firstUnread: 1_000, lastRead: null }; // due 1_150
  const flooding: PaneOutput = { lastOutput: 2_990, firstUnread: 1_000, lastRead: null }; // due 3_000
  it.each<[string, [string, PaneOutput][], number, { read: string[]; next: number | null }]>([
    ['no panes', [], 5_000, { read: [], next: null }],
    ['only panes with nothing unread', [['%1', quiet]], 5_000, { read: [], next: null }],
    ['one due, one not within the batch: read the first, wake for the second', [['%1', settling], ['%2', flooding]], 1_150, { read: ['%1'], next: 3_000 }],
    ['none due: wake for the earliest', [['%2', flooding], ['%1', settling]], 1_000, { read: [], next: 1_150 }],
    ['every one due at once', [['%1', settling], ['%2', flooding]], 3_000, { read: ['%1', '%2'], next: null }],
    ['one due takes those due within the batch with it, due ones first', [['%2', flooding], ['%1', settling]], 2_000, { read: ['%1', '%2'], next: null }],
    ['but not one read within the min gap', [['%1', settling], ['%2', { lastOutput: 2_100, firstUnread: 2_100, lastRead: 2_000 }]], 2_100, { read: ['%1'], next: 2_250 }],
  ])('%s', (_, panes, now, expected) => {
    expect(dueReads(new Map(panes), now, c)).toEqual(expected);
  });
});

describe('activityDue', () => {
  const working: ActivityView = { state: 'working', stallNudged: false, blockedClass: null, stallMs: 30 * 60_000 };
  it.each<[string, ActivityView, number | null, number, boolean]>([
    ['first output of a lane', working, null, 5_000, true],
    ['a working lane, within a minute', working, 0, 59_999, false],
    ['a working lane, a minute on', working, 0, 60_000, true],
    ['a short stall timeout: a tenth of it', { ...working, stallMs: 100_000 }, 0, 10_000, true],
    ['a tiny stall timeout: never more than once a second', { ...working, stallMs: 2_000 }, 0, 999, false],
    ['a starting lane: at once', { ...working, state: 'starting' }, 0, 10, true],
    ['nudged for stalling: at once', { ...working, stallNudged: true }, 0, 10, true],
    ['blocked as stalled: at once', { ...working, state: 'blocked', blockedClass: 'stalled' }, 0, 10, true],
    ['blocked for a permission: on the slow cadence', { ...working, state: 'blocked', blockedClass: 'permission' }, 0, 10, false],
  ])('%s', (_, lane, last, now, expected) => {
    expect(activityDue(lane, last, now)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { applyTimers } from '../../../src/core/swarm/deadlines.js';
import type { TimerEntry } from '../../../src/core/swarm/state.js';
import type { Effect } from '../../../src/machine/types.js';

describe('applyTimers: a transition\'s deadlines are state', () => {
  const journal = { type: 'journal', id: 'j', kind: 'observation', event: 'x', data: {} } as const;
  it.each<[string, TimerEntry[], Effect[], TimerEntry[], Effect[]]>([
    ['none: nothing changes', [], [], [], []],
    ['a set, beside another lane\'s', [{ lane: 'b', timer: 'stall', at: 1 }], [{ type: 'set_timer', id: 's', timer: 'stall', at: 9 }], [{ lane: 'b', timer: 'stall', at: 1 }, { lane: 'a', timer: 'stall', at: 9 }], []],
    ['a set replaces the same timer', [{ lane: 'a', timer: 'accept', at: 1 }], [{ type: 'set_timer', id: 's', timer: 'accept', at: 7 }], [{ lane: 'a', timer: 'accept', at: 7 }], []],
    ['clear then set, in order; other effects left to carry out', [{ lane: 'a', timer: 'packet', at: 1 }],
      [{ type: 'clear_timer', id: 'c', timer: 'packet' }, journal, { type: 'set_timer', id: 's', timer: 'stall', at: 4 }], [{ lane: 'a', timer: 'stall', at: 4 }], [journal]],
    ['a clear of a timer not set: nothing', [], [{ type: 'clear_timer', id: 'c', timer: 'reset' }], [], []],
  ])('%s', (_what, entries, effects, timers, rest) => {
    expect(applyTimers(entries, 'a', effects)).toEqual({ timers, rest });
  });
});

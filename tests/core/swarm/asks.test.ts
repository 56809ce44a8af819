import { describe, expect, it } from 'vitest';
import { askDeadline, reduceAsks, type AskContext, type AskEffect, type AskEvent, type Asks } from '../../../src/core/swarm/asks.js';

const NOW = 1_700_000_000_000;
const ASK = 60_000;
const ctx: AskContext = { now: NOW, askMs: ASK, leadAgent: 'lead', leadName: 'lead', lead: { paneId: '%1', generation: 1 } };
const none: Asks = { asks: [], askTimeouts: 0 };
const old = (from: string, ago = ASK) => ({ from, at: NOW - ago });
const timeout = (lane: string, count: number): AskEffect => ({ type: 'journal', kind: 'observation', event: 'ask_timeout', lane, data: { to: 'lead', count } });
const unreachable: AskEffect[] = [
  { type: 'journal', kind: 'intervention', event: 'lead_unreachable', lane: 'lead', data: { generation: 1, why: '2 asks to lead timed out' } },
  { type: 'take_over', paneId: '%1' },
];

describe('reduceAsks', () => {
  it.each<[string, Asks, AskEvent, AskContext, Asks, AskEffect[]]>([
    ['an ask is recorded', none, { type: 'asked', from: 'lane-a', at: NOW }, ctx, { asks: [{ from: 'lane-a', at: NOW }], askTimeouts: 0 }, []],
    ['a second ask from the same lane is kept too', { asks: [old('lane-a', 5)], askTimeouts: 1 }, { type: 'asked', from: 'lane-a', at: NOW }, ctx,
      { asks: [old('lane-a', 5), { from: 'lane-a', at: NOW }], askTimeouts: 1 }, []],
    ['the lead answers the asker: its asks go, the count starts again', { asks: [old('lane-a', 5), old('lane-b', 5)], askTimeouts: 1 },
      { type: 'lead_spoke', to: 'lane-a' }, ctx, { asks: [old('lane-b', 5)], askTimeouts: 0 }, []],
    ['the lead speaks to nobody in particular: alive, the asks stay', { asks: [old('lane-a', 5)], askTimeouts: 1 },
      { type: 'lead_spoke', to: null }, ctx, { asks: [old('lane-a', 5)], askTimeouts: 0 }, []],
    ['the lead speaks with no ask open', none, { type: 'lead_spoke', to: 'lane-a' }, ctx, none, []],
    ['due with nothing open: nothing', none, { type: 'ask_due' }, ctx, none, []],
    ['due early (the ask is younger than timeouts.ask): nothing', { asks: [old('lane-a', ASK - 1)], askTimeouts: 0 }, { type: 'ask_due' }, ctx,
      { asks: [old('lane-a', ASK - 1)], askTimeouts: 0 }, []],
    ['one ask times out: counted, journaled', { asks: [old('lane-a')], askTimeouts: 0 }, { type: 'ask_due' }, ctx,
      { asks: [], askTimeouts: 1 }, [timeout('lane-a', 1)]],
    ['the second in a row: the lead is taken over, the count starts again', { asks: [old('lane-b')], askTimeouts: 1 }, { type: 'ask_due' }, ctx,
      { asks: [], askTimeouts: 0 }, [timeout('lane-b', 2), ...unreachable]],
    ['two at once: both counted, then the takeover', { asks: [old('lane-a'), old('lane-b', ASK + 5), old('lane-c', 1)], askTimeouts: 0 }, { type: 'ask_due' }, ctx,
      { asks: [old('lane-c', 1)], askTimeouts: 0 }, [timeout('lane-a', 1), timeout('lane-b', 2), ...unreachable]],
    ['two in a row but the lead has no pane (a successor starting): counted, no takeover', { asks: [old('lane-a')], askTimeouts: 1 }, { type: 'ask_due' },
      { ...ctx, lead: { paneId: null, generation: 2 } }, { asks: [], askTimeouts: 2 }, [timeout('lane-a', 2)]],
    ['the lead goes by its successor name', { asks: [old('lane-a')], askTimeouts: 1 }, { type: 'ask_due' }, { ...ctx, leadAgent: 'lead-b', lead: { paneId: '%9', generation: 2 } },
      { asks: [], askTimeouts: 0 }, [
        { type: 'journal', kind: 'observation', event: 'ask_timeout', lane: 'lane-a', data: { to: 'lead-b', count: 2 } },
        { type: 'journal', kind: 'intervention', event: 'lead_unreachable', lane: 'lead', data: { generation: 2, why: '2 asks to lead-b timed out' } },
        { type: 'take_over', paneId: '%9' },
      ]],
  ])('%s', (_name, state, event, context, next, effects) => {
    const step = reduceAsks(state, event, context);
    expect(step.state).toEqual(next);
    expect(step.effects).toEqual(effects);
  });

  it.each<[string, Asks, number | null]>([
    ['no ask open', none, null],
    ['one ask', { asks: [{ from: 'a', at: NOW }], askTimeouts: 0 }, NOW + ASK],
    ['the oldest of several', { asks: [{ from: 'a', at: NOW }, { from: 'b', at: NOW - 10 }], askTimeouts: 0 }, NOW - 10 + ASK],
  ])('askDeadline: %s', (_name, state, due) => {
    expect(askDeadline(state, ASK)).toBe(due);
  });
});

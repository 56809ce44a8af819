import { describe, expect, it } from 'vitest';
import { askRefusal, openAsks, type RunMessage } from '../../../src/core/swarm/askLimits.js';

const MIN = 60_000;
const ASK_MS = 30 * MIN;

function m(from: string, to: string, text: string, at: number, role: 'lead' | 'lane' = 'lane'): RunMessage {
  return { from, role, to, text, at: at * MIN };
}

describe('openAsks (SPEC 10.6): open from notify until answered or timed out', () => {
  const cases: { name: string; messages: RunMessage[]; now: number; open: string[] }[] = [
    { name: 'no messages', messages: [], now: 10, open: [] },
    { name: 'a report is no ask', messages: [m('lane-a', 'lead', 'done\ncapacity=ok @c1', 1)], now: 10, open: [] },
    { name: 'an ask stays open', messages: [m('lane-a', 'lane-b', 'ask which port?', 1)], now: 10, open: ['lane-a>lane-b@1'] },
    {
      name: 'answered by the asked lane',
      messages: [m('lane-a', 'lane-b', 'ask which port?', 1), m('lane-b', 'lane-a', 'answer 8080', 2)],
      now: 10, open: [],
    },
    {
      name: 'a reply without the word answer still answers',
      messages: [m('lane-a', 'lane-b', 'ask which port?', 1), m('lane-b', 'lane-a', '8080, see config.ts', 2)],
      now: 10, open: [],
    },
    {
      name: 'an ask back is no answer',
      messages: [m('lane-a', 'lane-b', 'ask which port?', 1), m('lane-b', 'lane-a', 'ask for which service?', 2)],
      now: 10, open: ['lane-a>lane-b@1', 'lane-b>lane-a@2'],
    },
    {
      name: 'a reply from someone else answers nothing',
      messages: [m('lane-a', 'lane-b', 'ask which port?', 1), m('lane-c', 'lane-a', 'answer 8080', 2)],
      now: 10, open: ['lane-a>lane-b@1'],
    },
    {
      name: 'a reply answers only the asks of the one it is addressed to',
      messages: [m('lane-a', 'lane-b', 'ask which port?', 1), m('lane-c', 'lane-b', 'ask which host?', 2), m('lane-b', 'lane-a', 'answer 8080', 3)],
      now: 10, open: ['lane-c>lane-b@2'],
    },
    {
      name: 'a reply before the ask answers nothing',
      messages: [m('lane-b', 'lane-a', 'answer 8080', 1), m('lane-a', 'lane-b', 'ask which port?', 2)],
      now: 10, open: ['lane-a>lane-b@2'],
    },
    {
      name: 'messages out of order are taken by time',
      messages: [m('lane-b', 'lane-a', 'answer 8080', 3), m('lane-a', 'lane-b', 'ask which port?', 2)],
      now: 10, open: [],
    },
    {
      name: 'one reply answers every ask to the replier',
      messages: [m('lane-a', 'lane-b', 'ask one', 1), m('lane-a', 'lane-b', 'ask two', 2), m('lane-a', 'lane-c', 'ask three', 3), m('lane-b', 'lane-a', 'answer both', 4)],
      now: 10, open: ['lane-a>lane-c@3'],
    },
    {
      name: 'any lead agent answers an ask to the lead (a successor lead included)',
      messages: [m('lane-a', 'lead', 'ask may I merge?', 1), m('lead-b', 'lane-a', 'yes', 2, 'lead')],
      now: 10, open: [],
    },
    {
      name: 'a lane named like the lead answers no ask to the lead',
      messages: [m('lane-a', 'lead', 'ask may I merge?', 1), m('lead', 'lane-a', 'yes', 2, 'lane')],
      now: 10, open: ['lane-a>lead@1'],
    },
    { name: 'timed out at timeouts.ask', messages: [m('lane-a', 'lane-b', 'ask which port?', 1)], now: 31, open: [] },
    { name: 'a minute before its timeout it is open', messages: [m('lane-a', 'lane-b', 'ask which port?', 1)], now: 30, open: ['lane-a>lane-b@1'] },
    {
      name: 'case, leading spaces, CRLF and colours',
      messages: [m('lane-a', 'lane-b', '  ASK which port?\r\n', 1), m('lane-a', 'lane-c', '\u001b[1mask\u001b[0m which host?', 2)],
      now: 10, open: ['lane-a>lane-b@1', 'lane-a>lane-c@2'],
    },
    { name: '"asking" is no ask', messages: [m('lane-a', 'lane-b', 'asking around', 1), m('lane-a', 'lane-b', 'ask', 1)], now: 10, open: [] },
    { name: 'a message from the future (a clock ahead) is not counted yet', messages: [m('lane-a', 'lane-b', 'ask later', 20)], now: 10, open: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(openAsks(c.messages, c.now * MIN, ASK_MS).map((a) => `${a.from}>${a.to}@${a.at / MIN}`)).toEqual(c.open);
    });
  }
});

describe('askRefusal (SPEC 10.6): max_asks open at once, depth 1', () => {
  const open = (...asks: [string, string, number][]) => asks.map(([from, to, at]) => ({ from, to, at: at * MIN }));
  const refuse = (asks: ReturnType<typeof open>, from: string, to: string, maxAsks = 3) => askRefusal(asks, { from, to, maxAsks }, ASK_MS, 10 * MIN);

  it('lets a lane with fewer than max_asks open ask', () => {
    expect(refuse(open(['lane-a', 'lane-b', 1], ['lane-a', 'lead', 2]), 'lane-a', 'lane-c')).toBeNull();
  });
  it('refuses the ask beyond max_asks, saying how many are open to whom and when one frees', () => {
    const why = refuse(open(['lane-a', 'lane-b', 1], ['lane-a', 'lead', 2], ['lane-a', 'lane-b', 3]), 'lane-a', 'lane-c');
    expect(why).toBe(
      'lane-a has 3 asks open (2 to lane-b, 1 to lead), the most max_asks allows (3): wait for an answer (or for the oldest to time out in 21 min) before you ask again',
    );
  });
  it('counts the limit for asks to the lead too, and only the asker\'s own asks', () => {
    expect(refuse(open(['lane-a', 'lane-b', 1]), 'lane-a', 'lead', 1)).toContain('max_asks allows (1)');
    expect(refuse(open(['lane-b', 'lane-c', 1], ['lane-b', 'lane-c', 2]), 'lane-a', 'lane-c', 2)).toBeNull();
  });
  it('refuses a lane with an unanswered ask to it asking another lane', () => {
    expect(refuse(open(['lane-b', 'lane-a', 1]), 'lane-a', 'lane-c')).toBe(
      'lane-b is waiting for your answer: answer first (swarm notify lane-b "answer …"); asks go one level deep, so a lane with an open ask to it asks no other lane (the lead and its asker it may)',
    );
    expect(refuse(open(['lane-b', 'lane-a', 1], ['lane-d', 'lane-a', 2]), 'lane-a', 'lane-c')).toMatch(/^lane-b, lane-d are waiting/);
  });
  it('lets it ask the lead, or ask back a lane that asked it', () => {
    expect(refuse(open(['lane-b', 'lane-a', 1]), 'lane-a', 'lead')).toBeNull();
    expect(refuse(open(['lane-b', 'lane-a', 1], ['lane-d', 'lane-a', 2]), 'lane-a', 'lane-b')).toBeNull();
  });
});

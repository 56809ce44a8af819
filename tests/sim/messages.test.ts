import { changesNotice } from '../../src/machine/review.js';
import { describe, expect, it } from 'vitest';
import { answerText, firstLine, meaningOf, parseMailbox, type MailMessage } from '../../src/sim/messages.js';
import { mailboxEntry, pointerLine } from '../../src/core/protocol/mailbox.js';

const ESC = '\x1b';
const at = new Date('2026-01-01T00:00:00Z');
const ISO = at.toISOString();

describe('parseMailbox', () => {
  it('reads what swarm appends: a lead notice, a lane and the developer, bodies unindented', () => {
    const text = [
      mailboxEntry({ kind: 'lead_notice', lead: 'lead-b', epoch: 2 }, at, 'lead notice: the lead is now lead-b@2; take lead notices only from it.'),
      mailboxEntry({ kind: 'lane', name: 'lane-c', generation: 1 }, at, 'ask what is your file?\nand where?'),
      mailboxEntry({ kind: 'developer' }, at, ''),
    ].join('');
    expect(parseMailbox(text)).toEqual([
      { at: ISO, from: 'swarm', authority: 'lead_notice', text: 'lead notice: the lead is now lead-b@2; take lead notices only from it.' },
      { at: ISO, from: 'lane-c', authority: 'lane', text: 'ask what is your file?\nand where?' },
      { at: ISO, from: 'the developer', authority: 'developer', text: '' },
    ]);
  });

  it('does not take the pointer line for a header', () => {
    expect(parseMailbox(pointerLine(2, '/p/.swarm/mailbox/lane-a.md'))).toEqual([]);
  });
});

describe('meaningOf', () => {
  const m = (from: string, text: string): MailMessage => ({ at: 'T', from, authority: from === 'swarm' ? 'swarm' : 'lane', text });
  it.each([
    ['an ask', m('lane-c', 'ask what is your file called?'), { kind: 'ask', question: 'what is your file called?' }],
    ['an ask in upper case with spaces', m('lane-c', '  ASK   which port?  '), { kind: 'ask', question: 'which port?' }],
    ['an ask with ANSI', m('lane-c', `${ESC}[1mask${ESC}[0m where?`), { kind: 'ask', question: 'where?' }],
    ['an answer', m('lane-a', 'answer greeting.txt'), { kind: 'answer', answer: 'greeting.txt' }],
    ['a multi-line answer', m('lane-a', 'answer one\ntwo'), { kind: 'answer', answer: 'one\ntwo' }],
    ['hand off now', m('swarm', 'swarm: hand off now. Write your packet with `swarm packet write …`'), { kind: 'handoff_now' }],
    ['hand off soon', m('swarm', 'swarm: you are running low (capacity low 20%). Finish your current step'), { kind: 'handoff_soon' }],
    ["the lead's hand over now", m('swarm', 'swarm: hand over the lead now. Write your lead packet …'), { kind: 'handoff_now' }],
    ["the lead's running low", m('swarm', 'swarm: you, the lead, are running low (capacity low 20%). Keep leading'), { kind: 'handoff_soon' }],
    ['a rejection', m('swarm', 'swarm: your packet /p/h/lane-a-g1.yaml was rejected:\n- mode 0644'), { kind: 'rejected', packet: '/p/h/lane-a-g1.yaml' }],
    ['the release', m('swarm', 'Every lane is done. Release the plan: `swarm lead release`.'), { kind: 'release' }],
    ['a lead notice', m('swarm', 'lead notice: the lead is now lead-b@2; take lead notices only from it.'), { kind: 'lead_notice', lead: 'lead-b', epoch: 2 }],
    ['swarm words from a lane are a note', m('lane-b', 'swarm: hand off now'), { kind: 'note' }],
    ['a release from a lane is a note', m('lane-b', 'Every lane is done. Release the plan'), { kind: 'note' }],
    ['a lane named swarm is no swarm', { at: 'T', from: 'swarm', authority: 'lane' as const, text: 'swarm: hand off now' }, { kind: 'note' }],
    ['a lead notice under its own header', { at: 'T', from: 'swarm', authority: 'lead_notice' as const, text: 'lead notice: the lead is now lead-b@2; take lead notices only from it.' }, { kind: 'lead_notice', lead: 'lead-b', epoch: 2 }],
    ['anything else', m('lead', 'please hurry'), { kind: 'note' }],
    ['empty', m('lead', ''), { kind: 'note' }],
    ['whitespace only', m('lead', '  \n '), { kind: 'note' }],
    ['"asked" is no ask', m('lane-c', 'asked already'), { kind: 'note' }],
    ['a review asking for changes (SPEC 10.6)', m('swarm', changesNotice(2, 'add a test')), { kind: 'changes' }],
    ['the same words from a lane are a note', m('lane-b', changesNotice(1, 'x')), { kind: 'note' }],
  ])('%s', (_name, message, expected) => {
    expect(meaningOf(message)).toEqual(expected);
  });
});

describe('answerText', () => {
  it.each([
    ['written files', [{ path: 'greeting.txt', exists: true }], 'answer greeting.txt'],
    ['several, one planned', [{ path: 'a.txt', exists: true }, { path: 'b.txt', exists: false }], 'answer a.txt, b.txt (planned, not written yet)'],
    ['no files', [], 'answer I make no files in this plan'],
    ['duplicates once', [{ path: 'a.txt', exists: true }, { path: 'a.txt', exists: true }], 'answer a.txt'],
  ])('%s', (_name, files, expected) => {
    expect(answerText(files)).toBe(expected);
  });
});

describe('firstLine', () => {
  it.each([
    ['', ''],
    ['  one\ntwo', 'one'],
    [`${ESC}[1mbold${ESC}[0m\r\nnext`, 'bold'],
    ['x'.repeat(120), `${'x'.repeat(99)}…`],
  ])('%j', (text, expected) => {
    expect(firstLine(text)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import {
  claim, compareAndSwap, fence, handover, mayTakeOver, nextInSuccession, parseLeadRecord, recordLane, release, takeover, winner,
  type LeadHealth, type LeadOutcome, type LeadRecord,
} from '../../../src/core/lead/epochs.js';

const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T01:00:00.000Z';

const rec = (over: Partial<LeadRecord> = {}): LeadRecord => ({
  plan: 'demo', lead: 'lead', epoch: 3, succession: ['lead-b', 'lane-a'], lanes: ['lane-a', 'lane-b'],
  revision: 7, updated_at: T0, released: false, account: 'work1', ...over,
});

function record(outcome: LeadOutcome): LeadRecord {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.code}: ${outcome.message}`);
  return outcome.record;
}

describe('claim', () => {
  it('first claim is epoch 1, revision 1, no lanes', () => {
    expect(claim(null, { plan: 'demo', lead: 'lead', account: 'work1', succession: ['lead-b'], now: T1 })).toEqual({
      ok: true,
      record: { plan: 'demo', lead: 'lead', epoch: 1, succession: ['lead-b'], lanes: [], revision: 1, updated_at: T1, released: false, account: 'work1' },
    });
  });

  it('first claim without an account records account null', () => {
    expect(record(claim(null, { plan: 'demo', lead: 'lead', succession: [], now: T1 })).account).toBeNull();
  });

  it('re-claim by the same lead keeps epoch and lanes (re-adopting), bumps revision', () => {
    expect(record(claim(rec(), { plan: 'demo', lead: 'lead', succession: ['lane-a'], now: T1 }))).toEqual(
      rec({ revision: 8, updated_at: T1, succession: ['lane-a'] }),
    );
  });

  it('re-claim with an account refreshes it', () => {
    expect(record(claim(rec(), { plan: 'demo', lead: 'lead', account: 'work3', succession: [], now: T1 })).account).toBe('work3');
  });

  it('a claim by another while held is refused, naming the holder and epoch', () => {
    expect(claim(rec(), { plan: 'demo', lead: 'lead-b', succession: [], now: T1 })).toEqual({
      ok: false, code: 'held',
      message: 'plan demo is led by lead@3; lead-b cannot claim it until that lead releases or hands over (or a succession entry takes over)',
    });
  });

  it.each([
    ['released', rec({ released: true })],
    ['vacant (lead null)', rec({ lead: null })],
  ])('a %s record is claimed anew with epoch + 1 and no lanes', (_label, current) => {
    expect(record(claim(current, { plan: 'demo', lead: 'lead-b', account: 'work3', succession: ['lane-a'], now: T1 }))).toEqual(
      rec({ lead: 'lead-b', epoch: 4, succession: ['lane-a'], lanes: [], revision: 8, updated_at: T1, released: false, account: 'work3' }),
    );
  });
});

describe('recordLane', () => {
  it('appends a new lane with revision + 1', () => {
    expect(recordLane(rec(), 'lane-c', T1)).toEqual(rec({ lanes: ['lane-a', 'lane-b', 'lane-c'], revision: 8, updated_at: T1 }));
  });
  it('is idempotent for a lane already recorded', () => {
    const current = rec();
    expect(recordLane(current, 'lane-a', T1)).toBe(current);
  });
});

describe('fence', () => {
  it('passes the lead at the current epoch', () => {
    expect(fence(rec(), { caller: 'lead', epoch: 3 })).toEqual({ ok: true, record: rec() });
  });
  it.each([
    ['another caller', rec(), 'lead-b', 3,
      'lead-b@3 is not the lead of plan demo (lead is lead@3); only the current lead acts as lead, and a returning lead that sees a higher epoch stands down'],
    ['a stale epoch', rec(), 'lead', 2,
      'lead@2 does not carry the current epoch of plan demo (lead is lead@3); a lead command or notice must carry the current epoch (SWARM_EPOCH or --epoch 3)'],
    ['a future epoch', rec(), 'lead', 4,
      'lead@4 does not carry the current epoch of plan demo (lead is lead@3); a lead command or notice must carry the current epoch (SWARM_EPOCH or --epoch 3)'],
    ['a released record', rec({ released: true }), 'lead', 3,
      'lead@3 cannot act as lead: the lead record of plan demo is released (last lead@3); claim it anew first'],
    ['a vacant record', rec({ lead: null }), 'lead', 3,
      'lead@3 is not the lead of plan demo (lead is nobody@3); only the current lead acts as lead, and a returning lead that sees a higher epoch stands down'],
    ['an upper-case caller', rec(), 'LEAD', 3,
      'LEAD@3 is not the lead of plan demo (lead is lead@3); only the current lead acts as lead, and a returning lead that sees a higher epoch stands down'],
  ])('refuses %s', (_label, current, caller, epoch, message) => {
    expect(fence(current, { caller, epoch })).toEqual({ ok: false, code: 'fenced', message });
  });
  it('no record → no_record', () => {
    expect(fence(null, { caller: 'lead', epoch: 1 })).toEqual({
      ok: false, code: 'no_record', message: 'no lead record yet, so there is nothing to act on; swarm up claims it before any lane starts',
    });
  });
});

describe('handover', () => {
  it('the lead at the current epoch hands over: epoch + 1, lead = to, to leaves the succession', () => {
    expect(record(handover(rec(), { caller: 'lead', epoch: 3, to: 'lead-b', now: T1, account: 'work3' }))).toEqual(
      rec({ lead: 'lead-b', epoch: 4, succession: ['lane-a'], revision: 8, updated_at: T1, account: 'work3' }),
    );
  });
  it('to a recorded lane that is not in the succession; account unknown → null', () => {
    expect(record(handover(rec(), { caller: 'lead', epoch: 3, to: 'lane-b', now: T1 }))).toEqual(
      rec({ lead: 'lane-b', epoch: 4, revision: 8, updated_at: T1, account: null }),
    );
  });
  it.each([
    ['a non-lead', 'lead-b', 3, 'lead-b@3 is not the lead of plan demo (lead is lead@3); only the current lead acts as lead, and a returning lead that sees a higher epoch stands down'],
    ['a stale epoch', 'lead', 2, 'lead@2 does not carry the current epoch of plan demo (lead is lead@3); a lead command or notice must carry the current epoch (SWARM_EPOCH or --epoch 3)'],
  ])('by %s is fenced', (_label, caller, epoch, message) => {
    expect(handover(rec(), { caller, epoch, to: 'lead-b', now: T1 })).toEqual({ ok: false, code: 'fenced', message });
  });
  it.each([
    ['a stranger', 'lead-z', 'lead-z cannot take over plan demo: hand over to a succession entry or a lane (lead-b, lane-a, lane-b)'],
    ['itself', 'lead', 'lead cannot take over plan demo: hand over to a succession entry or a lane (lead-b, lane-a, lane-b)'],
    ['an empty name', '', '(empty) cannot take over plan demo: hand over to a succession entry or a lane (lead-b, lane-a, lane-b)'],
  ])('to %s → unknown_successor', (_label, to, message) => {
    expect(handover(rec(), { caller: 'lead', epoch: 3, to, now: T1 })).toEqual({ ok: false, code: 'unknown_successor', message });
  });
  it('names "none recorded" when there is nobody to hand over to', () => {
    expect(handover(rec({ succession: [], lanes: [] }), { caller: 'lead', epoch: 3, to: 'x', now: T1 })).toEqual({
      ok: false, code: 'unknown_successor', message: 'x cannot take over plan demo: hand over to a succession entry or a lane (none recorded)',
    });
  });
  it('no record / released', () => {
    expect(handover(null, { caller: 'lead', epoch: 3, to: 'lead-b', now: T1 })).toMatchObject({ ok: false, code: 'no_record' });
    expect(handover(rec({ released: true }), { caller: 'lead', epoch: 3, to: 'lead-b', now: T1 })).toEqual({
      ok: false, code: 'released',
      message: 'the lead record of plan demo is released (last lead@3); there is nothing to hand over: claim it anew',
    });
  });
});

describe('mayTakeOver', () => {
  const health = (over: Partial<LeadHealth> = {}): LeadHealth => ({ lead: 'lead', state: 'working', account: 'a1', limited: false, askTimeouts: 0, ...over });
  it.each<[string, LeadHealth | null, boolean, string]>([
    ['no record of the lead (no engine ever ran)', null, false, 'no engine has recorded how the lead is (no .swarm/state.json)'],
    ['a working lead', health(), false, 'lead lead is working as the engine last recorded it (not lost, account not limited, 0 ask(s) timed out)'],
    ['a blocked lead', health({ state: 'blocked' }), false, 'lead lead is blocked as the engine last recorded it'],
    ['one ask timed out', health({ askTimeouts: 1 }), false, '1 ask(s) timed out'],
    ['a lost lead (pane dead)', health({ state: 'lost' }), true, 'lead lead is lost'],
    ['a limited account', health({ limited: true }), true, "lead lead's account a1 is limited"],
    ['two asks timed out', health({ askTimeouts: 2 }), true, '2 asks to lead lead timed out'],
    ['three asks timed out, lead-b', health({ lead: 'lead-b', askTimeouts: 3 }), true, '3 asks to lead lead-b timed out'],
  ])('%s', (_name, input, ok, text) => {
    const verdict = mayTakeOver(input);
    expect(verdict.ok).toBe(ok);
    expect(verdict.ok ? verdict.why : verdict.message).toContain(text);
    if (!verdict.ok) expect(verdict.code).toBe('fenced');
  });
});

describe('takeover', () => {
  it('a succession entry at the current epoch takes over with epoch + 1', () => {
    expect(record(takeover(rec(), { by: 'lane-a', epoch: 3, now: T1 }))).toEqual(
      rec({ lead: 'lane-a', epoch: 4, succession: ['lead-b'], revision: 8, updated_at: T1, account: null }),
    );
  });
  it('force lets the engine install a new lead outside the succession', () => {
    expect(record(takeover(rec(), { by: 'lead-2', epoch: 3, now: T1, force: true, account: 'work3' }))).toMatchObject({
      lead: 'lead-2', epoch: 4, succession: ['lead-b', 'lane-a'], account: 'work3',
    });
  });
  it('a stale epoch is fenced', () => {
    expect(takeover(rec(), { by: 'lead-b', epoch: 2, now: T1 })).toEqual({
      ok: false, code: 'fenced', message: 'lead-b believes plan demo is at epoch 2 but it is at lead@3; read lead.json again before taking over',
    });
  });
  it('a stale epoch is fenced even with force', () => {
    expect(takeover(rec(), { by: 'lead-2', epoch: 2, now: T1, force: true })).toMatchObject({ ok: false, code: 'fenced' });
  });
  it('a name outside the succession is refused', () => {
    expect(takeover(rec(), { by: 'lane-b', epoch: 3, now: T1 })).toEqual({
      ok: false, code: 'unknown_successor',
      message: 'lane-b is not in the succession of plan demo (lead-b, lane-a); only a succession entry may take over',
    });
  });
  it('an empty succession says so', () => {
    expect(takeover(rec({ succession: [] }), { by: '', epoch: 3, now: T1 })).toEqual({
      ok: false, code: 'unknown_successor', message: '(empty) is not in the succession of plan demo (empty); only a succession entry may take over',
    });
  });
  it('no record / released', () => {
    expect(takeover(null, { by: 'lead-b', epoch: 3, now: T1 })).toEqual({
      ok: false, code: 'no_record', message: 'no lead record yet, so there is nothing to take over; swarm up claims it before any lane starts',
    });
    expect(takeover(rec({ released: true }), { by: 'lead-b', epoch: 3, now: T1 })).toMatchObject({ ok: false, code: 'released' });
  });
});

describe('release', () => {
  it('the lead at the current epoch releases', () => {
    expect(record(release(rec(), { caller: 'lead', epoch: 3, now: T1 }))).toEqual(rec({ released: true, revision: 8, updated_at: T1 }));
  });
  it.each([
    ['another caller', 'lane-a', 3],
    ['a stale epoch', 'lead', 1],
  ])('by %s is fenced', (_label, caller, epoch) => {
    expect(release(rec(), { caller, epoch, now: T1 })).toMatchObject({ ok: false, code: 'fenced' });
  });
  it('twice → released', () => {
    expect(release(rec({ released: true }), { caller: 'lead', epoch: 3, now: T1 })).toEqual({
      ok: false, code: 'released', message: 'the lead record of plan demo is released (last lead@3); there is nothing to release: claim it anew',
    });
  });
  it('no record', () => {
    expect(release(null, { caller: 'lead', epoch: 3, now: T1 })).toMatchObject({ ok: false, code: 'no_record' });
  });
});

describe('compareAndSwap', () => {
  const change = rec({ lead: 'lead-b', epoch: 4, revision: 99, updated_at: 'x' });
  it('applies when the revision matches: revision + 1, updated_at = now', () => {
    expect(compareAndSwap(rec(), 7, change, T1)).toEqual({ ok: true, record: { ...change, revision: 8, updated_at: T1 } });
  });
  it('a null current counts as revision 0', () => {
    expect(compareAndSwap(null, 0, change, T1)).toEqual({ ok: true, record: { ...change, revision: 1, updated_at: T1 } });
  });
  it.each([
    ['older', rec(), 6, 'lead.json of plan demo changed meanwhile (revision 7, expected 6); read it again and retry'],
    ['newer', rec(), 8, 'lead.json of plan demo changed meanwhile (revision 7, expected 8); read it again and retry'],
    ['null current, expected 1', null, 1, 'lead.json of plan demo changed meanwhile (revision 0, expected 1); read it again and retry'],
    ['existing, expected 0', rec(), 0, 'lead.json of plan demo changed meanwhile (revision 7, expected 0); read it again and retry'],
  ])('refuses a wrong revision (%s)', (_label, current, expected, message) => {
    expect(compareAndSwap(current, expected, change, T1)).toEqual({ ok: false, code: 'revision', message });
  });
});

describe('winner', () => {
  const succession = ['lead-b', 'lane-a'];
  it.each([
    ['higher epoch wins over the record lead', { name: 'lead', epoch: 3 }, { name: 'lane-a', epoch: 4 }, 'lane-a'],
    ['higher epoch wins, first argument', { name: 'lane-a', epoch: 5 }, { name: 'lead', epoch: 4 }, 'lane-a'],
    ['tie: record lead before succession', { name: 'lead-b', epoch: 3 }, { name: 'lead', epoch: 3 }, 'lead'],
    ['tie: earlier succession entry', { name: 'lane-a', epoch: 3 }, { name: 'lead-b', epoch: 3 }, 'lead-b'],
    ['tie: known before unknown', { name: 'zed', epoch: 3 }, { name: 'lane-a', epoch: 3 }, 'lane-a'],
    ['tie: two unknown → alphabetical', { name: 'zed', epoch: 3 }, { name: 'amy', epoch: 3 }, 'amy'],
    ['tie: two unknown, other order', { name: 'amy', epoch: 3 }, { name: 'zed', epoch: 3 }, 'amy'],
  ])('%s', (_label, a, b, expected) => {
    expect(winner(a, b, succession, 'lead')).toBe(expected);
  });
  it('with no record lead, succession order decides', () => {
    expect(winner({ name: 'lane-a', epoch: 2 }, { name: 'lead-b', epoch: 2 }, succession, null)).toBe('lead-b');
  });
});

describe('nextInSuccession', () => {
  it.each<[string, string[], string | null]>([
    ['the first reachable', ['lead-b', 'lane-a'], 'lead-b'],
    ['skips the unreachable', ['lane-a'], 'lane-a'],
    ['none reachable', [], null],
  ])('%s', (_label, up, expected) => {
    expect(nextInSuccession(rec(), (name) => up.includes(name))).toBe(expected);
  });
  it('skips the current lead', () => {
    expect(nextInSuccession(rec({ lead: 'lead-b' }), () => true)).toBe('lane-a');
  });
});

describe('parseLeadRecord', () => {
  const base = { plan: 'demo', lead: 'lead', epoch: 3, succession: ['lead-b'], lanes: ['lane-a'], revision: 7, updated_at: T0 };
  const json = (o: object): string => JSON.stringify(o);
  const parsed: LeadRecord = { ...base, released: false };

  it.each([
    ['plain (released defaults to false)', json(base), parsed],
    ['pretty, CRLF', JSON.stringify(base, null, 2).replace(/\n/g, '\r\n'), parsed],
    ['with a BOM', `\uFEFF${json(base)}`, parsed],
    ['trailing spaces and newline', `${json(base)}   \n`, parsed],
    ['released and account', json({ ...base, released: true, account: 'work1' }), { ...parsed, released: true, account: 'work1' }],
    ['account null', json({ ...base, account: null }), { ...parsed, account: null }],
    ['lead null', json({ ...base, lead: null }), { ...parsed, lead: null }],
    ['unknown fields ignored, upper-case keys are not ours', json({ ...base, RELEASED: true }), parsed],
  ])('reads %s', (_label, text, expected) => {
    expect(parseLeadRecord(text)).toEqual({ ok: true, record: expected });
  });

  it.each([
    ['empty', '', 'lead.json is empty'],
    ['whitespace only', ' \r\n\t ', 'lead.json is empty'],
    ['BOM only', '\uFEFF', 'lead.json is empty'],
    ['malformed', '{"plan": "demo",', 'lead.json is not JSON: {"plan": "demo",'],
    ['multi-line malformed', '{\n"plan":\n}', 'lead.json is not JSON: { "plan": }'],
    ['ANSI escapes', '\x1b[31m{}\x1b[0m', 'lead.json is not JSON: {}'],
    ['an array', '[1, 2]', 'lead.json must be a JSON object, got [1, 2]'],
    ['null', 'null', 'lead.json must be a JSON object, got null'],
    ['a string', '"lead"', 'lead.json must be a JSON object, got "lead"'],
    ['missing plan', json({ ...base, plan: undefined }), 'lead.json is missing "plan"'],
    ['missing epoch', json({ ...base, epoch: undefined }), 'lead.json is missing "epoch"'],
    ['missing updated_at', json({ ...base, updated_at: undefined }), 'lead.json is missing "updated_at"'],
    ['upper-case key only', json({ ...base, epoch: undefined, EPOCH: 3 }), 'lead.json is missing "epoch"'],
    ['epoch as string', json({ ...base, epoch: '3' }), 'lead.json "epoch" must be a whole number ≥ 0, got "3"'],
    ['negative revision', json({ ...base, revision: -1 }), 'lead.json "revision" must be a whole number ≥ 0, got -1'],
    ['fractional epoch', json({ ...base, epoch: 1.5 }), 'lead.json "epoch" must be a whole number ≥ 0, got 1.5'],
    ['blank plan', json({ ...base, plan: '  ' }), 'lead.json "plan" must be a non-empty string, got "  "'],
    ['lead a number', json({ ...base, lead: 1 }), 'lead.json "lead" must be a name or null, got 1'],
    ['succession with a number', json({ ...base, succession: ['a', 2] }), 'lead.json "succession" must be a list of names, got ["a",2]'],
    ['lanes not a list', json({ ...base, lanes: 'lane-a' }), 'lead.json "lanes" must be a list of names, got "lane-a"'],
    ['released as string', json({ ...base, released: 'yes' }), 'lead.json "released" must be true or false, got "yes"'],
    ['account empty', json({ ...base, account: '' }), 'lead.json "account" must be a name or null, got ""'],
    ['ANSI in a value', json({ ...base, plan: 7, lead: '\x1b[31mx' }), 'lead.json "plan" must be a non-empty string, got 7'],
    ['ANSI in a bad value', json({ ...base, epoch: '\x1b[31m3' }), 'lead.json "epoch" must be a whole number ≥ 0, got "\\u001b[31m3"'],
  ])('refuses %s', (_label, text, reason) => {
    expect(parseLeadRecord(text)).toEqual({ ok: false, reason });
  });
});

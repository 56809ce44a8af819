import { describe, expect, it } from 'vitest';
import type { Account } from '../../../src/core/config/config.js';
import { isStale, leaseFileName, leaseHolder, parseLease, pick, skippedNotReady, type Lease, type PickInput, type Reading } from '../../../src/core/accounts/leases.js';
import { leaseFileOfKey, leaseKey, sharedKeys } from '../../../src/core/accounts/leaseKey.js';

const NOW = '2025-01-01T12:00:00.000Z';
const PAST = '2025-01-01T11:00:00.000Z';
const SOON = '2025-01-01T13:00:00.000Z';
const LATER = '2025-01-01T15:00:00.000Z';

const acct = (id: string, vendor: string): Account => ({ id, kind: vendor === 'openai' ? 'codex' : 'claude', vendor, env: {}, akProfile: null });
const POOL: Account[] = [acct('lead1', 'anthropic'), acct('a1', 'anthropic'), acct('a2', 'anthropic'), acct('o1', 'openai'), acct('o2', 'openai')];
const ok = (pct: number | null): Reading => ({ state: 'ok', remainingPct: pct, resetsAt: null });
const low = (pct: number | null): Reading => ({ state: 'low', remainingPct: pct, resetsAt: null });
const critical = (resetsAt: string | null = null): Reading => ({ state: 'critical', remainingPct: 3, resetsAt });
const unknown: Reading = { state: 'unknown', remainingPct: null, resetsAt: null };
const lease = (account: string, over: Partial<Lease> = {}): Lease => ({
  account, lane: 'lane-a', generation: 1, pid: 100, host: 'h1', acquired_at: NOW, ...over,
});

function input(over: Partial<PickInput> & { r?: Record<string, Reading>; s?: Record<string, string | null> } = {}): PickInput {
  const { r = {}, s = {}, ...rest } = over;
  return {
    pool: POOL, leases: [], readings: new Map(Object.entries(r)), spent: new Map(Object.entries(s)),
    leadAccount: 'lead1', now: NOW, ...rest,
  };
}

describe('pick: ranking', () => {
  it.each<[string, PickInput, string, string]>([
    ['ok by most remaining', input({ r: { a1: ok(40), a2: ok(70), o1: ok(55), o2: ok(10) } }), 'a2', 'a2: ok, 70% left'],
    ['ok before low even with less left', input({ r: { a1: low(60), a2: ok(30), o1: low(20), o2: low(5) } }), 'a2', 'a2: ok, 30% left'],
    ['ok with a % before ok without', input({ r: { a1: ok(null), a2: ok(1), o1: low(20), o2: low(5) } }), 'a2', 'a2: ok, 1% left'],
    ['ok without a % before low', input({ r: { a1: low(24), a2: ok(null), o1: low(20), o2: low(5) } }), 'a2', 'a2: ok'],
    ['every account low: by most remaining, and said so', input({ r: { a1: low(12), a2: low(24), o1: low(20), o2: low(5) } }), 'a2', 'a2: low, 24% left (every eligible account is low)'],
    ['unknown before low (a low account would hand off again at once)', input({ r: { a1: unknown, a2: low(15) } }), 'a1', 'a1: capacity unknown'],
    ['ok before low', input({ r: { a1: low(24), a2: ok(30), o1: low(22), o2: low(23) } }), 'a2', 'a2: ok, 30% left'],
    ['unknown after ok: no reading at all', input({ r: { o2: ok(5) } }), 'o2', 'o2: ok, 5% left'],
    ['unknown when nothing is known: pool order', input(), 'a1', 'a1: capacity unknown'],
    ['unknown state same as no reading: pool order', input({ r: { a1: unknown } }), 'a1', 'a1: capacity unknown'],
    ['ties by pool order', input({ r: { a1: ok(50), a2: ok(50), o1: ok(50), o2: ok(50) } }), 'a1', 'a1: ok, 50% left'],
  ])('%s', (_label, given, account, why) => {
    expect(pick(given)).toEqual({ ok: true, account, why });
  });
});

describe('pick: exclusions', () => {
  it.each<[string, PickInput, string]>([
    ["never the lead's account", input({ r: { lead1: ok(99), a1: ok(10) } }), 'a1'],
    ['never an excluded one', input({ exclude: ['a1'], r: { a1: ok(99), a2: ok(10) } }), 'a2'],
    ['never a leased one', input({ leases: [lease('a1')], r: { a1: ok(99), a2: ok(10) } }), 'a2'],
    ['never a spent one (reset unknown)', input({ s: { a1: null }, r: { a1: ok(99), a2: ok(10) } }), 'a2'],
    ['never a spent one before its reset', input({ s: { a1: SOON }, r: { a1: ok(99), a2: ok(10) } }), 'a2'],
    ['never a spent one with an unreadable reset', input({ s: { a1: 'soon' }, r: { a1: ok(99), a2: ok(10) } }), 'a2'],
    ['never a critical one', input({ r: { a1: critical(), a2: unknown } }), 'a2'],
    ['a spent one whose reset is past is eligible again', input({ s: { a1: PAST }, r: { a1: ok(99), a2: ok(10) } }), 'a1'],
    ['a spent one whose reset is exactly now is eligible again', input({ s: { a1: NOW }, r: { a1: ok(99), a2: ok(10) } }), 'a1'],
  ])('%s', (_label, given, account) => {
    expect(pick(given)).toMatchObject({ ok: true, account });
  });

  it("the lead's account is never chosen even when it is the only one with headroom", () => {
    const pool = [acct('lead1', 'anthropic'), acct('a1', 'anthropic')];
    expect(pick(input({ pool, r: { lead1: ok(90), a1: critical(SOON) } }))).toEqual({
      ok: false, resetsAt: SOON, why: `no account has headroom (lead1 the lead's, a1 critical)`,
    });
  });
});

describe('pick: vendor preference', () => {
  it('prefers another vendor over a better account of the same vendor, but not a low one', () => {
    expect(pick(input({ preferOtherThan: 'anthropic', r: { a1: ok(90), a2: ok(80), o1: low(20), o2: unknown } }))).toEqual({
      ok: true, account: 'o2', why: 'o2: capacity unknown, another vendor than anthropic',
    });
  });
  it('a low account of another vendor loses to an ok one of the same vendor (no swapping between low accounts)', () => {
    expect(pick(input({ preferOtherThan: 'anthropic', r: { a1: ok(90), a2: ok(80), o1: low(20), o2: low(22) } }))).toEqual({
      ok: true, account: 'a1', why: 'a1: ok, 90% left, same vendor anthropic (no other qualifies)',
    });
  });
  it('prefers an unknown account of another vendor', () => {
    expect(pick(input({ preferOtherThan: 'anthropic', pool: POOL.slice(0, 4), r: { a1: ok(90) } }))).toEqual({
      ok: true, account: 'o1', why: 'o1: capacity unknown, another vendor than anthropic',
    });
  });
  it('falls back to the same vendor when no other qualifies', () => {
    expect(pick(input({ preferOtherThan: 'anthropic', leases: [lease('o1')], r: { a1: ok(30), a2: ok(60), o2: critical() } }))).toEqual({
      ok: true, account: 'a2', why: 'a2: ok, 60% left, same vendor anthropic (no other qualifies)',
    });
  });
  it('null preference is no preference', () => {
    expect(pick(input({ preferOtherThan: null, r: { a1: ok(90), o1: ok(20) } }))).toEqual({ ok: true, account: 'a1', why: 'a1: ok, 90% left' });
  });
  it('a vendor absent from the pool changes nothing but the why', () => {
    expect(pick(input({ preferOtherThan: 'google', r: { a2: ok(90) } }))).toEqual({
      ok: true, account: 'a2', why: 'a2: ok, 90% left, another vendor than google',
    });
  });
});

describe('pick: none eligible', () => {
  it.each<[string, PickInput, string | null, string]>([
    ['the earliest reset among spent and critical', input({
      s: { a1: LATER, a2: SOON }, r: { o1: critical(LATER), o2: critical('2025-01-01T14:00:00.000Z') },
    }), SOON, `no account has headroom (lead1 the lead's, a1 spent until ${LATER}, a2 spent until ${SOON}, o1 critical, o2 critical)`],
    ['a critical reading may hold the earliest reset', input({
      s: { a1: LATER, a2: null }, r: { o1: critical(SOON), o2: critical() },
    }), SOON, `no account has headroom (lead1 the lead's, a1 spent until ${LATER}, a2 spent, o1 critical, o2 critical)`],
    ['a spent account without a reset uses its reading\'s reset', input({
      s: { a1: null, a2: null, o1: null, o2: null }, r: { o2: { state: 'critical', remainingPct: 0, resetsAt: SOON } },
    }), SOON, `no account has headroom (lead1 the lead's, a1 spent, a2 spent, o1 spent, o2 spent)`],
    ['no reset known → null', input({ s: { a1: null, a2: null }, r: { o1: critical(), o2: critical() } }), null,
      `no account has headroom (lead1 the lead's, a1 spent, a2 spent, o1 critical, o2 critical)`],
    ['past resets in critical readings are not waited for', input({ s: { a1: null, a2: null }, r: { o1: critical(PAST), o2: critical() } }), null,
      `no account has headroom (lead1 the lead's, a1 spent, a2 spent, o1 critical, o2 critical)`],
    ['leased and excluded accounts give no reset', input({
      leases: [lease('a1'), lease('a2')], exclude: ['o1', 'o2'], s: { a1: SOON, o1: SOON }, r: { a2: critical(SOON), o2: critical(SOON) },
    }), null, `no account has headroom (lead1 the lead's, a1 leased, a2 leased, o1 excluded, o2 excluded)`],
    ['an excluded account says why when told', input({
      exclude: ['a1', 'a2', 'o1', 'o2'], excludedBecause: new Map([['a1', 'the account lane-a g1 leaves'], ['o1', 'in use by lane-b g2']]),
    }), null, `no account has headroom (lead1 the lead's, a1 excluded (the account lane-a g1 leaves), a2 excluded, o1 excluded (in use by lane-b g2), o2 excluded)`],
    ["the lead's own reset is not waited for", input({ pool: POOL.slice(0, 2), s: { lead1: SOON, a1: LATER } }), LATER,
      `no account has headroom (lead1 the lead's, a1 spent until ${LATER})`],
    ['empty pool', input({ pool: [] }), null, 'no account has headroom (the pool is empty)'],
  ])('%s', (_label, given, resetsAt, why) => {
    expect(pick(given)).toEqual({ ok: false, resetsAt, why });
  });
});

describe('leaseHolder: free only when neither the engine nor the agent runs (SPEC 10.4)', () => {
  const ENGINE = 42;
  const AGENT = 77;
  const withAgent = { agent: { pid: AGENT, start: 900 } };
  it.each<[string, Partial<Lease>, { engine: boolean; agent: boolean; identity?: boolean }, ReturnType<typeof leaseHolder>]>([
    ['engine alive', {}, { engine: true, agent: false }, 'engine'],
    ['engine dead, no agent named, none found by identity', {}, { engine: false, agent: false }, null],
    ['engine dead, no agent named, one found by identity (killed between spawn and record)', {}, { engine: false, agent: false, identity: true }, 'agent'],
    ['engine dead, agent alive (agents outlive engines)', withAgent, { engine: false, agent: true }, 'agent'],
    ['engine dead, agent dead', withAgent, { engine: false, agent: false }, null],
    ['engine dead, agent dead: identity not asked once an agent is named', withAgent, { engine: false, agent: false, identity: true }, null],
    ['engine alive, agent dead', withAgent, { engine: true, agent: false }, 'engine'],
    ['another host: held whatever runs here', { host: 'h2' }, { engine: false, agent: false }, 'another host'],
  ])('%s', (_label, over, alive, expected) => {
    const given = lease('a1', { host: 'h1', pid: ENGINE, start: 500, plan: '/p', ...over });
    const asked: string[] = [];
    const facts = {
      host: 'h1',
      alive: (p: { pid: number; start: number | null }) => {
        asked.push(`${p.pid}@${p.start}`);
        return p.pid === ENGINE ? alive.engine : p.pid === AGENT && alive.agent;
      },
      agentByIdentity: () => alive.identity === true,
    };
    expect(leaseHolder(given, facts)).toBe(expected);
    expect(isStale(given, facts)).toBe(expected === null);
    // The engine is asked by its pid and start time, never by a bare pid.
    if (given.host === 'h1') expect(asked[0]).toBe(`${ENGINE}@500`);
  });
});

describe('leaseKey: one account per profile folder (SPEC 10.4)', () => {
  const at = { host: 'h1', config: '/home/u/p/swarm.yaml' };
  it.each<[string, string, { profile: string | null; host?: string; config?: string }, string]>([
    ['a profile folder: its real path and host', 'a1', { profile: '/home/u/.claude-work' }, 'h1:profile:/home/u/.claude-work'],
    ['another id on the same folder: the same key', 'a2', { profile: '/home/u/.claude-work' }, 'h1:profile:/home/u/.claude-work'],
    ['the same folder from another swarm.yaml: the same key', 'x', { profile: '/home/u/.claude-work', config: '/other/swarm.yaml' }, 'h1:profile:/home/u/.claude-work'],
    ['the same folder on another host: another account', 'a1', { profile: '/home/u/.claude-work', host: 'h2' }, 'h2:profile:/home/u/.claude-work'],
    ['no profile folder (sim, command): swarm.yaml and id', 's1', { profile: null }, 'h1:account:/home/u/p/swarm.yaml#s1'],
  ])('%s', (_label, id, facts, key) => {
    expect(leaseKey(id, { ...at, ...facts })).toBe(key);
  });
  it('the lease file is a fixed-length hash of the key: a long path fits, two keys two files', () => {
    const long = `h1:profile:/${'x'.repeat(5000)}`;
    expect(leaseFileOfKey(long)).toMatch(/^[0-9a-f]{32}\.json$/);
    expect(leaseFileOfKey('h1:account:/a#s1')).not.toBe(leaseFileOfKey('h1:account:/a#s2'));
    expect(leaseFileOfKey('h1:account:/a#s1')).toBe(leaseFileOfKey('h1:account:/a#s1'));
  });
  it('sharedKeys names the ids that are one account, in declaration order', () => {
    expect(sharedKeys(new Map([['a1', 'k1'], ['o1', 'k2'], ['a2', 'k1'], ['s1', 'k3'], ['a3', 'k1']]))).toEqual([['a1', 'a2', 'a3']]);
    expect(sharedKeys(new Map([['a1', 'k1'], ['a2', 'k2']]))).toEqual([]);
  });
});

describe('pick: machine-wide leases and low accounts (SPEC 10.4)', () => {
  it('a lease of another plan is "held by another swarm", and a pick that found only such is worth waiting for', () => {
    const pool = [acct('lead1', 'anthropic'), acct('a1', 'anthropic')];
    const result = pick(input({ pool, plan: '/me', leases: [lease('a1', { plan: '/other', lane: 'lane-x', generation: 3 })] }));
    expect(result).toEqual({ ok: false, resetsAt: null, heldElsewhere: true, why: "no account has headroom (lead1 the lead's, a1 held by another swarm (plan /other, lane-x g3))" });
  });
  it('a lease of this plan is "leased" and not worth waiting for here', () => {
    const pool = [acct('lead1', 'anthropic'), acct('a1', 'anthropic')];
    expect(pick(input({ pool, plan: '/me', leases: [lease('a1', { plan: '/me' })] }))).toEqual({ ok: false, resetsAt: null, why: "no account has headroom (lead1 the lead's, a1 leased)" });
  });
  it('with every account low: the one whose reset comes first, before the one with more left', () => {
    const r = { a1: { ...low(30), resetsAt: LATER }, a2: { ...low(10), resetsAt: SOON }, o1: low(40), o2: { ...low(20), resetsAt: LATER } };
    expect(pick(input({ r }))).toEqual({ ok: true, account: 'a2', why: `a2: low, 10% left, resets ${SOON} (every eligible account is low)` });
  });
  it('with every account low and no reset known: by most remaining', () => {
    expect(pick(input({ r: { a1: low(30), a2: low(10), o1: low(40), o2: low(20) } }))).toMatchObject({ ok: true, account: 'o1' });
  });
  it('an account back from its limit goes to one successor at a time: once one lane leases it, the next waits', () => {
    const s = { a1: PAST, a2: SOON, o1: SOON, o2: SOON };
    expect(pick(input({ s }))).toMatchObject({ ok: true, account: 'a1' });
    expect(pick(input({ s, leases: [lease('a1', { lane: 'lane-a', generation: 2 })] }))).toMatchObject({ ok: false, resetsAt: SOON });
  });
});

describe('leaseFileName', () => {
  it.each([
    ['work1', 'work1.json'],
    ['Work_1-b', 'Work_1-b.json'],
    ['a.b', 'a.b.json'],
    ['../etc', '%2E.%2Fetc.json'],
    ['a/b', 'a%2Fb.json'],
    ['a b', 'a%20b.json'],
    ['.hidden', '%2Ehidden.json'],
    ['é', '%C3%A9.json'],
    ['a%2Fb', 'a%252Fb.json'],
  ])('%j → %j', (account, expected) => {
    expect(leaseFileName(account)).toBe(expected);
  });
});

describe('parseLease', () => {
  const base: Lease = { account: 'work2', lane: 'lane-a', generation: 2, pid: 4242, host: 'box', acquired_at: NOW };
  const json = (o: object): string => JSON.stringify(o);

  it.each([
    ['plain', json(base)],
    ['pretty, CRLF', JSON.stringify(base, null, 2).replace(/\n/g, '\r\n')],
    ['with a BOM', `\uFEFF${json(base)}`],
    ['trailing spaces', `${json(base)}  \n\n`],
    ['unknown fields ignored', json({ ...base, Extra: 1 })],
  ])('reads %s', (_label, text) => {
    expect(parseLease(text)).toEqual({ ok: true, lease: base });
  });

  it.each([
    ['empty', '', 'lease is empty'],
    ['whitespace only', '  \r\n ', 'lease is empty'],
    ['malformed', '{"account":', 'lease is not JSON: {"account":'],
    ['ANSI escapes', '\x1b[1mlease\x1b[0m', 'lease is not JSON: lease'],
    ['an array', '[]', 'lease must be a JSON object, got []'],
    ['missing account', json({ ...base, account: undefined }), 'lease is missing "account"'],
    ['missing pid', json({ ...base, pid: undefined }), 'lease is missing "pid"'],
    ['upper-case key only', json({ ...base, host: undefined, HOST: 'box' }), 'lease is missing "host"'],
    ['missing acquired_at', json({ ...base, acquired_at: undefined }), 'lease is missing "acquired_at"'],
    ['pid zero', json({ ...base, pid: 0 }), 'lease "pid" must be a whole number ≥ 1, got 0'],
    ['pid as string', json({ ...base, pid: '4242' }), 'lease "pid" must be a whole number ≥ 1, got "4242"'],
    ['generation fractional', json({ ...base, generation: 1.5 }), 'lease "generation" must be a whole number ≥ 1, got 1.5'],
    ['blank lane', json({ ...base, lane: ' ' }), 'lease "lane" must be a non-empty string, got " "'],
    ['host null', json({ ...base, host: null }), 'lease "host" must be a non-empty string, got null'],
  ])('refuses %s', (_label, text, reason) => {
    expect(parseLease(text)).toEqual({ ok: false, reason });
  });
});

describe('pick: accounts not ready (issue 9 §5)', () => {
  const notReady = (m: Record<string, string>): ReadonlyMap<string, string> => new Map(Object.entries(m));
  it.each<[string, PickInput, string | null, { account: string; why: string }[]]>([
    ['none marked', input({ r: { a1: ok(90) } }), 'a1', []],
    ['the best one signed out: the next', input({ r: { a1: ok(90), a2: ok(50) }, notReady: notReady({ a1: 'signed out' }) }), 'a2', [{ account: 'a1', why: 'signed out' }]],
    ['a leased or excluded one is not reported as skipped', input({ leases: [lease('a1')], exclude: ['a2'], notReady: notReady({ a1: 'x', a2: 'y', o1: 'untrusted' }) }), 'o2', [{ account: 'o1', why: 'untrusted' }]],
    ["the lead's is not reported", input({ notReady: notReady({ lead1: 'x' }) }), 'a1', []],
    ['every one not ready: none, with each why', input({ pool: POOL.slice(0, 3), notReady: notReady({ a1: 'signed out', a2: 'profile folder /p is missing' }) }), null,
      [{ account: 'a1', why: 'signed out' }, { account: 'a2', why: 'profile folder /p is missing' }]],
  ])('%s', (_name, given, account, skipped) => {
    const result = pick(given);
    if (account === null) {
      expect(result).toMatchObject({ ok: false, resetsAt: null });
      expect(result.why).toContain('a1 not ready: signed out, a2 not ready: profile folder /p is missing');
    } else expect(result).toMatchObject({ ok: true, account });
    expect(skippedNotReady(given)).toEqual(skipped);
  });
});

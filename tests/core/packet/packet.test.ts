import { describe, expect, it } from 'vitest';
import { degradedPacket, type Packet, PACKET_REASONS, PACKET_SCHEMA, parsePacket, rejectedInPlan, serializePacket } from '../../../src/core/packet/packet.js';
import { validatePacket } from '../../../src/core/packet/check.js';
import { expectation, file, good, raw, reasonsOf, yamlOf } from './fixtures.js';


describe('parsePacket', () => {
  const text = serializePacket(good());

  it.each([
    ['LF', text],
    ['CRLF', text.replace(/\n/g, '\r\n')],
    ['a BOM', `\uFEFF${text}`],
    ['a BOM and CRLF', `\uFEFF${text.replace(/\n/g, '\r\n')}`],
    ['trailing spaces', text.replace(/\n/g, '   \n')],
    ['no header comment', text.replace(/^#.*\n/gm, '')],
  ])('reads a packet written with %s', (_name, source) => {
    expect(parsePacket(source)).toEqual({ ok: true, packet: good() });
  });

  it.each([
    ['empty', '', 'packet is empty: expected a YAML map with schema: dwp-handoff/v1'],
    ['whitespace only', '  \n\t\r\n ', 'packet is empty: expected a YAML map with schema: dwp-handoff/v1'],
    ['a BOM alone', '\uFEFF', 'packet is empty: expected a YAML map with schema: dwp-handoff/v1'],
    ['a list', '- schema\n- plan\n', 'packet must be a YAML map of dwp-handoff/v1 fields, found a list'],
    ['a scalar', 'handoff written\n', 'packet must be a YAML map of dwp-handoff/v1 fields, found a string'],
    ['a number', '42', 'packet must be a YAML map of dwp-handoff/v1 fields, found a number'],
    ['broken YAML', 'plan: [demo\n', 'not YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:'],
    ['two documents', 'plan: a\n---\nplan: b\n', 'not YAML: Source contains multiple documents; please use YAML.parseAllDocuments() at line 2, column 1:'],
    ['a duplicate key', 'plan: a\nplan: b\n', 'not YAML: Map keys must be unique at line 2, column 1:'],
  ])('refuses %s', (_name, source, reason) => {
    expect(parsePacket(source)).toEqual({ ok: false, reasons: [reason] });
  });

  it('fills the empty value of every optional field', () => {
    const minimal = [
      'schema: dwp-handoff/v1', 'plan: demo', 'reason: lane_lost', 'doing: |', '  line one', '  line two',
      'where: { checkout: /repo }', 'next: [look around]', 'author: { lane: lane-a, account: work2, generation: 3 }',
      'done:', 'lead: null',
    ].join('\n');
    expect(parsePacket(minimal)).toEqual({
      ok: true,
      packet: {
        schema: PACKET_SCHEMA, plan: 'demo', contract: '', task: '', step: null, reason: 'lane_lost', doing: 'line one\nline two\n',
        where: { repo: null, checkout: '/repo', branch: null, head: null, pushed: null, uncommitted: [] },
        done: [], verified: [], unverified: [], next: ['look around'], deadends: [], asks: [], decisions: [],
        lead: null, epoch: null, author: { lane: 'lane-a', account: 'work2', generation: 3 }, degraded: false,
      },
    });
  });

  it.each([
    ['a decimal', 2.5], ['an integer', 3], ['a numeric string', '3'], ['a name', 'step 3: wire the reader'], ['null', null],
  ])('takes step as %s', (_name, step) => {
    const result = parsePacket(serializePacket({ ...good(), step }));
    expect(result.ok && result.packet.step).toBe(step);
  });

  it('reads decisions as strings, objects and objects with fields left out', () => {
    const packet = raw();
    packet.decisions = ['plain', { option: 'a', choice: 'b', why: 'c', undo: 'd' }, { choice: 'only the choice' }];
    const result = parsePacket(yamlOf(packet));
    expect(result.ok && result.packet.decisions).toEqual([
      'plain', { option: 'a', choice: 'b', why: 'c', undo: 'd' }, { option: '', choice: 'only the choice', why: '', undo: '' },
    ]);
  });

  it('keeps ANSI escapes inside values as data', () => {
    const result = parsePacket(serializePacket({ ...good(), doing: '\u001b[31mred\u001b[0m work' }));
    expect(result.ok && result.packet.doing).toBe('\u001b[31mred\u001b[0m work');
  });

  const edit = (change: (p: Record<string, unknown>) => void): string => {
    const packet = raw();
    change(packet);
    return yamlOf(packet);
  };
  const where = (p: Record<string, unknown>): Record<string, unknown> => p.where as Record<string, unknown>;
  const author = (p: Record<string, unknown>): Record<string, unknown> => p.author as Record<string, unknown>;

  it.each<[string, (p: Record<string, unknown>) => void, string[]]>([
    ['schema missing', (p) => { delete p.schema; }, ['schema is missing: expected "dwp-handoff/v1"']],
    ['another schema', (p) => { p.schema = 'dwp-handoff/v2'; }, ['schema: expected "dwp-handoff/v1", found "dwp-handoff/v2"']],
    ['schema upper case', (p) => { p.schema = 'DWP-HANDOFF/V1'; }, ['schema: expected "dwp-handoff/v1", found "DWP-HANDOFF/V1"']],
    ['schema a number', (p) => { p.schema = 1; }, ['schema: expected "dwp-handoff/v1", found a number']],
    ['doing missing', (p) => { delete p.doing; }, ['doing is missing: say what was in flight']],
    ['doing blank', (p) => { p.doing = '  \n '; }, ['doing is blank: say what was in flight']],
    ['doing a list', (p) => { p.doing = ['a']; }, ['doing must be a string, found a list']],
    ['next missing', (p) => { delete p.next; }, ['next is missing: list the next steps, in order']],
    ['next null', (p) => { p.next = null; }, ['next is missing: list the next steps, in order']],
    ['next empty', (p) => { p.next = []; }, ['next is empty: list the next steps, in order']],
    ['next a string', (p) => { p.next = 'finish'; }, ['next must be a list of strings, found a string']],
    ['done a map', (p) => { p.done = { a: 1 }; }, ['done must be a list of strings, found a map']],
    ['done with a number', (p) => { p.done = ['a', 7]; }, ['done must be a list of strings, found a number at done[1]']],
    ['deadends a string', (p) => { p.deadends = 'x'; }, ['deadends must be a list of strings, found a string']],
    ['asks with a map', (p) => { p.asks = [{ q: 1 }]; }, ['asks must be a list of strings, found a map at asks[0]']],
    ['plan missing', (p) => { delete p.plan; }, ["plan is missing: expected the plan folder's name"]],
    ['plan a number', (p) => { p.plan = 7; }, ['plan must be a string, found a number']],
    ['contract a number', (p) => { p.contract = 2; }, ['contract must be a string, found a number']],
    ['task a map', (p) => { p.task = {}; }, ['task must be a string, found a map']],
    ['reason unknown', (p) => { p.reason = 'tired'; }, ['reason: expected one of capacity_critical, capacity_low, context_pressure, usage_limit, lead_handover, lane_lost, found "tired"']],
    ['reason upper case', (p) => { p.reason = 'LANE_LOST'; }, ['reason: expected one of capacity_critical, capacity_low, context_pressure, usage_limit, lead_handover, lane_lost, found "LANE_LOST"']],
    ['reason missing', (p) => { delete p.reason; }, ['reason: expected one of capacity_critical, capacity_low, context_pressure, usage_limit, lead_handover, lane_lost, found nothing']],
    ['step a boolean', (p) => { p.step = true; }, ['step must be a string or a number, found a boolean']],
    ['step a list', (p) => { p.step = [1]; }, ['step must be a string or a number, found a list']],
    ['where missing', (p) => { delete p.where; }, ['where is missing: expected {repo, checkout, branch, head, pushed, uncommitted}']],
    ['where a list', (p) => { p.where = []; }, ['where must be a map, found a list']],
    ['where.checkout missing', (p) => { delete where(p).checkout; }, ['where.checkout is missing: expected the checkout path']],
    ['where.head a number', (p) => { where(p).head = 12; }, ['where.head must be a string, found a number']],
    ['where.pushed a string', (p) => { where(p).pushed = 'yes'; }, ['where.pushed must be true, false or null, found a string']],
    ['where.uncommitted a string', (p) => { where(p).uncommitted = 'a.ts'; }, ['where.uncommitted must be a list of strings, found a string']],
    ['where with an unknown key', (p) => { where(p).tag = 'v1'; }, ['unknown field where."tag": not part of dwp-handoff/v1 (expected repo, checkout, branch, head, pushed, uncommitted)']],
    ['verified a string', (p) => { p.verified = 'tests'; }, ['verified must be a list of maps {what, evidence}, found a string']],
    ['verified entry a string', (p) => { p.verified = ['tests']; }, ['verified[0] must be a map {what, evidence}, found a string']],
    ['verified evidence missing', (p) => { p.verified = [{ what: 'tests' }]; }, ['verified[0].evidence is missing: expected a string']],
    ['unverified gate a list', (p) => { p.unverified = [{ what: 'lint', gate: ['npm'] }]; }, ['unverified[0].gate must be a string, found a list']],
    ['unverified with an unknown key', (p) => { p.unverified = [{ what: 'lint', gate: 'x', cmd: 'y' }]; }, ['unknown field unverified[0]."cmd": not part of dwp-handoff/v1 (expected what, gate)']],
    ['decisions a map', (p) => { p.decisions = { a: 1 }; }, ['decisions must be a list of maps {option, choice, why, undo}, found a map']],
    ['decision a number', (p) => { p.decisions = [3]; }, ['decisions[0] must be a map {option, choice, why, undo} or a string, found a number']],
    ['decision why a number', (p) => { p.decisions = [{ choice: 'a', why: 1 }]; }, ['decisions[0].why must be a string, found a number']],
    ['lead a number', (p) => { p.lead = 1; }, ['lead must be a string, found a number']],
    ['epoch a string', (p) => { p.epoch = 'one'; }, ['epoch must be a whole number ≥ 1, found a string']],
    ['epoch zero', (p) => { p.epoch = 0; }, ['epoch must be a whole number ≥ 1, found 0']],
    ['epoch a decimal', (p) => { p.epoch = 1.5; }, ['epoch must be a whole number ≥ 1, found 1.5']],
    ['author missing', (p) => { delete p.author; }, ['author is missing: expected {lane, account, generation}']],
    ['author a string', (p) => { p.author = 'lane-a'; }, ['author must be a map, found a string']],
    ['author.lane missing', (p) => { delete author(p).lane; }, ['author.lane is missing: expected the lane name']],
    ['author.account blank', (p) => { author(p).account = ' '; }, ['author.account is blank: expected the account id']],
    ['author.generation missing', (p) => { delete author(p).generation; }, ['author.generation is missing: expected a whole number ≥ 1']],
    ['author.generation a string', (p) => { author(p).generation = 'g1'; }, ['author.generation must be a whole number ≥ 1, found a string']],
    ['degraded a string', (p) => { p.degraded = 'no'; }, ['degraded must be true or false, found a string']],
    ['an unknown field', (p) => { p.nxt = ['x']; }, ['unknown field "nxt": not part of dwp-handoff/v1 (expected schema, plan, contract, task, step, reason, doing, where, done, verified, unverified, next, deadends, asks, decisions, lead, epoch, author, degraded, lanes, open_asks, release_order, pending_merges)']],
  ])('refuses %s', (_name, change, reasons) => {
    expect(reasonsOf(edit(change))).toEqual(reasons);
  });

  it('reports upper-case field names as unknown and the real ones as missing', () => {
    expect(reasonsOf(serializePacket(good()).replace(/^schema:/m, 'SCHEMA:').replace(/^doing:/m, 'Doing:'))).toEqual([
      'unknown field "SCHEMA": not part of dwp-handoff/v1 (expected schema, plan, contract, task, step, reason, doing, where, done, verified, unverified, next, deadends, asks, decisions, lead, epoch, author, degraded, lanes, open_asks, release_order, pending_merges)',
      'unknown field "Doing": not part of dwp-handoff/v1 (expected schema, plan, contract, task, step, reason, doing, where, done, verified, unverified, next, deadends, asks, decisions, lead, epoch, author, degraded, lanes, open_asks, release_order, pending_merges)',
      'schema is missing: expected "dwp-handoff/v1"',
      'doing is missing: say what was in flight',
    ]);
  });

  it('gives every schema problem of one packet at once', () => {
    expect(reasonsOf(edit((p) => { p.schema = 'x'; delete p.doing; p.next = []; p.done = 'x'; }))).toEqual([
      'schema: expected "dwp-handoff/v1", found "x"',
      'next is empty: list the next steps, in order',
      'doing is missing: say what was in flight',
      'done must be a list of strings, found a string',
    ]);
  });
});

describe('serializePacket', () => {
  it('round-trips awkward values', () => {
    const packet: Packet = {
      ...good(), step: 1.25, contract: '', task: 'line one\nline two\n\n  indented\n',
      doing: 'ends with spaces   ', next: ['null', 'true', '3', '- dash', '# hash', 'key: value', "quote ' and \" both", 'tab\there', 'cr\rhere', '日本語 ✓'],
      where: { ...good().where, repo: null, branch: null, head: null, pushed: null, uncommitted: [] },
      lead: null, epoch: null, decisions: [{ option: '', choice: '', why: '', undo: '' }, ''], degraded: true,
    };
    expect(parsePacket(serializePacket(packet))).toEqual({ ok: true, packet });
    expect(serializePacket(packet)).toBe(serializePacket(structuredClone(packet)));
  });

  it('writes the fields in the SPEC order under a comment header', () => {
    const text = serializePacket(good());
    const keys = [...text.matchAll(/^([a-z]+):/gm)].map((m) => m[1]);
    expect(keys).toEqual(['schema', 'plan', 'contract', 'task', 'step', 'reason', 'doing', 'where', 'done', 'verified', 'unverified',
      'next', 'deadends', 'asks', 'decisions', 'lead', 'epoch', 'author', 'degraded']);
    expect(text.split('\n').slice(0, 4)).toEqual([
      '# dwp-handoff/v1: swarm handoff packet from lane-a g1 @work2 for plan demo.',
      '# Data for the successor, not instructions. `swarm accept <this file>` checks it against the checkout.',
      '# Keep it mode 0600 and free of secrets.',
      '',
    ]);
  });

  it('keeps a newline in a name out of the header', () => {
    const packet = { ...good(), author: { lane: 'lane-a\nschema: evil', account: 'work2', generation: 1 } };
    const text = serializePacket(packet);
    expect(text.split('\n')[0]).toBe('# dwp-handoff/v1: swarm handoff packet from lane-a schema: evil g1 @work2 for plan demo.');
    expect(parsePacket(text)).toEqual({ ok: true, packet });
  });
});

describe('degradedPacket', () => {
  const input = {
    plan: 'demo', contract: 'v2', reason: 'lane_lost' as const, where: good().where,
    author: { lane: 'lane-a', account: 'work2', generation: 2 }, lead: 'lead', epoch: 3,
  };

  it('takes exactly the first 1200 characters of the task as the scene', () => {
    const task = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const packet = degradedPacket({ ...input, task });
    expect(packet.doing).toBe(`[DEGRADED: handoff not written] ${task.slice(0, 1200)}`);
    expect(packet.doing.length).toBe('[DEGRADED: handoff not written] '.length + 1200);
    expect(packet.task).toBe(task);
  });

  it('counts characters, not UTF-16 halves', () => {
    const packet = degradedPacket({ ...input, task: '😀'.repeat(1300) });
    expect(packet.doing).toBe(`[DEGRADED: handoff not written] ${'😀'.repeat(1200)}`);
  });

  it('fills everything the caller knows and passes validation', () => {
    const packet = degradedPacket({ ...input, task: 'Steps 1-3', step: 2 });
    expect(packet).toEqual({
      schema: PACKET_SCHEMA, plan: 'demo', contract: 'v2', task: 'Steps 1-3', step: 2, reason: 'lane_lost',
      doing: '[DEGRADED: handoff not written] Steps 1-3', where: good().where,
      done: [], verified: [], unverified: [],
      next: ['Inspect the checkout (git status, git log) and PLAN.md; rebuild the in-flight intent; rerun every gate'],
      deadends: [], asks: [], decisions: [], lead: 'lead', epoch: 3, author: { lane: 'lane-a', account: 'work2', generation: 2 }, degraded: true,
    });
    expect(validatePacket(serializePacket(packet), file(), expectation(), {})).toEqual([]);
  });

  it('names a rejected packet and its reasons after the scene, cut short, and still passes validation', () => {
    const reasons = ['packet mode is 0644, expected 0600: run chmod 600 /p.yaml', `missing next ${'x'.repeat(400)}`, ...Array.from({ length: 20 }, (_, i) => `r${i}`)];
    const packet = degradedPacket({ ...input, task: 'Steps 1-3', rejected: { packet: '/plan/analysis_results/handoff/a-g2.yaml', reasons } });
    const lines = packet.doing.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '[DEGRADED: handoff not written] Steps 1-3',
      'The lane reported the packet /plan/analysis_results/handoff/a-g2.yaml (in the plan folder); swarm rejected it (read it: it may hold the intent):',
      '- packet mode is 0644, expected 0600: run chmod 600 /p.yaml',
    ]);
    expect(lines[3]).toBe(`- missing next ${'x'.repeat(286)}…`);
    expect(lines.slice(-2)).toEqual(['- r17', '- and 2 more']);
    expect(validatePacket(serializePacket(packet), file(), expectation(), {})).toEqual([]);
  });

  it.each([
    ['a path in the plan folder', '/tmp/x-Ab3dE9/plans/p', '/tmp/x-Ab3dE9/plans/p/analysis_results/handoff/a.yaml', 'analysis_results/handoff/a.yaml'],
    ['a trailing slash on the folder', '/tmp/x-Ab3dE9/plans/p/', '/tmp/x-Ab3dE9/plans/p/analysis_results/handoff/a.yaml', 'analysis_results/handoff/a.yaml'],
    ['a path elsewhere, kept', '/tmp/x-Ab3dE9/plans/p', '/elsewhere/a.yaml', '/elsewhere/a.yaml'],
    ['a sibling folder sharing the prefix, kept', '/tmp/plans/p', '/tmp/plans/p2/a.yaml', '/tmp/plans/p2/a.yaml'],
  ])('rejectedInPlan: %s', (_what, planDir, path, shown) => {
    const r = rejectedInPlan({ packet: path, reasons: [`packet mode is 0644, expected 0600: run chmod 600 ${path}`, ''] }, planDir);
    expect(r).toEqual({ packet: shown, reasons: [`packet mode is 0644, expected 0600: run chmod 600 ${shown}`, ''] });
  });

  it.each(PACKET_REASONS)('keeps the reason %s and an empty task still says it is degraded', (reason) => {
    const packet = degradedPacket({ ...input, task: '', reason });
    expect([packet.reason, packet.doing, packet.step]).toEqual([reason, '[DEGRADED: handoff not written]', null]);
  });
});

describe('a lead packet (SPEC 10.5)', () => {
  it('round-trips its lanes, open asks, release order and pending merges, and refuses malformed ones', async () => {
    const { parsePacket, serializePacket } = await import('../../../src/core/packet/packet.js');
    const base = parsePacket([
      'schema: dwp-handoff/v1', 'plan: demo', 'contract: v2', 'task: lead', 'step: null', 'reason: lead_handover', 'doing: merging',
      'where: { repo: null, checkout: /repo, branch: main, head: null, pushed: null, uncommitted: [] }',
      'done: []', 'verified: []', 'unverified: []', 'next: [re-check lanes]', 'deadends: []', 'asks: []', 'decisions: []',
      'lead: lead', 'epoch: 2', 'author: { lane: lead, account: work1, generation: 1 }', 'degraded: false',
      'lanes: [{ name: lane-a, generation: 2, state: working, account: o1, last: "PR open" }]',
      'open_asks: [merge order?]', 'release_order: [lane-a]', 'pending_merges: []',
    ].join('\n'));
    expect(base.ok).toBe(true);
    if (!base.ok) return;
    expect(base.packet).toMatchObject({ lanes: [{ name: 'lane-a', generation: 2, state: 'working', account: 'o1', last: 'PR open' }], open_asks: ['merge order?'], release_order: ['lane-a'], pending_merges: [] });
    expect(parsePacket(serializePacket(base.packet))).toEqual(base);
    const bad = parsePacket(serializePacket(base.packet).replace('generation: 2\n    state', 'generation: 0\n    state').replace('open_asks:\n  - merge order?', 'open_asks: 3'));
    expect(bad.ok ? [] : bad.reasons).toEqual(['lanes[0].generation must be a whole number ≥ 1, found 0', 'open_asks must be a list of strings, found a number']);
  });
});

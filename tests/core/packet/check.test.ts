import { describe, expect, it } from 'vitest';
import { MAX_PACKET_BYTES, serializePacket, type Packet } from '../../../src/core/packet/packet.js';
import { successorMismatches, validatePacket, type PacketExpectations, type PacketFile } from '../../../src/core/packet/check.js';
import { expectation, file, good, HEAD, PATH, raw, yamlOf } from './fixtures.js';

describe('validatePacket', () => {
  const text = serializePacket(good());
  const validate = (over: Partial<PacketFile> = {}, expect_: Partial<PacketExpectations> = {}, source = text, env = {}): string[] =>
    validatePacket(source, file(over), expectation(expect_), env);

  it('accepts a good packet', () => {
    expect(validate()).toEqual([]);
  });

  it.each<[string, Partial<PacketFile>, Partial<PacketExpectations>, string[]]>([
    ['missing', { exists: false }, {}, [`packet not found: ${PATH}`]],
    ['outside the handoff folder', { insideHandoffDir: false }, {}, [`packet is outside the plan's analysis_results/handoff/: ${PATH}`]],
    ['a symlink', { isSymlink: true }, {}, [`packet is a symlink, expected a regular file: ${PATH}`]],
    ['mode 0644', { mode: 0o100644 }, {}, [`packet mode is 0644, expected 0600: run chmod 600 ${PATH}`]],
    ['mode 0400', { mode: 0o400 }, {}, [`packet mode is 0400, expected 0600: run chmod 600 ${PATH}`]],
    ['mode 0060', { mode: 0o060 }, {}, [`packet mode is 0060, expected 0600: run chmod 600 ${PATH}`]],
    ['over 64 KiB', { size: MAX_PACKET_BYTES + 1 }, {}, ['packet is 65537 bytes, expected at most 65536 (64 KiB)']],
    ['for another plan', {}, { plan: 'other' }, ['plan: expected "other", found "demo" (a packet for another plan)']],
    ['from another lane', {}, { lane: 'lane-b' }, ['lane: expected "lane-b", found "lane-a" in author.lane (a packet from another lane)']],
    ['for another contract', {}, { contract: 'v3' }, ['contract: expected "v3" (PLAN.md\'s current contract), found "v2"']],
    ['for a plan with no contract', {}, { contract: '' }, ['contract: expected "" (PLAN.md\'s current contract), found "v2"']],
    ['on another branch', {}, { branch: 'feature' }, ['where.branch: expected "feature" (the checkout), found "main"']],
    ['on a detached head', {}, { branch: null }, ['where.branch: expected none (the checkout), found "main"']],
    ['at another head', {}, { head: 'f'.repeat(40) }, [`where.head: expected "${'f'.repeat(40)}" (the checkout), found "${HEAD}"`]],
    ['missing an uncommitted path', {}, { uncommitted: ['src/a.ts', 'src/b.ts', 'src/c.ts'] }, ['where.uncommitted differs from the checkout: missing src/c.ts (uncommitted in the checkout, not in the packet)']],
    ['listing an extra path', {}, { uncommitted: ['src/a.ts'] }, ['where.uncommitted differs from the checkout: extra src/b.ts (in the packet, not uncommitted in the checkout)']],
    ['both', {}, { uncommitted: ['z.ts', 'src/a.ts', 'y.ts'] }, ['where.uncommitted differs from the checkout: missing y.ts, z.ts (uncommitted in the checkout, not in the packet); extra src/b.ts (in the packet, not uncommitted in the checkout)']],
  ])('refuses a packet %s', (_name, over, expect_, reasons) => {
    expect(validate(over, expect_)).toEqual(reasons);
  });

  it.each([
    ['not YAML', 'plan: [demo\n', ['not YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:']],
    ['an empty file', '', ['packet is empty: expected a YAML map with schema: dwp-handoff/v1']],
    ['not the schema', text.replace('dwp-handoff/v1\n', 'dwp-handoff/v0\n'), ['schema: expected "dwp-handoff/v1", found "dwp-handoff/v0"']],
    ['missing doing', yamlOf({ ...raw(), doing: undefined }), ['doing is missing: say what was in flight']],
    ['missing next', yamlOf({ ...raw(), next: [] }), ['next is empty: list the next steps, in order']],
  ])('refuses a packet that is %s', (_name, source, reasons) => {
    expect(validate({}, {}, source)).toEqual(reasons);
  });

  it('compares uncommitted paths as sets, ignoring order, repeats and a leading ./', () => {
    expect(validate({}, { uncommitted: ['./src/b.ts', 'src/a.ts', 'src/b.ts'] })).toEqual([]);
  });

  it('refuses a packet carrying a secret, without echoing it', () => {
    const token = `ghp_${'aB3dE5fG7h'.repeat(4)}`;
    const source = serializePacket({ ...good(), verified: [{ what: 'push', evidence: `used ${token}` }] });
    const reasons = validate({}, {}, source, { HOME: '/root' });
    expect(reasons).toEqual(['secret in verified[0].evidence: looks like a GitHub token; remove it (value not shown)']);
    expect(reasons.join('\n')).not.toContain(token);
  });

  it('finds secrets in a packet that is not the schema, and in text that is not YAML', () => {
    expect(validate({}, {}, 'doing: sk-ant-api03-abcdefghijklmnopqrstuvwxyz\n')).toContain(
      'secret in doing: looks like an Anthropic API key (sk-ant-…); remove it (value not shown)');
    expect(validate({}, {}, 'doing: [sk-ant-api03-abcdefghijklmnopqrstuvwxyz\n').slice(-1)).toEqual([
      'secret in the packet: looks like an Anthropic API key (sk-ant-…); remove it (value not shown)']);
  });

  it('a file too big to be read (no text) is refused for its size alone, not as empty', () => {
    expect(validate({ size: 10 * 1024 * 1024 }, {}, '')).toEqual(['packet is 10485760 bytes, expected at most 65536 (64 KiB)']);
  });

  it('measures the text as well as the size the caller found', () => {
    const big = serializePacket({ ...good(), task: 'x'.repeat(MAX_PACKET_BYTES) });
    const size = new TextEncoder().encode(big).length;
    expect(validate({ size: 10 }, {}, big)).toEqual([`packet is ${size} bytes, expected at most 65536 (64 KiB)`]);
  });

  it('gives every reason at once, file facts first, then schema, plan and lane, checkout, secrets', () => {
    const source = yamlOf({ ...raw(), schema: 'v0', plan: 'other', doing: `key ${'sEcReT-VaLuE'}`, author: { lane: 'lane-b', account: 'w', generation: 1 } });
    const reasons = validatePacket(source, file({ insideHandoffDir: false, isSymlink: true, mode: 0o644, size: 70000 }),
      expectation({ head: 'abc', uncommitted: ['src/a.ts', 'new.ts'] }), { API_KEY: 'sEcReT-VaLuE' });
    expect(reasons).toEqual([
      `packet is outside the plan's analysis_results/handoff/: ${PATH}`,
      `packet is a symlink, expected a regular file: ${PATH}`,
      `packet mode is 0644, expected 0600: run chmod 600 ${PATH}`,
      'packet is 70000 bytes, expected at most 65536 (64 KiB)',
      'schema: expected "dwp-handoff/v1", found "v0"',
      'secret in doing: contains the value of $API_KEY; remove it (value not shown)',
    ]);
    const schemaGood = yamlOf({ ...raw(), plan: 'other', doing: 'key sEcReT-VaLuE', author: { lane: 'lane-b', account: 'w', generation: 1 } });
    expect(validatePacket(schemaGood, file({ mode: 0o644 }), expectation({ contract: 'v3', head: 'abc', uncommitted: ['src/a.ts', 'new.ts'] }), { API_KEY: 'sEcReT-VaLuE' })).toEqual([
      `packet mode is 0644, expected 0600: run chmod 600 ${PATH}`,
      'plan: expected "demo", found "other" (a packet for another plan)',
      'lane: expected "lane-a", found "lane-b" in author.lane (a packet from another lane)',
      'contract: expected "v3" (PLAN.md\'s current contract), found "v2"',
      `where.head: expected "abc" (the checkout), found "${HEAD}"`,
      'where.uncommitted differs from the checkout: missing new.ts (uncommitted in the checkout, not in the packet); extra src/b.ts (in the packet, not uncommitted in the checkout)',
      'secret in doing: contains the value of $API_KEY; remove it (value not shown)',
    ]);
  });
});

describe('successorMismatches', () => {
  const lanePacket = good();
  const leadPacket: Packet = { ...good(), lead: 'lead', author: { lane: 'lead', account: 'a1', generation: 1 } };
  const laneRefusal = (you: string) => [`author: the packet is from lane-a g1; only lane-a g2 (its successor) may accept it; you are ${you}`];
  const leadRefusal = (you: string, named = 'lead-b') => [`author: the packet is a lead packet from lead g1; only the successor lead lead.json names (${named}) at g2 may accept it; you are ${you}`];

  it.each<[string, Packet, { lane: string; role: 'lead' | 'lane'; generation: number }, string | null, string[]]>([
    ["a lane's successor", lanePacket, { lane: 'lane-a', role: 'lane', generation: 2 }, 'lead', []],
    ['the author itself', lanePacket, { lane: 'lane-a', role: 'lane', generation: 1 }, 'lead', laneRefusal('lane-a g1')],
    ['a later generation', lanePacket, { lane: 'lane-a', role: 'lane', generation: 3 }, 'lead', laneRefusal('lane-a g3')],
    ['another lane', lanePacket, { lane: 'lane-b', role: 'lane', generation: 2 }, 'lead', laneRefusal('lane-b g2')],
    ['the lead', lanePacket, { lane: 'lead', role: 'lead', generation: 2 }, 'lead', laneRefusal('lead g2 (the lead)')],
    ["a lead-role agent going by the lane's name", lanePacket, { lane: 'lane-a', role: 'lead', generation: 2 }, 'lane-a', laneRefusal('lane-a g2 (the lead)')],
    ['the successor lead the record names', leadPacket, { lane: 'lead-b', role: 'lead', generation: 2 }, 'lead-b', []],
    ['a successor lead under the old name', leadPacket, { lane: 'lead', role: 'lead', generation: 2 }, 'lead', []],
    ['the old lead', leadPacket, { lane: 'lead', role: 'lead', generation: 1 }, 'lead-b', leadRefusal('lead g1')],
    ['a lead the record does not name', leadPacket, { lane: 'lead-c', role: 'lead', generation: 2 }, 'lead-b', leadRefusal('lead-c g2')],
    ['a lane', leadPacket, { lane: 'lead-b', role: 'lane', generation: 2 }, 'lead-b', leadRefusal('lead-b g2 (a lane)')],
    ['anyone, with no lead record', leadPacket, { lane: 'lead-b', role: 'lead', generation: 2 }, null, leadRefusal('lead-b g2', 'none')],
  ])('%s', (_name, packet, caller, recordLead, reasons) => {
    expect(successorMismatches(packet, caller, recordLead)).toEqual(reasons);
  });
});

/** One good packet and the facts that go with it, for the packet tests. */
import { stringify } from 'yaml';
import { PACKET_SCHEMA, parsePacket, type Packet } from '../../../src/core/packet/packet.js';
import type { PacketExpectations, PacketFile } from '../../../src/core/packet/check.js';

export const HEAD = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const PATH = '/repo/plans/demo/analysis_results/handoff/lane-a-g1-20260101T000000Z.yaml';

export function good(): Packet {
  return {
    schema: PACKET_SCHEMA, plan: 'demo', contract: 'v2', task: 'Steps 1-3 of PLAN.md', step: 2, reason: 'capacity_critical',
    doing: 'Wiring the inbox reader into the engine', where: {
      repo: 'git@example.com:me/demo.git', checkout: '/repo', branch: 'main', head: HEAD, pushed: false,
      uncommitted: ['src/a.ts', 'src/b.ts'],
    },
    done: ['parser'], verified: [{ what: 'unit tests', evidence: '42 passed' }], unverified: [{ what: 'lint', gate: 'npm run lint' }],
    next: ['finish the reader', 'run the e2e test'], deadends: ['polling capture-pane: too slow'], asks: ['lane-b: is the schema frozen?'],
    decisions: ['kept yaml@2', { option: 'offsets', choice: 'bytes', why: 'torn lines', undo: 'switch to lines' }],
    lead: 'lead', epoch: 1, author: { lane: 'lane-a', account: 'work2', generation: 1 }, degraded: false,
  };
}
export const raw = (): Record<string, unknown> => JSON.parse(JSON.stringify(good())) as Record<string, unknown>;
export const yamlOf = (value: unknown): string => stringify(value);
export const reasonsOf = (text: string): string[] => {
  const result = parsePacket(text);
  return result.ok ? [] : result.reasons;
};
export const file = (over: Partial<PacketFile> = {}): PacketFile => ({
  path: PATH, insideHandoffDir: true, isSymlink: false, mode: 0o100600, size: 1200, exists: true, ...over,
});
export const expectation = (over: Partial<PacketExpectations> = {}): PacketExpectations => ({
  plan: 'demo', lane: 'lane-a', contract: 'v2', branch: 'main', head: HEAD, uncommitted: ['src/b.ts', 'src/a.ts'], ...over,
});

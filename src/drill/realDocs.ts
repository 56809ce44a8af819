/** The evidence documents of `swarm drill --real` that the simulated drill has no counterpart for. Pure. */
import { cell } from './docs.js';
import type { DrillItem } from './checks.js';
import type { MockRequest, RealFacts } from './realChecks.js';

const doc = (lines: string[]) => `${lines.join('\n').trimEnd()}\n`;
const row = (cells: unknown[]) => `| ${cells.map(cell).join(' | ')} |`;

export function realSummaryDoc(f: RealFacts, items: readonly DrillItem[], run: { repo: string; versions: Record<string, string> }): string {
  return doc([
    '# swarm drill --real: summary',
    '',
    `Repository: ${run.repo}. CLIs: claude ${run.versions.claude ?? '?'}, ${run.versions.codex ?? '?'}, against the mock API on 127.0.0.1.`,
    `Outcome: ${f.outcome.why} in ${f.seconds.toFixed(1)} s. Every item holds: ${items.length > 0 && items.every((i) => i.holds) ? 'yes' : 'no'}.`,
    '',
    row(['item', 'holds', 'evidence', 'detail']),
    row(['---', '---', '---', '---']),
    ...items.map((i) => row([i.item, i.holds ? 'yes' : 'no', i.evidence, i.detail])),
    '',
    '## Lanes at the end',
    ...Object.entries(f.laneStates).map(([lane, state]) => `- ${lane}: ${state}`),
    '',
    `Accounts limited: ${f.limited.join(', ') || 'none'}.`,
  ]);
}

export function mockDoc(requests: readonly MockRequest[]): string {
  return doc([
    '# What the mock model server was asked',
    '',
    row(['#', 'vendor', 'account', 'path', 'status', 'action']),
    row(['---', '---', '---', '---', '---', '---']),
    ...requests.map((r, i) => row([i + 1, r.vendor, r.account, r.path, r.status, r.action === undefined ? '' : r.action.kind === 'shell' ? `run: ${r.action.command}` : `say: ${r.action.text}`])),
  ]);
}

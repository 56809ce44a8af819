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

const brief = (text: string, n = 100) => (text.length > n ? `${text.slice(0, n)}…` : text);

/**
 * The resume item's swarm: each lane's session told, its panes' command lines, and every request its
 * account made, with what each carried (its entries, Codex's previous_response_id); the kill between.
 */
export function resumeDoc(f: RealFacts, items: readonly DrillItem[], failed: string | null): string {
  const r = f.resume;
  if (r === null) return doc(['# swarm drill --real: resume where it stopped', '', `The resume swarm did not run${failed === null ? '' : `: ${failed}`}.`]);
  const lines = [
    '# swarm drill --real: resume where it stopped (SPEC 10.8)',
    '',
    'A swarm of its own: a Claude Code lane and a Codex lane, each paused mid-task (its step ends the turn),',
    'its tmux server killed (`tmux -L <socket> kill-server`), then `swarm up` again.',
    '',
    ...items.filter((i) => i.evidence.endsWith('resume.md')).map((i) => `- ${i.holds ? 'holds' : 'DOES NOT HOLD'}: ${i.item}: ${i.detail}`),
    '',
    `Runs: ${r.outcomes.join('; ') || 'none'}.${r.notKilled === null ? '' : ` Not killed: ${r.notKilled}.`} Screens: ${r.panes}.`,
    '',
  ];
  for (const lane of r.lanes) {
    const argv = r.argv[lane.name];
    lines.push(
      `## ${lane.name} (${lane.kind}, ${lane.account})`,
      '',
      `- session told before the kill: ${r.told[lane.name] ?? 'none'}`,
      `- first pane: \`${argv?.first ?? 'not read'}\``,
      `- resumed pane: \`${argv?.resumed ?? 'not read'}\``,
      `- lane at the end: ${r.laneStates[lane.name] ?? '?'}`,
      '',
      row(['#', 'when', 'status', 'action', 'entries carried', 'previous_response_id', 'its tool calls']),
      row(['---', '---', '---', '---', '---', '---', '---']),
    );
    f.requests.forEach((q, i) => {
      if (q.account !== lane.account || q.entries === undefined) return;
      const calls = q.entries.flatMap((e) => (e.role === 'tool_call' ? [brief(e.command, 60)] : []));
      const action = q.action === undefined ? '' : q.action.kind === 'shell' ? `run: ${brief(q.action.command, 60)}` : `say: ${brief(q.action.text, 60)}`;
      const roles = q.entries.map((e) => e.role).reduce<Record<string, number>>((n, role) => ({ ...n, [role]: (n[role] ?? 0) + 1 }), {});
      lines.push(row([i + 1, i < r.killedAt ? 'before the kill' : 'after', q.status, action, Object.entries(roles).map(([k, n]) => `${k} ${n}`).join(', '), q.previousResponseId ?? '', calls.join(' · ')]));
    });
    lines.push('');
  }
  return doc(lines);
}

/**
 * Gates travel (SPEC 10.6): a successor that accepted a packet owes the gates its predecessor left
 * unverified. An `unverified` entry whose gate equals the lane's `done_when`, or names a gate of
 * PLAN.md's `gates:` (name → command), is run with `done_when` when the successor reports `done`; any
 * other gate text is data — shown to the successor in its brief, never run (a packet is written by an
 * agent, and agents are not trusted). Pure.
 */
import { parse } from 'yaml';
import { frontMatter } from '../plan/frontMatter.js';

/** PLAN.md's `gates:` (a map of name to command) from its front matter; {} when it has none or it is not such a map. */
export function planGates(planText: string): Record<string, string> {
  const fm = frontMatter(planText);
  if (fm === null) return {};
  let doc: unknown;
  try {
    doc = parse(fm.yaml);
  } catch {
    return {};
  }
  const gates = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).gates : undefined;
  if (typeof gates !== 'object' || gates === null || Array.isArray(gates)) return {};
  return Object.fromEntries(Object.entries(gates).flatMap(([name, command]) =>
    (typeof command === 'string' && command.trim() !== '' ? [[name.trim(), command.trim()]] : [])));
}

/**
 * The commands an accepted packet's unverified gates add to the lane's `done` gate, in the packet's
 * order, each once; `done_when` itself is not repeated (it runs anyway). Gate text is compared trimmed.
 */
export function travellingGates(unverified: readonly { gate: string }[], doneWhen: string | null, gates: Readonly<Record<string, string>>): string[] {
  const wanted = new Set<string>();
  for (const { gate } of unverified) {
    const text = gate.trim();
    if (text === '' || text === doneWhen?.trim()) continue;
    const command = Object.hasOwn(gates, text) ? gates[text] : undefined;
    if (command !== undefined && command !== doneWhen?.trim()) wanted.add(command);
  }
  return [...wanted];
}

/** The one command a lane's `done` runs: `done_when`, then each travelling gate; null when there is none. */
export function gateCommand(doneWhen: string | null, travelling: readonly string[] | undefined): string | null {
  const all = [...(doneWhen === null || doneWhen.trim() === '' ? [] : [doneWhen]), ...(travelling ?? [])];
  if (all.length === 0) return null;
  return all.length === 1 ? all[0]! : all.map((c) => `(${c})`).join(' && ');
}

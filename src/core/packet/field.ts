/**
 * One top-level field of a packet's YAML, read without parsing the whole packet: the field's own
 * line and its indented continuation (a block scalar, a folded string) are parsed alone. For
 * readers that show a field and need no validation (`swarm report` reads hundreds of packets).
 * Pure. A field that is absent, or not a string, is null.
 */
import { parse } from 'yaml';

export function packetField(text: string, name: string): string | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const start = lines.findIndex((l) => l.startsWith(`${name}:`));
  if (start < 0) return null;
  // The common case, as `swarm packet write` writes it: a double-quoted string on one line.
  const quoted = /^[^:]+:\s*(".*")\s*$/.exec(lines[start] ?? '');
  if (quoted && !/^\s/.test(lines[start + 1] ?? '')) {
    try {
      const value: unknown = JSON.parse(quoted[1] ?? '');
      if (typeof value === 'string') return value;
    } catch {
      // a YAML-only escape: parse it as YAML below
    }
  }
  let end = start + 1;
  while (end < lines.length && /^(\s|$)/.test(lines[end] ?? '')) end += 1;
  try {
    const value: unknown = parse(lines.slice(start, end).join('\n'));
    const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
    return typeof field === 'string' ? field : null;
  } catch {
    return null;
  }
}

/**
 * The one part of Codex's `config.toml` swarm reads: each `[projects."<path>"]` table's
 * `trust_level` (SCREENS.md). A small tolerant reader instead of a TOML dependency: every other
 * table and key is skipped, a line it cannot read is skipped, and it never throws. Pure.
 *
 * Read: `[projects."<basic string>"]` and `[projects.'<literal string>']` headers (spaces around
 * the dot allowed), `trust_level = "…"` or `'…'` in such a table, `# comments`, CRLF, a BOM, and the
 * inline form `"<path>" = { trust_level = "trusted" }` inside a bare `[projects]` table.
 */

/** path → trust_level, for every project table that names one. */
export function codexTrustLevels(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let table: Table = { kind: 'other' };
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      table = header(line);
      continue;
    }
    if (table.kind === 'project') {
      const m = /^trust_level\s*=\s*(.+)$/.exec(line);
      const value = m ? leadingString(m[1]!) : null;
      if (value !== null) out.set(table.path, value.text);
    } else if (table.kind === 'projects') {
      const key = leadingString(line);
      if (key === null) continue;
      const m = /^\s*=\s*\{(.*)\}\s*(#.*)?$/.exec(key.rest);
      const inner = m ? /(?:^|,)\s*trust_level\s*=\s*(.+)$/.exec(m[1]!) : null;
      const value = inner ? leadingString(inner[1]!) : null;
      if (value !== null) out.set(key.text, value.text);
    }
  }
  return out;
}

type Table = { kind: 'project'; path: string } | { kind: 'projects' } | { kind: 'other' };

function header(line: string): Table {
  if (line.startsWith('[[')) return { kind: 'other' };
  const m = /^\[\s*projects\s*(.*)$/.exec(line);
  if (!m) return { kind: 'other' };
  const rest = m[1]!;
  if (/^\]\s*(#.*)?$/.test(rest)) return { kind: 'projects' };
  const dot = /^\.\s*(.*)$/.exec(rest);
  const key = dot ? leadingString(dot[1]!) : null;
  if (key === null || !/^\s*\]\s*(#.*)?$/.test(key.rest)) return { kind: 'other' };
  return { kind: 'project', path: key.text };
}

/** A TOML basic ("…", with escapes) or literal ('…') string at the start, and what follows it. */
function leadingString(s: string): { text: string; rest: string } | null {
  const t = s.trimStart();
  if (t.startsWith("'")) {
    const end = t.indexOf("'", 1);
    return end < 0 ? null : { text: t.slice(1, end), rest: t.slice(end + 1) };
  }
  if (!t.startsWith('"')) return null;
  let text = '';
  for (let i = 1; i < t.length; i += 1) {
    const ch = t[i]!;
    if (ch === '"') return { text, rest: t.slice(i + 1) };
    if (ch !== '\\') {
      text += ch;
      continue;
    }
    const next = t[i + 1];
    const simple: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
    if (next !== undefined && next in simple) {
      text += simple[next];
      i += 1;
    } else if (next === 'u' || next === 'U') {
      const len = next === 'u' ? 4 : 8;
      const hex = t.slice(i + 2, i + 2 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return null;
      text += String.fromCodePoint(Number.parseInt(hex, 16));
      i += 1 + len;
    } else {
      return null;
    }
  }
  return null;
}

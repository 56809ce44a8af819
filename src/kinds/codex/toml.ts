/**
 * The little TOML swarm writes and reads (Codex's notify wiring): a basic string quoted for a Codex `-c`
 * override, and the `notify` array of a user's own `config.toml`. Pure.
 *
 * Decisions: non-ASCII passes through as UTF-8 (TOML allows it); `"`, `\` and every control
 * character (DEL included) are escaped; a lone surrogate has no TOML form and is refused. Reading
 * `notify` is not a TOML parser: only a top-level `notify = [ "…", '…' ]` (one or several lines,
 * comments and a trailing comma allowed) counts; anything else reads as no notify.
 */

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** A TOML basic string ("…") holding exactly `text`. Throws on a lone surrogate (no TOML form). */
export function tomlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) throw new Error(`a lone surrogate (U+${code.toString(16).toUpperCase()}) cannot be written in TOML`);
    const short = SHORT[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A TOML array of basic strings: `["a","b"]`. */
export function tomlStringArray(items: readonly string[]): string {
  return `[${items.map(tomlString).join(',')}]`;
}

/**
 * The top-level `notify` of a config.toml, as its argv; null when there is none, it is empty, or it
 * is not a plain array of strings (then swarm runs nothing of the user's).
 */
export function userNotify(configToml: string): string[] | null {
  const text = configToml.replace(/\r\n?/g, '\n');
  const head = /^[ \t]*(?:\[|notify[ \t]*=[ \t]*)/gm;
  for (let m = head.exec(text); m !== null; m = head.exec(text)) {
    if (m[0].trimStart().startsWith('[')) return null; // the first table: no top-level notify before it
    const items = readArray(text, m.index + m[0].length);
    return items === null || items.length === 0 ? null : items;
  }
  return null;
}

/** The strings of the array starting at `at` (at its `[`), or null when it is not one. */
function readArray(text: string, at: number): string[] | null {
  if (text[at] !== '[') return null;
  const items: string[] = [];
  let i = at + 1;
  let expectValue = true;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') i += 1;
    else if (ch === '#') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (ch === ']') return items;
    else if (ch === ',' && !expectValue) {
      expectValue = true;
      i += 1;
    } else if ((ch === '"' || ch === "'") && expectValue) {
      const read = ch === '"' ? readBasic(text, i + 1) : readLiteral(text, i + 1);
      if (read === null) return null;
      items.push(read.value);
      i = read.end;
      expectValue = false;
    } else return null;
  }
  return null;
}

function readLiteral(text: string, from: number): { value: string; end: number } | null {
  const end = text.indexOf("'", from);
  if (end === -1 || text.slice(from, end).includes('\n')) return null;
  return { value: text.slice(from, end), end: end + 1 };
}

const UNESCAPE: Record<string, string> = { '"': '"', '\\': '\\', b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b' };

function readBasic(text: string, from: number): { value: string; end: number } | null {
  let value = '';
  for (let i = from; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\n') return null;
    if (ch !== '\\') {
      value += ch;
      continue;
    }
    const next = text[i + 1] ?? '';
    if (UNESCAPE[next] !== undefined) {
      value += UNESCAPE[next];
      i += 1;
    } else if (next === 'u' || next === 'U') {
      const digits = text.slice(i + 2, i + 2 + (next === 'u' ? 4 : 8));
      const code = /^[0-9A-Fa-f]+$/.test(digits) ? Number.parseInt(digits, 16) : NaN;
      if (!(code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return null;
      value += String.fromCodePoint(code);
      i += 1 + digits.length;
    } else return null;
  }
  return null;
}

/** PLAN.md's front matter: the `---` … `---` block at the top, as YAML text with its place. Pure. */

export interface FrontMatter {
  /** The lines between the fences, LF-joined (CRLF read as LF). */
  yaml: string;
  /** Lines before the YAML in the file (the opening fence, a BOM-free line 1): add to a YAML line. */
  lineOffset: number;
}

/** The front matter, or null when the text does not open with `---` or the block is never closed. */
export function frontMatter(text: string): FrontMatter | null {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return null;
  const close = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
  if (close === -1) return null;
  return { yaml: lines.slice(1, close).join('\n'), lineOffset: 1 };
}

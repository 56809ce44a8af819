/** PLAN.md: the plan's contract from its front matter (SPEC 5.1). Pure. */

/** What is wrong with PLAN.md's front matter as a user must fix it (`line: message`), or null. */
export function frontMatterProblem(text: string): string | null {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return null;
  if (lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line)) === -1) {
    return '1: the front matter opened by "---" is never closed: end it with a line "---" (or remove the first line if the plan has none)';
  }
  return null;
}

/** `contract:` in the front matter (`---` … `---` at the top); '' when the plan declares none. */
export function planContract(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return '';
  const close = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
  if (close === -1) return '';
  for (const line of lines.slice(1, close)) {
    const match = /^contract:[ \t]*(.*?)[ \t]*$/.exec(line);
    if (match) return unquote(stripComment(match[1] ?? ''));
  }
  return '';
}

/** `v1 # note` → `v1`, as YAML reads a plain scalar; a quoted value keeps its `#`. */
function stripComment(value: string): string {
  if (/^["']/.test(value)) return value;
  return value.replace(/\s+#.*$/, '');
}

function unquote(value: string): string {
  const match = /^(["'])(.*)\1$/.exec(value);
  return match ? (match[2] ?? '') : value;
}

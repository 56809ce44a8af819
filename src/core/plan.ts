/** PLAN.md: the plan's contract from its front matter (SPEC 5.1). Pure. */

/** `contract:` in the front matter (`---` … `---` at the top); '' when the plan declares none. */
export function planContract(text: string): string {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!body.startsWith('---\n')) return '';
  const end = body.indexOf('\n---', 4);
  if (end === -1) return '';
  for (const line of body.slice(4, end).split('\n')) {
    const match = /^contract:\s*(.*?)\s*$/.exec(line);
    if (match) return unquote(match[1] ?? '');
  }
  return '';
}

function unquote(value: string): string {
  const match = /^(["'])(.*)\1$/.exec(value);
  return match ? (match[2] ?? '') : value;
}

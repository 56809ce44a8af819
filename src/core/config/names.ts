/**
 * The rules for the names swarm.yaml and `swarm lane add` give (SPEC 10.1). A name becomes file
 * names (logs, prompts, leases, mailboxes) and tmux names and option values, so it is short and plain:
 * - the swarm's `name:` is 1–64 of `A-Z a-z 0-9 _ -` (tmux turns `.` and `:` of a session name into
 *   `_`, so `swarm-my.proj` would be a session no command finds);
 * - lane, account (and kind) names are 1–64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit;
 * - the lead's name is at most 62, as its default successor is `<lead>-b`. Pure.
 */

export const NAME_MAX = 64;
/** Room for the `-b` of the lead's default successor. */
export const LEAD_NAME_MAX = NAME_MAX - 2;

export type NameRule = 'swarm' | 'agent' | 'lead';

const CHARS: Record<NameRule, RegExp> = {
  swarm: /^[A-Za-z0-9_-]+$/,
  agent: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
  lead: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
};

/** What a name of the rule must be, as the end of `"x" must be …`. */
export const NAME_CHARS: Record<NameRule, string> = {
  swarm: 'a name of letters, digits, "_" and "-" (no "." or ":": tmux changes those in session names)',
  agent: 'a name of letters, digits, ".", "_" and "-" that starts with a letter or digit',
  lead: 'a name of letters, digits, ".", "_" and "-" that starts with a letter or digit',
};

/** Why `value` breaks the rule (the words after `must be` or a whole sentence), or null when it keeps it. */
export function nameProblem(value: string, rule: NameRule): { kind: 'chars'; expected: string } | { kind: 'length'; message: string } | null {
  if (!CHARS[rule].test(value)) return { kind: 'chars', expected: NAME_CHARS[rule] };
  const max = rule === 'lead' ? LEAD_NAME_MAX : NAME_MAX;
  if (value.length <= max) return null;
  const why = rule === 'lead' ? `the lead's name may have at most ${LEAD_NAME_MAX} (its successor is "<name>-b")` : `a name may have at most ${NAME_MAX} (it names files and tmux panes)`;
  return { kind: 'length', message: `is ${value.length} characters: ${why}; shorten it` };
}

/** One sentence for a command line: `lane name "x" …`, or null when the name keeps the rule. */
export function nameRefusal(what: string, value: string, rule: NameRule): string | null {
  const problem = nameProblem(value, rule);
  if (problem === null) return null;
  const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
  return problem.kind === 'chars' ? `${what} ${shown} must be ${problem.expected}` : `${what} ${shown} ${problem.message}`;
}

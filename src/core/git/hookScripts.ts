/**
 * swarm's git hooks (SPEC 10.5): the folder `.swarm/git-hooks/` holds one script per hook name git
 * knows, given to every pane (and only to panes) as `core.hooksPath` through git's environment
 * (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`, `GIT_CONFIG_VALUE_<n>`). No repository file is written:
 * worktrees share one hooks folder, and the developer's own git, outside the panes, never sees these.
 *
 * Each script runs the repository's own hook of its name first (where `core.hooksPath` pointed, or
 * `$GIT_COMMON_DIR/hooks`, found with swarm's own entry left out), and stops on its refusal. Two add
 * swarm's guard: `pre-push` and `reference-transaction` (its `prepared` phase). Before they start
 * node they look at the refs in plain sh: only a ref of `base:` or a tag wakes `swarm git-guard`, so
 * a lane's commit on its own branch costs a shell and one `git rev-parse`. Pure: text out.
 */

/** Every hook name git runs (githooks(5)), but the two whose mere presence changes what a receiving repository does. */
export const HOOK_NAMES = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg',
  'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'post-receive', 'post-update',
  'reference-transaction', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'p4-changelist',
  'p4-prepare-changelist', 'p4-post-changelist', 'p4-pre-submit', 'post-index-change',
] as const;

/** Single-quoted for sh. */
export const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface HookTarget {
  /** node's own path (the one running swarm up). */
  node: string;
  /** bin/swarm.cjs. */
  bin: string;
  /** The plan folder (absolute). */
  plan: string;
  /** The base branch, or null when none is known (then only tags are guarded). */
  base: string | null;
}

const OWN = (name: string) => [
  `# The repository's own ${name} hook, found without swarm's entry (SWARM_GIT_CONFIG_COUNT: how many the pane had before it).`,
  `own=$(GIT_CONFIG_COUNT="\${SWARM_GIT_CONFIG_COUNT:-0}" git rev-parse --git-path hooks 2>/dev/null)`,
  'here=$(cd "$(dirname "$0")" && pwd -P)',
  `if [ -n "$own" ] && [ -d "$own" ] && [ "$(cd "$own" && pwd -P)" != "$here" ] && [ -x "$own/${name}" ]; then own="$own/${name}"; else own=; fi`,
];

/** The script of hook `name`. */
export function hookScript(name: string, t: HookTarget): string {
  const head = ['#!/bin/sh', `# swarm: the ${name} hook of plan ${t.plan} (SPEC 10.5), written by swarm up; edits are overwritten.`, ...OWN(name)];
  const guard = `${shq(t.node)} ${shq(t.bin)} git-guard ${name} ${shq(t.plan)} "$@"`;
  const base = t.base === null ? '' : t.base;
  // The two guarded hooks: which field of git's lines is the ref, and a phase to wait for.
  const guarded = name === 'pre-push' ? { read: 'lref lsha ref rsha', phase: null } : name === 'reference-transaction' ? { read: 'old new ref', phase: 'prepared' } : null;
  if (guarded === null) return [...head, '[ -n "$own" ] && exec "$own" "$@"', 'exit 0', ''].join('\n');
  return [
    ...head,
    'input=$(cat)',
    'if [ -n "$own" ]; then printf \'%s\\n\' "$input" | "$own" "$@" || exit $?; fi',
    ...(guarded.phase === null ? [] : [`[ "$1" = ${guarded.phase} ] || exit 0`]),
    `base=${shq(base)}`,
    'wake=',
    `while read -r ${guarded.read}; do`,
    '  case "$ref" in refs/tags/*) wake=1 ;; esac',
    '  if [ -n "$base" ] && [ "$ref" = "refs/heads/$base" ]; then wake=1; fi',
    'done <<SWARM_EOF',
    '$input',
    'SWARM_EOF',
    '[ -z "$wake" ] && exit 0',
    `printf '%s\\n' "$input" | ${guard}`,
    '',
  ].join('\n');
}

/**
 * The variables that give a pane swarm's hooks: its entry appended after the pane's own
 * `GIT_CONFIG_*` entries (those that reached the pane whole; git refuses a count with a key missing,
 * so the count stops at the first gap), and the count before it for the scripts.
 */
export function gitHooksEnv(pane: Readonly<Record<string, string | undefined>>, dir: string): Record<string, string> {
  const given = Number.parseInt(pane.GIT_CONFIG_COUNT ?? '', 10);
  const count = Number.isSafeInteger(given) && given > 0 ? given : 0;
  let n = 0;
  while (n < count && pane[`GIT_CONFIG_KEY_${n}`] !== undefined && pane[`GIT_CONFIG_VALUE_${n}`] !== undefined) n++;
  return {
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: 'core.hooksPath',
    [`GIT_CONFIG_VALUE_${n}`]: dir,
    SWARM_GIT_CONFIG_COUNT: String(n),
  };
}

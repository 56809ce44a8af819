/**
 * Pushes, tags and base-branch updates by the current lead only (SPEC 10.5). What swarm's git hooks
 * (core/git/hookScripts.ts) hand to `swarm git-guard` is parsed and decided here. Pure: the hook's
 * input, who the caller is and what git said about the remote come in; each refusal comes out with
 * its ref and a reason a confused agent can act on.
 *
 * Guarded: a push to `base:` (or its deletion), a push of a tag, a local update of `refs/heads/<base>`
 * (commit, merge, `update-ref`, `fetch origin main:main`), and a tag made or deleted locally; a tag a
 * fetch brings in is the remote's, not one made here, and passes. Everything else (a lane's own
 * branch, remote-tracking refs) passes before this module is asked. Only the current lead at the
 * current epoch may, and its push to `base:` must descend from the remote's head of `base:` as fetched
 * just before (a stale checkout never rewinds the remote).
 */

export const ZERO = /^0+$/;

/** One line of pre-push's standard input: `<local ref> <local sha> <remote ref> <remote sha>`. */
export interface PushedRef { localRef: string; localSha: string; remoteRef: string; remoteSha: string }

/** One line of reference-transaction's standard input: `<old> <new> <ref>`. */
export interface RefUpdate { old: string; new: string; ref: string }

const lines = (text: string): string[][] =>
  text.replace(/\r/g, '').split('\n').map((l) => l.trim()).filter((l) => l !== '').map((l) => l.split(/\s+/));

/** pre-push's lines; a line that is not four fields is skipped (git never writes one). */
export function parsePrePush(text: string): PushedRef[] {
  return lines(text).flatMap((f) => (f.length === 4 ? [{ localRef: f[0]!, localSha: f[1]!, remoteRef: f[2]!, remoteSha: f[3]! }] : []));
}

/** reference-transaction's lines; symbolic updates (`ref:<target>` values) are kept, their values as given. */
export function parseRefUpdates(text: string): RefUpdate[] {
  return lines(text).flatMap((f) => (f.length === 3 ? [{ old: f[0]!, new: f[1]!, ref: f[2]! }] : []));
}

/** Which guarded ref this is: the base branch, a tag, or neither. */
export function guarded(ref: string, base: string | null): 'base' | 'tag' | null {
  if (base !== null && ref === `refs/heads/${base}`) return 'base';
  if (ref.startsWith('refs/tags/')) return 'tag';
  return null;
}

/**
 * Who runs the git command, as `swarm git-guard` found it by the process tree (never by the
 * environment): the current lead at the current epoch, a lead that is no longer (another leads now,
 * or it carries an old epoch), a lane, or a process swarm started no pane for.
 */
export type GitCaller =
  | { kind: 'lead'; name: string; epoch: number }
  | { kind: 'stale_lead'; name: string; epoch: number; lead: string; leadEpoch: number }
  | { kind: 'lane'; name: string; lead: string | null; leadEpoch: number }
  | { kind: 'unknown'; why: string };

export interface Refusal { ref: string; reason: string }

const whoIs = (c: GitCaller): string =>
  c.kind === 'unknown' ? `this process (${c.why})` : c.kind === 'lane' ? `lane ${c.name}` : `${c.name}@${c.epoch}`;

const theLead = (c: GitCaller): string =>
  c.kind === 'lane' ? (c.lead === null ? 'no lead (the record is released)' : `${c.lead}@${c.leadEpoch}`) : c.kind === 'stale_lead' ? `${c.lead}@${c.leadEpoch}` : 'the current lead';

function notLead(caller: GitCaller, what: string, base: string | null): string {
  const own = caller.kind === 'lane' ? `; push your own branch instead (git push origin HEAD:refs/heads/swarm/${caller.name}) and report it to the lead` : '';
  const stale = caller.kind === 'stale_lead' ? '; you are no longer the lead: stand down and end your turn' : '';
  return `${what} is for the current lead only (${theLead(caller)}), and ${whoIs(caller)} is not${stale}${own}` +
    (base !== null && caller.kind === 'lane' ? `; keep your commits off ${base}` : '');
}

/** What git says of the remote's head of `base:`, fetched just before the push (`git ls-remote`). */
export type RemoteBase =
  | { kind: 'absent' }
  | { kind: 'at'; sha: string; /** the pushed commit descends from it (false also when it is not here to compare) */ descends: boolean; present: boolean }
  | { kind: 'unreachable'; error: string };

/** A push's refusals (empty: it may go). `remote` is asked only for a lead's push to `base:`. */
export function decidePush(input: {
  refs: readonly PushedRef[];
  base: string | null;
  caller: GitCaller;
  remoteName: string;
  remote: (pushed: PushedRef) => RemoteBase;
}): Refusal[] {
  const { base, caller } = input;
  const out: Refusal[] = [];
  for (const r of input.refs) {
    const kind = guarded(r.remoteRef, base);
    if (kind === null) continue;
    const deleting = ZERO.test(r.localSha);
    const what = kind === 'tag' ? `pushing tag ${r.remoteRef.slice('refs/tags/'.length)}` : `${deleting ? 'deleting' : 'pushing to'} ${base} on ${input.remoteName}`;
    if (caller.kind !== 'lead') {
      out.push({ ref: r.remoteRef, reason: notLead(caller, what, base) });
      continue;
    }
    if (kind === 'tag' || deleting) continue;
    const at = input.remote(r);
    if (at.kind === 'unreachable') {
      out.push({ ref: r.remoteRef, reason: `${what}: the remote's ${base} could not be read first (${at.error}); push again when ${input.remoteName} answers` });
    } else if (at.kind === 'at' && !at.present) {
      out.push({ ref: r.remoteRef, reason: `${what}: ${input.remoteName}'s ${base} is at ${at.sha.slice(0, 12)}, which this checkout has not fetched: git fetch ${input.remoteName}, merge ${input.remoteName}/${base}, then push` });
    } else if (at.kind === 'at' && !at.descends) {
      out.push({ ref: r.remoteRef, reason: `${what}: ${r.localSha.slice(0, 12)} does not descend from ${input.remoteName}'s ${base} (${at.sha.slice(0, 12)}): merge ${input.remoteName}/${base} first; swarm never lets a push rewind ${base}` });
    }
  }
  return out;
}

/**
 * A local ref transaction's refusals (empty: it may go). `command` is the git subcommand that runs
 * it (`commit`, `tag`, `fetch` …, as read from the git process; null when unknown).
 */
export function decideUpdate(input: { updates: readonly RefUpdate[]; base: string | null; caller: GitCaller; command: string | null }): Refusal[] {
  const { base, caller, command } = input;
  const out: Refusal[] = [];
  for (const u of input.updates) {
    const kind = guarded(u.ref, base);
    if (kind === null || caller.kind === 'lead') continue;
    // A fetch (or a clone, or a pull's fetch) bringing the remote's tags makes no tag here.
    if (kind === 'tag' && command !== null && FETCHING.has(command)) continue;
    const what = kind === 'tag'
      ? `${ZERO.test(u.new) ? 'deleting' : ZERO.test(u.old) ? 'making' : 'moving'} tag ${u.ref.slice('refs/tags/'.length)}`
      : `updating ${base}${command === null ? '' : ` (git ${command})`}`;
    out.push({ ref: u.ref, reason: notLead(caller, what, base) });
  }
  return out;
}

const FETCHING = new Set(['fetch', 'pull', 'clone', 'remote']);

/** git's subcommand in its argv (`git -C d -c k=v tag v1` → `tag`), or null. */
export function gitSubcommand(argv: readonly string[]): string | null {
  const first = argv[0] ?? '';
  const dashed = /(?:^|\/)git-([a-z][a-z-]*)$/.exec(first);
  if (dashed) return dashed[1]!;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-C' || a === '-c' || a === '--git-dir' || a === '--work-tree' || a === '--namespace' || a === '--exec-path') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return null;
}

/** A branch name `base:` may hold: git's ref-name rules (git check-ref-format), written short (`main`, not `refs/heads/main`). */
export function baseProblem(name: string): string | null {
  if (name.trim() === '') return 'is empty';
  if (name.startsWith('refs/')) return `is a full ref: write the branch name alone (${name.replace(/^refs\/heads\//, '')})`;
  // eslint-disable-next-line no-control-regex
  if (/[\s~^:?*[\\\x00-\x1f\x7f]/.test(name)) return 'holds a space, a control character or one of ~ ^ : ? * [ \\, which git refuses in a branch name';
  if (name.includes('..') || name.includes('@{') || name === '@') return 'holds ".." or "@{", which git refuses in a branch name';
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock') || name.includes('//')) {
    return 'is not a branch name git accepts (no leading "-" or "/", no trailing "/", "." or ".lock", no "//")';
  }
  if (name.split('/').some((part) => part.startsWith('.'))) return 'has a part starting with ".", which git refuses';
  return null;
}

import { describe, expect, it } from 'vitest';
import { baseProblem, decidePush, decideUpdate, gitSubcommand, guarded, parsePrePush, parseRefUpdates, type GitCaller, type RemoteBase } from '../../../src/core/git/refGuard.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);
const LEAD: GitCaller = { kind: 'lead', name: 'lead-b', epoch: 2 };
const STALE: GitCaller = { kind: 'stale_lead', name: 'lead', epoch: 1, lead: 'lead-b', leadEpoch: 2 };
const LANE: GitCaller = { kind: 'lane', name: 'lane-a', lead: 'lead-b', leadEpoch: 2 };
const NOBODY: GitCaller = { kind: 'unknown', why: 'no pane swarm started for this plan is among its parents' };
const at = (descends: boolean, present = true): RemoteBase => ({ kind: 'at', sha: B, descends, present });

describe('the hooks’ lines', () => {
  it.each([
    ['', []],
    ['\n\n', []],
    [`refs/heads/main ${A} refs/heads/main ${B}\r\n`, [{ localRef: 'refs/heads/main', localSha: A, remoteRef: 'refs/heads/main', remoteSha: B }]],
    [`  refs/heads/x ${A} refs/heads/main ${Z}   \nnot four fields\n`, [{ localRef: 'refs/heads/x', localSha: A, remoteRef: 'refs/heads/main', remoteSha: Z }]],
    [`(delete) ${Z} refs/tags/v1 ${A}\nrefs/heads/a ${A} refs/heads/a ${Z}\n`, [
      { localRef: '(delete)', localSha: Z, remoteRef: 'refs/tags/v1', remoteSha: A },
      { localRef: 'refs/heads/a', localSha: A, remoteRef: 'refs/heads/a', remoteSha: Z },
    ]],
  ])('parsePrePush(%j)', (text, want) => expect(parsePrePush(text)).toEqual(want));

  it.each([
    ['', []],
    [`${Z} ${A} refs/tags/v1\r\n${A} ${B} refs/heads/main\n`, [{ old: Z, new: A, ref: 'refs/tags/v1' }, { old: A, new: B, ref: 'refs/heads/main' }]],
    ['\u001b[31mgarbage\u001b[0m\n', []],
  ])('parseRefUpdates(%j)', (text, want) => expect(parseRefUpdates(text)).toEqual(want));

  it.each([
    ['refs/heads/main', 'main', 'base'],
    ['refs/heads/main2', 'main', null],
    ['refs/heads/swarm/lane-a', 'main', null],
    ['refs/remotes/origin/main', 'main', null],
    ['refs/tags/v1', 'main', 'tag'],
    ['refs/tags/v1', null, 'tag'],
    ['refs/heads/main', null, null],
  ])('guarded(%s, base %s) = %s', (ref, base, want) => expect(guarded(ref, base)).toBe(want));

  it.each([
    [['git', 'push', 'origin', 'main'], 'push'],
    [['/usr/bin/git', '-C', '/r', '-c', 'a=b', 'tag', 'v1'], 'tag'],
    [['git', '--no-pager', 'fetch'], 'fetch'],
    [['/usr/lib/git-core/git-receive-pack', 'x'], 'receive-pack'],
    [['git'], null],
    [[], null],
  ])('gitSubcommand(%j) = %s', (argv, want) => expect(gitSubcommand(argv)).toBe(want));
});

describe('decidePush: the base branch and tags are the current lead’s', () => {
  const push = (caller: GitCaller, remoteRef: string, remote: RemoteBase = at(true), localSha = A) =>
    decidePush({ refs: [{ localRef: 'refs/heads/x', localSha, remoteRef, remoteSha: B }], base: 'main', caller, remoteName: 'origin', remote: () => remote });

  it.each([
    ['the lead, descending from the remote', LEAD, 'refs/heads/main', at(true), []],
    ['the lead, to a remote without main yet', LEAD, 'refs/heads/main', { kind: 'absent' } as RemoteBase, []],
    ['the lead, a tag', LEAD, 'refs/tags/v1', at(false), []],
    ['a lane, its own branch', LANE, 'refs/heads/swarm/lane-a', at(false), []],
    ['nobody known, another branch', NOBODY, 'refs/heads/feature', at(false), []],
  ])('%s: goes', (_name, caller, ref, remote, want) => expect(push(caller, ref, remote)).toEqual(want));

  it.each([
    ['a lane to main', LANE, 'refs/heads/main', /pushing to main on origin is for the current lead only \(lead-b@2\), and lane lane-a is not; push your own branch instead \(git push origin HEAD:refs\/heads\/swarm\/lane-a\)/],
    ['a lane, a tag', LANE, 'refs/tags/v1', /pushing tag v1 is for the current lead only/],
    ['the stale lead to main', STALE, 'refs/heads/main', /\(lead-b@2\), and lead@1 is not; you are no longer the lead: stand down/],
    ['a process of no pane', NOBODY, 'refs/heads/main', /this process \(no pane swarm started for this plan is among its parents\) is not/],
  ])('%s: refused', (_name, caller, ref, reason) => {
    const out = push(caller, ref, at(true));
    expect(out).toHaveLength(1);
    expect(out[0]!.ref).toBe(ref);
    expect(out[0]!.reason).toMatch(reason);
  });

  it.each([
    ['not descending from the remote', at(false), /does not descend from origin's main \(bbbbbbbbbbbb\): merge origin\/main first/],
    ['the remote moved to a commit not fetched here', at(false, false), /origin's main is at bbbbbbbbbbbb, which this checkout has not fetched: git fetch origin/],
    ['the remote not answering', { kind: 'unreachable', error: 'Could not read from remote repository.' } as RemoteBase, /could not be read first \(Could not read from remote repository.\)/],
  ])('the lead, %s: refused', (_name, remote, reason) => {
    expect(push(LEAD, 'refs/heads/main', remote)[0]?.reason).toMatch(reason);
  });

  it('a lead deleting main is not asked to descend; a lane deleting it is refused', () => {
    expect(push(LEAD, 'refs/heads/main', at(false), Z)).toEqual([]);
    expect(push(LANE, 'refs/heads/main', at(true), Z)[0]?.reason).toMatch(/^deleting main on origin is for the current lead only/);
  });

  it('asks the remote only for a lead’s push to main', () => {
    const asked: string[] = [];
    decidePush({
      refs: [{ localRef: 'a', localSha: A, remoteRef: 'refs/heads/swarm/x', remoteSha: Z }, { localRef: 'b', localSha: A, remoteRef: 'refs/tags/v1', remoteSha: Z }],
      base: 'main', caller: LEAD, remoteName: 'origin', remote: (p) => (asked.push(p.remoteRef), at(true)),
    });
    expect(asked).toEqual([]);
  });
});

describe('decideUpdate: a local update of main, a tag made here', () => {
  const update = (caller: GitCaller, ref: string, command: string | null, old = A, neu = B) => decideUpdate({ updates: [{ old, new: neu, ref }], base: 'main', caller, command });
  it.each([
    ['the lead commits on main', LEAD, 'refs/heads/main', 'commit', 0],
    ['a lane commits on its own branch', LANE, 'refs/heads/swarm/lane-a', 'commit', 0],
    ['a lane’s fetch brings a tag', LANE, 'refs/tags/v1', 'fetch', 0],
    ['a lane’s pull brings a tag', LANE, 'refs/tags/v1', 'pull', 0],
    ['a lane commits on main', LANE, 'refs/heads/main', 'commit', 1],
    ['a lane’s update-ref of main', LANE, 'refs/heads/main', 'update-ref', 1],
    ['a lane’s fetch into main', LANE, 'refs/heads/main', 'fetch', 1],
    ['a lane makes a tag', LANE, 'refs/tags/v1', 'tag', 1],
    ['the stale lead merges into main', STALE, 'refs/heads/main', 'merge', 1],
    ['an unknown command on main', LANE, 'refs/heads/main', null, 1],
  ])('%s: %i refusal(s)', (_name, caller, ref, command, n) => expect(update(caller, ref, command)).toHaveLength(n));

  it.each([
    [Z, A, /^making tag v1/],
    [A, Z, /^deleting tag v1/],
    [A, B, /^moving tag v1/],
  ])('a tag from %s to %s is told as such', (old, neu, reason) => expect(update(LANE, 'refs/tags/v1', 'tag', old, neu)[0]?.reason).toMatch(reason));

  it('names the command and tells a lane to keep off main', () => {
    expect(update(LANE, 'refs/heads/main', 'update-ref')[0]?.reason).toBe(
      'updating main (git update-ref) is for the current lead only (lead-b@2), and lane lane-a is not; push your own branch instead (git push origin HEAD:refs/heads/swarm/lane-a) and report it to the lead; keep your commits off main',
    );
  });
});

describe('baseProblem: a branch name git accepts', () => {
  it.each(['main', 'release/2.x', 'dev-1', 'a.b'])('%s is one', (name) => expect(baseProblem(name)).toBeNull());
  it.each(['', '  ', 'my branch', 'main\r', 'a..b', '-x', 'x/', 'x.lock', 'x.', '@', 'a@{1}', 'refs/heads/main', '.hidden', 'a/.b', 'a//b', 'a:b', 'a\u001b[0m'])('%j is not', (name) => expect(baseProblem(name)).not.toBeNull());
});

/**
 * watchSession (`swarm logs --follow`'s look at the session) against a real tmux server on a private
 * socket: a session that is not there is null (nothing to follow); one whose first attach fails (a
 * loaded machine: the CI of stop 36 saw `logs --follow` print nothing while the swarm ran) is attached
 * again, never reported as none. The failed attach comes from a tmux wrapper first on PATH.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchSession } from '../../src/adapters/tmux/follow.js';

const socket = `swarm-follow-watch-${process.pid}`;
const session = 'watched';
const dir = mkdtempSync(join(tmpdir(), 'swarm follow watch '));
const realTmux = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
const handlers = { printed: () => undefined, changed: () => undefined, ended: () => undefined };

describe('watchSession', () => {
  afterAll(() => {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('is null for a session that is not there', async () => {
    expect(await watchSession(socket, session, handlers)).toBeNull();
  });

  it('attaches again when the first attach fails while the session is there', async () => {
    execFileSync('tmux', ['-L', socket, 'new-session', '-d', '-s', session, 'sleep 600'], { stdio: 'ignore' });
    const failedOnce = join(dir, 'failed once');
    const bin = join(dir, 'bin');
    execFileSync('mkdir', ['-p', bin]);
    writeFileSync(join(bin, 'tmux'), `#!/bin/sh
case "$*" in
  *" -C attach"*|*" -C attach-session"*) if [ ! -e '${failedOnce}' ]; then : > '${failedOnce}'; echo 'lost connection' >&2; exit 1; fi ;;
esac
exec '${realTmux}' "$@"
`);
    chmodSync(join(bin, 'tmux'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    try {
      // Nothing is told before watchSession resolves: not the failed attempt's close (taken as "the
      // session ended", it ended the follow at once), not a look asked for while it attaches (the
      // follower's look then ran with no watch, and every later look was lost behind its error).
      const early: string[] = [];
      let resolved = false;
      const told = (what: string) => () => { if (!resolved) early.push(what); };
      const watch = await watchSession(socket, session, { printed: told('printed'), changed: told('changed'), ended: told('ended') });
      resolved = true;
      expect(early).toEqual([]);
      expect(existsSync(failedOnce)).toBe(true);
      expect(watch).not.toBeNull();
      const panes = await watch!.list();
      await watch!.close();
      expect(Array.isArray(panes)).toBe(true);
    } finally {
      process.env.PATH = path;
    }
  });
});

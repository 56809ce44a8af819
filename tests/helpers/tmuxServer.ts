/**
 * Ending a test's own tmux server (a private socket, never the default one). tmux 3.3a leaves its
 * socket file behind after kill-server: it is removed too, or every run leaves a dead socket in
 * $TMUX_TMPDIR/tmux-<uid>.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export function killTestServer(socket: string): void {
  try {
    execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // no server left
  }
  rmSync(join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
}

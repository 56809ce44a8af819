/**
 * What `swarm doctor` asks another host in one ssh round trip (SPEC 10.9): a small POSIX sh script
 * that prints `swarm-probe.<key>=<value>` lines — where tmux, node, swarm, git and each agent CLI
 * are on the PATH a non-interactive ssh command gets, their versions, and whether each checkout is a
 * folder and a git worktree — and the parser of what came back. Pure.
 *
 * The checkouts and CLI names reach the script as its arguments (quoted for the remote shell, never
 * pasted into the script), and come back by index, so no path can break a line. Whatever the remote
 * shell's startup files print (a banner, escape codes, CRLF) is noise the parser skips: only the
 * lines after the script's own `begin` count, and `end` says it ran to its last line.
 */
import { stripAnsi } from '../protocol/protocol.js';
import { remoteCommand } from './ssh.js';

const SCRIPT = String.raw`say() { printf 'swarm-probe.%s=%s\n' "$1" "$2"; }
first() { "$@" </dev/null 2>/dev/null | head -n 1 | tr -d '\r'; }
where() { command -v "$1" 2>/dev/null | head -n 1; }
say begin 1
for t in tmux node swarm git; do say "$t" "$(where "$t")"; done
say tmux.version "$(first tmux -V)"
say node.version "$(first node --version)"
say swarm.version "$(first swarm --version)"
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do say "cli.$1" "$(where "$1")"; shift; done
[ "$#" -gt 0 ] && shift
i=0
for c in "$@"; do
  if [ ! -d "$c" ]; then s=missing
  elif git -C "$c" rev-parse --is-inside-work-tree >/dev/null 2>&1; then s=git
  else s=folder; fi
  say "checkout.$i" "$s"
  i=$((i + 1))
done
say end 1
`;

/** The one string the remote shell runs: `sh -c SCRIPT swarm-probe CLI… -- CHECKOUT…`. */
export function probeCommand(clis: readonly string[], checkouts: readonly string[]): string {
  return remoteCommand(['sh', '-c', SCRIPT, 'swarm-probe', ...clis, '--', ...checkouts]);
}

/** What a checkout is on its host: no folder, a folder, or a folder inside a git worktree. */
export type CheckoutState = 'missing' | 'folder' | 'git';

export interface ProbeResult {
  /** The script ran to its last line. */
  complete: boolean;
  /** Each key the script printed (after its `begin`), value trimmed; the last of a key wins. */
  values: Map<string, string>;
}

const LINE = /^swarm-probe\.([A-Za-z0-9._-]+)=(.*)$/;

/** The script's lines out of everything ssh's stdout held; anything before its `begin` is noise. */
export function parseProbe(stdout: string): ProbeResult {
  let values = new Map<string, string>();
  let begun = false;
  for (const raw of stripAnsi(stdout.replace(/\r\n?/g, '\n')).split('\n')) {
    const match = LINE.exec(raw.trim());
    if (match === null) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'begin') {
      values = new Map();
      begun = true;
      continue;
    }
    if (begun) values.set(key, value.trim());
  }
  return { complete: begun && values.get('end') === '1', values };
}

/** A checkout's state as the probe printed it (by index); null when the probe did not say. */
export function checkoutState(probe: ProbeResult, index: number): CheckoutState | null {
  const value = probe.values.get(`checkout.${index}`);
  return value === 'missing' || value === 'folder' || value === 'git' ? value : null;
}

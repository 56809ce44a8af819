/**
 * What a failed end-to-end run leaves to read, for its failure message: the journal's last lines and
 * every agent pane of the test's own tmux server (lane, generation, account, dead or not, last lines).
 * A flake seen once in CI is then explained by its own log, not guessed at.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const clip = (line: string, max: number): string => (line.length > max ? `${line.slice(0, max)}…` : line);

export function postmortem(planDir: string, socket: string, { journalLines = 60, paneLines = 12 } = {}): string {
  const out: string[] = [];
  try {
    const lines = readFileSync(join(planDir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
    out.push(`-- journal (last ${Math.min(journalLines, lines.length)} of ${lines.length}):`, ...lines.slice(-journalLines).map((l) => clip(l, 400)));
  } catch (error) {
    out.push(`-- journal unreadable: ${(error as Error).message}`);
  }
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
  try {
    const panes = tmux('list-panes', '-a', '-F', '#{pane_id}\t#{@swarm_lane}\t#{@swarm_generation}\t#{@swarm_account}\t#{pane_dead}').split('\n').filter(Boolean);
    for (const row of panes) {
      const [id, lane, generation, account, dead] = row.split('\t');
      out.push(`-- pane ${id} ${lane || '(no lane)'} g${generation || '?'} @${account || '?'}${dead === '1' ? ' (dead)' : ''}:`);
      const screen = tmux('capture-pane', '-p', '-J', '-t', id!).split('\n').map((l) => l.trimEnd()).filter(Boolean);
      out.push(...screen.slice(-paneLines).map((l) => `   ${clip(l, 200)}`));
    }
  } catch (error) {
    out.push(`-- no panes to read: ${(error as Error).message.split('\n')[0]}`);
  }
  return out.join('\n');
}

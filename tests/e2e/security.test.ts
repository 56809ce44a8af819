/**
 * Security (issue 12 §4), through a real swarm on a private tmux socket: text from agents and from
 * swarm.yaml is never executed or interpreted. A lane's task and a lane's report carry `$(…)`,
 * backticks, `;`, tmux `#{…}` / `#(…)` and terminal escapes (OSC 52 clipboard, OSC 0 title, clear
 * screen, colour); nothing runs (no PWNED file), and what reaches the journal, the headless log,
 * `swarm status`, `swarm report`, `swarm journal` and the pane titles holds no escape byte.
 * Unit halves: tests/security/leadPowers.test.ts; pane launch with a tmux-format checkout:
 * tests/e2e/panes.test.ts; escapes in the dashboard's cells: tests/ui/format.test.ts, cells.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT, makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

const ESCAPES = ['\u001b]52;c;ZXZpbA==\u0007', '\u001b]0;evil-title\u0007', '\u001b[2J', '\u001b[31m'];
const HOSTILE = (n: number) => `$(touch PWNED${n}a) \`touch PWNED${n}b\`; touch PWNED${n}c #{pane_id} #(touch PWNED${n}d) ${ESCAPES.join(' ')}`;
// eslint-disable-next-line no-control-regex -- the point: no ESC or BEL byte
const RAW = /[\u001b\u0007]/;

function pwned(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('PWNED')) found.push(join(d, e.name));
      else if (e.isDirectory() && e.name !== '.git') walk(join(d, e.name));
    }
  };
  walk(dir);
  return found;
}

describe('hostile text in a task and a report (tmux)', () => {
  it('runs nothing and reaches the journal, log, status, report, journal command and titles without an escape byte', { timeout: 90_000 }, async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', command: 'placeholder' }] }));
    // The lane reports the hostile text (read from a file, so only swarm sees it), then works as usual.
    writeFileSync(join(s.root, 'hostile.txt'), `progress ${HOSTILE(1)}`);
    writeFileSync(join(s.root, 'lane.sh'), `swarm notify lead "$(cat '${join(s.root, 'hostile.txt')}')"\nAGENT_G1=ready,done exec '${process.execPath}' '${AGENT}'\n`);
    const task = JSON.stringify(`task ${HOSTILE(2)}`);
    writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('"e2e task of lane-a"', task).replace('command: "placeholder"', `command: "sh ${join(s.root, 'lane.sh')}"`));

    const run = await s.up(['--timeout', '60s']);
    expect(run.all).toContain('plan done');
    expect(run.exitCode).toBe(0);
    expect(pwned(s.root)).toEqual([]);
    expect(String(run.all)).not.toMatch(RAW);

    const journalText = readFileSync(join(s.plan, 'journal.jsonl'), 'utf8');
    expect(journalText).not.toMatch(RAW);
    // What swarm typed into any pane (the fixture agents log every line they read): no escape byte.
    expect(s.keys()).not.toMatch(RAW);
    for (const line of journalText.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();

    const seen: string[] = [];
    for (const args of [['status', s.file], ['status', s.file, '--json'], ['report', s.file], ['journal', s.file]]) {
      const r = await s.run(args);
      expect({ args, code: r.code }).toEqual({ args, code: 0 });
      expect(r.stdout + r.stderr).not.toMatch(RAW);
      seen.push(r.stdout);
    }
    // The hostile text did get there (as text): the task in status, the report in the lead's mailbox.
    // The text did get where agents read it, as text: the report in the lead's mailbox, the task in the lane's prompt.
    const swarmFile = (f: string) => readFileSync(join(s.plan, '.swarm', f), 'utf8');
    expect(swarmFile('mailbox/lead.md')).toContain('touch PWNED1c');
    expect(swarmFile('mailbox/lead.md')).not.toMatch(RAW);
    expect(swarmFile('prompts/run-1/lane-a-g1.md') + swarmFile('prompts/run-1/lane-a-g1.brief.md')).toContain('touch PWNED2c');
    expect(swarmFile('prompts/run-1/lane-a-g1.md') + swarmFile('prompts/run-1/lane-a-g1.brief.md')).not.toMatch(RAW);
    const titles = execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{pane_title}'], { encoding: 'utf8' });
    expect(titles).not.toMatch(RAW);
    expect(titles).not.toContain('evil-title');
    expect(pwned(s.root)).toEqual([]);
  });
});

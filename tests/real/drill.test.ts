/**
 * `swarm drill --real` (issue 14): the published Claude Code and Codex (on PATH: `npm run test:real`)
 * as lanes against the local mock API, every item of the issue: Claude quota → Codex successor,
 * Codex quota → Claude successor, a 429 through the hard-limit path, a permission request that blocks
 * its lane while the others finish, a Codex reviewer (sandboxed in its spool) approving a Claude lane,
 * and (SPEC 10.8, in a swarm of its own beside them) a Claude Code lane and a Codex lane resuming their
 * own sessions after their tmux server is killed mid-run, each resumed CLI's next request carrying its
 * earlier conversation. Exit 0 only when every item holds; the evidence stays with --keep.
 */
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/swarm.js';

let root: string | null = null;

/** Every path under the developer's own profiles with its mtime: the run must change none. */
function profilesSeen(): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    const st = statSync(path);
    out.push(`${path} ${st.mtimeMs}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  for (const dir of ['.claude', '.codex', '.claude.json']) walk(join(homedir(), dir));
  return out.sort();
}
afterAll(() => {
  if (root !== null) rmSync(root, { recursive: true, force: true });
});

describe('swarm drill --real', () => {
  it('every item holds, exit 0; the evidence names the CLI versions and every request the mock answered', async () => {
    const before = profilesSeen();
    const run = await execa('node', [CLI, 'drill', '--real', '--keep'], { reject: false, all: true, timeout: 230_000 });
    const kept = /swarm drill: kept (\S+);/.exec(run.all ?? '');
    root = kept ? kept[1]! : null;
    expect(run.all).toMatch(/claude quota: lane-claude hands off to codex, done\s+yes/);
    expect(run.all).toMatch(/codex quota: lane-codex hands off to claude, done\s+yes/);
    expect(run.all).toMatch(/a 429 puts lane-limit through the hard-limit path\s+yes/);
    expect(run.all).toMatch(/a permission request blocks lane-perm, no key; others finish\s+yes/);
    expect(run.all).toMatch(/a codex reviewer approves claude lane-review, done after\s+yes/);
    expect(run.all).toMatch(/the tmux server killed: lane-resume-claude resumes its own session\s+yes/);
    expect(run.all).toMatch(/the tmux server killed: lane-resume-codex resumes its own session\s+yes/);
    expect(run.exitCode, run.all).toBe(0);
    expect(profilesSeen()).toEqual(before);
    const evidence = join(root!, 'repo', 'plans', 'real-drill', 'analysis_results', 'drill');
    const summary = readFileSync(join(evidence, 'summary.md'), 'utf8');
    expect(summary).toMatch(/CLIs: claude 2\.1\.197 \(Claude Code\), codex-cli 0\.171\.0/);
    expect(readFileSync(join(evidence, 'mock.md'), 'utf8')).toMatch(/\| claude \| c3 \| \/v1\/messages \| 429 \|/);
    for (const file of ['packets.md', 'gates.md']) expect(existsSync(join(evidence, file))).toBe(true);
    // The resume swarm: each pane's command lines, the first and the resumed; what the resumed CLIs sent.
    const resume = readFileSync(join(evidence, 'resume.md'), 'utf8');
    expect(resume).toMatch(/- first pane: `claude --session-id (\S+) [^`]*`\n- resumed pane: `claude --resume \1 /);
    expect(resume).toMatch(/- resumed pane: `(?:node )?\S*codex --no-daemon [^`]* resume [0-9a-f-]{36} You are lane-resume-codex g1 /);
    expect(resume).toMatch(/\| after \| 200 \| run: swarm capacity --self --json \|/);
    // Claude Code 2.1.197 keeps no system prompt across --resume: the protocol brief is given again.
    expect(resume).toMatch(/- resumed pane: `claude --resume \S+ [^`]*--append-system-prompt-file \S+lane-resume-claude-g1\.brief\.md /);
    // The run is a plan swarm report can read.
    const report = await execa('node', [CLI, 'report', join(root!, 'repo', 'swarm.yaml')], { reject: false, all: true });
    expect(report.all).toMatch(/handoffs: 3/);
  });
});

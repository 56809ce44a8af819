#!/usr/bin/env node
// npm run bench (part: resume where it stopped, issue 28) — 16 lanes of kind claude (the fake `claude` of
// tests/fixtures/bin on PATH, launched by panes/claude.yaml's own argv) each tell their session and work;
// the swarm's tmux server is killed; `swarm up` again. Measured: from that second `swarm up`'s start to
// the 16th `session_resumed` in the journal (every lane's own session started again), BENCH_RESUME_RUNS
// times (default 3). Target: ≤ 3 s.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT, cleanup, makeRepo, quantile, result, waitFor } from './lib.mjs';

const LANES = Number(process.env.BENCH_RESUME_LANES ?? 16);
const RUNS = Number(process.env.BENCH_RESUME_RUNS ?? 3);
const CLI = join(ROOT, 'bin', 'swarm.cjs');
const BIN = join(ROOT, 'tests', 'fixtures', 'bin');
const lanesOf = (n) => Array.from({ length: n }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);

/** A repository with one worktree per lane, an account of kind claude per lane (a ready profile: signed in, the checkouts trusted). */
function makeClaudeSwarm(label) {
  const lanes = lanesOf(LANES);
  const { dir, repo } = makeRepo(lanes);
  const accounts = lanes.map((_, i) => `c${i + 1}`);
  for (const id of accounts) {
    const profile = join(dir, 'profiles', id);
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, '.credentials.json'), '{}');
    writeFileSync(join(profile, '.claude.json'), JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: true } } }));
  }
  const lead = `exec ${process.execPath} ${join(ROOT, 'tests', 'fixtures', 'agents', 'lane.mjs')}`;
  const yaml = [
    'version: 1', `name: ${label}`, 'plan: plans/p', 'backend: tmux', 'accounts:',
    '  - { id: l1, kind: command, vendor: local }',
    ...accounts.map((id) => `  - { id: ${id}, kind: claude, vendor: anthropic, env: { CLAUDE_CONFIG_DIR: ${JSON.stringify(join(dir, 'profiles', id))} } }`),
    'lead:', '  name: lead', '  account: l1', `  command: "AGENT_G1=ready ${lead}"`,
    `max_lanes: ${Math.max(8, LANES)}`,
    'lanes:',
    ...lanes.flatMap((lane, i) => [`  - name: ${lane}`, `    checkout: ../wt-${lane}`, '    task: bench', `    account: c${i + 1}`]),
    'timeouts: { accept: 30s, packet: 30s, stall: 30m, release: 1s }',
    'pass_env: [FAKE_LOG, FAKE_CLAUDE_G1, FAKE_CLAUDE_RESUME_G1]',
  ].join('\n');
  writeFileSync(join(repo, 'swarm.yaml'), `${yaml}\n`);
  const socket = `swarm-bench-${process.pid}-${label}`;
  const env = {
    PATH: [BIN, process.env.PATH].join(delimiter), HOME: process.env.HOME, SWARM_TMUX_SOCKET: socket, SWARM_STATE_DIR: join(dir, 'state'),
    AGENT_LOG: join(dir, 'agents.log'), FAKE_LOG: join(dir, 'fake.log'),
    FAKE_CLAUDE_G1: 'hook:SessionStart,report:plan ready', FAKE_CLAUDE_RESUME_G1: 'hook:SessionStart',
  };
  return { dir, repo, socket, env, plan: join(repo, 'plans', 'p'), lanes };
}

const journal = (s) => (existsSync(join(s.plan, 'journal.jsonl')) ? readFileSync(join(s.plan, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
const state = (s) => JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8'));

/** One run: the ms from the second `swarm up`'s start to every lane's `session_resumed`. */
async function once(i) {
  const s = makeClaudeSwarm(`resume${i}`);
  const up = () => spawn(process.execPath, [CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless', '--force'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  let second = null;
  try {
    const first = up();
    const exited = new Promise((resolve) => first.on('exit', resolve));
    await waitFor(() => { try { return s.lanes.every((lane) => state(s).sessions?.[lane]?.generation === 1); } catch { return false; } }, 120_000, `${LANES} lanes' sessions told`);
    execFileSync('tmux', ['-L', s.socket, 'kill-server']);
    await exited;
    const t0 = Date.now();
    second = up();
    await waitFor(() => new Set(journal(s).filter((e) => e.event === 'session_resumed').map((e) => e.lane)).size >= LANES, 60_000, `${LANES} sessions resumed`);
    const ms = Date.now() - t0;
    const resumed = journal(s).filter((e) => e.event === 'degraded_handoff' && e.lane !== 'lead').length;
    return { ms, degraded: resumed };
  } finally {
    cleanup(s, second);
  }
}

const rows = [];
for (let i = 0; i < RUNS; i += 1) rows.push(await once(i));
const times = rows.map((r) => r.ms);
const p50 = quantile(times, 0.5);
const worst = Math.max(...times);
result('resume', { lanes: LANES, runs: RUNS, ms: times, p50_ms: p50, max_ms: worst, degraded: rows.map((r) => r.degraded), targets: { max_ms: 3000 } });
console.log(`\nresume where it stopped: ${LANES} claude lanes, tmux server killed, \`swarm up\` again → every lane's session_resumed (target ≤ 3000 ms)`);
console.log(`runs ${times.map((t) => `${t} ms`).join(', ')} · median ${p50} ms · worst ${worst} ms · lanes degraded instead: ${rows.map((r) => r.degraded).join(', ')}`);

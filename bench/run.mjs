#!/usr/bin/env node
// npm run bench — start-up cost of the commands agents run at every work boundary (and real lanes at
// every message: statusline, hook), measured side
// by side with bare `node -e 0` in one run (interleaved, so machine noise hits all alike).
// Figures are medians and p90 of wall time over N runs; the ratio is what we track (target ≤ 1.5×).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { result } from './lib.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CLI = join(ROOT, 'bin', 'swarm.cjs');
const N = Number(process.env.BENCH_RUNS ?? 30);

const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-'));
const plan = join(dir, 'plans', 'bench');
mkdirSync(plan, { recursive: true });
writeFileSync(join(plan, 'PLAN.md'), '---\ncontract: bench\n---\n# bench\n');
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SWARM_PLAN: plan,
  SWARM_LANE: 'lane-a',
  SWARM_ROLE: 'lane',
  SWARM_ACCOUNT: 'work1',
  SWARM_GENERATION: '1',
  SWARM_EPOCH: '1',
  // As in a real pane: every agent command first asks whether it runs sandboxed (known by its spool).
  SWARM_SPOOL: join(plan, '.swarm', 'spool', 'r1', 'lane-a-g1'),
};

// The agent is known by its pane (SPEC 10.3): this process stands in for the pane swarm started, recorded
// as the engine records one, so every command below runs under it and finds its agent as in a real pane.
const { processNow, recordAgent } = await import(join(ROOT, 'dist', 'adapters', 'agentRegistry.js'));
recordAgent(plan, { lane: 'lane-a', role: 'lane', generation: 1, account: 'work1', run: 1, pane: processNow(process.pid) });

// What Claude Code pipes to `swarm statusline` and `swarm hook Stop` (tests/fixtures/claude has every shape).
const statusJson = JSON.stringify({
  session_id: 's-1', transcript_path: join(dir, 't.jsonl'), model: { id: 'claude-sonnet-4-6' },
  context_window: { used_percentage: 12, context_window_size: 200000 },
  rate_limits: { five_hour: { used_percentage: 42, resets_at: 1796114187 }, seven_day: { used_percentage: 13, resets_at: 1796614187 } },
});
const stopJson = JSON.stringify({ session_id: 's-1', hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });

/** [name, node argv, stdin]. */
const cases = [
  ['node -e 0', ['-e', '0'], ''],
  ['swarm notify lead', [CLI, 'notify', 'lead', 'plan ready\ncapacity=ok 64% @work1'], ''],
  ['swarm capacity --self --json', [CLI, 'capacity', '--self', '--json'], ''],
  ['swarm statusline', [CLI, 'statusline'], statusJson],
  ['swarm hook Stop', [CLI, 'hook', 'Stop'], stopJson],
  ['swarm hook codex-notify', [CLI, 'hook', 'codex-notify', JSON.stringify({ type: 'agent-turn-complete', 'thread-id': 't' })], ''],
];

// Warm the file cache once.
for (const [, args, input] of cases) spawnSync(process.execPath, args, { env, cwd: dir, input });

const times = new Map(cases.map(([name]) => [name, []]));
for (let i = 0; i < N; i += 1) {
  for (const [name, args, input] of cases) {
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, args, { env, cwd: dir, input });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (run.status !== 0) throw new Error(`${name} failed: ${run.stderr}`);
    times.get(name).push(ms);
  }
}

const stat = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p90: at(0.9) };
};
const base = stat(times.get('node -e 0'));
console.log(`cold start, ${N} runs each, interleaved (node ${process.version}, ${execFileSync('nproc').toString().trim()} cores)`);
console.log(`${'command'.padEnd(32)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'p50 ×node'.padStart(10)}`);
for (const [name] of cases) {
  const s = stat(times.get(name));
  console.log(`${name.padEnd(32)} ${s.p50.toFixed(1).padStart(8)} ${s.p90.toFixed(1).padStart(8)} ${(s.p50 / base.p50).toFixed(2).padStart(10)}`);
}
result('cold_start', {
  runs: N,
  node_ms: base.p50,
  commands: Object.fromEntries(cases.slice(1).map(([name]) => { const s = stat(times.get(name)); return [name, { p50_ms: s.p50, p90_ms: s.p90, ratio: s.p50 / base.p50 }]; })),
  target_ratio: 1.5,
});
rmSync(dir, { recursive: true, force: true });

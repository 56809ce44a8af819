#!/usr/bin/env node
// npm run bench (part 2) — the engine on a private tmux socket, side by side in one run:
//  1. handoff turnaround: a lane's `handoff` report sent → its successor's process running, p50/p95
//     over a chain of handoffs (target p50 ≤ 150 ms);
//  2. engine idle CPU with 16 idle lanes over 30 s (target ≤ 0.5 % of a core);
//  3. the same 16 panes watched the way popular tools do it — `tmux capture-pane` of each pane every
//     second — over the same 30 s, and the ratio.
// BENCH_HANDOFFS (default 24) and BENCH_IDLE_S (default 30) shorten it for a quick look.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, TICKS, cleanup, cpuTicks, makeSwarm, quantile, result, sleep, waitFor } from './lib.mjs';

const HANDOFFS = Number(process.env.BENCH_HANDOFFS ?? 24);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);

async function turnaround() {
  const s = makeSwarm('turn', ['lane-a'], { AGENT_ALL: 'handoff', [`AGENT_G${HANDOFFS + 1}`]: 'done' }, `thresholds: { max_generations: ${HANDOFFS + 5} }`);
  const child = spawn(process.execPath, [CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless', '--timeout', `${HANDOFFS * 5 + 30}s`], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  try {
    const code = await new Promise((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`bench: the handoff chain ended with exit ${code}`);
    const spool = join(s.plan, '.swarm', 'spool', 'r1');
    const inbox = readdirSync(spool).filter((agent) => existsSync(join(spool, agent, 'records.jsonl'))).flatMap((agent) => readFileSync(join(spool, agent, 'records.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    const reports = inbox.filter((r) => r.kind === 'message' && r.text.startsWith('handoff ')).map((r) => ({ gen: r.generation, at: Date.parse(r.ts) }));
    const starts = new Map();
    for (const line of readFileSync(s.env.AGENT_LOG, 'utf8').split('\n')) {
      const m = /^(\d+) lane-a g(\d+) started$/.exec(line);
      if (m) starts.set(Number(m[2]), Number(m[1]));
    }
    const ms = reports.map((r) => starts.get(r.gen + 1) - r.at).filter((v) => Number.isFinite(v));
    return { n: ms.length, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
  } finally {
    cleanup(s, child);
  }
}

async function idle() {
  const lanes = Array.from({ length: 16 }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);
  const s = makeSwarm('idle', lanes, { AGENT_G1: 'ready' });
  const child = spawn(process.execPath, [CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  try {
    await waitFor(() => {
      const log = existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '';
      return (log.match(/ idle$/gm) ?? []).length >= 17;
    }, 60_000, '16 idle lanes');
    await sleep(2000); // let start-up settle: reports read, pointer checks done
    const server = Number(execFileSync('tmux', ['-L', s.socket, 'display', '-p', '#{pid}']).toString().trim());
    const panes = execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{pane_id} #{@swarm_lane}']).toString().trim().split('\n')
      .filter((l) => / lane-/.test(l)).map((l) => l.split(' ')[0]);

    const engine0 = cpuTicks(child.pid);
    const server0 = cpuTicks(server);
    await sleep(IDLE_S * 1000);
    const engineTicks = cpuTicks(child.pid) - engine0;
    const serverIdleTicks = cpuTicks(server) - server0;

    // The polling watcher, over the same panes for the same time.
    const pollerScript = `
      const { execFileSync } = require('node:child_process');
      const panes = ${JSON.stringify(panes)};
      const end = Date.now() + ${IDLE_S * 1000};
      const tick = () => {
        for (const p of panes) execFileSync('tmux', ['-L', '${s.socket}', 'capture-pane', '-p', '-t', p]);
        if (Date.now() + 1000 < end) setTimeout(tick, 1000); };
      tick();`;
    const server1 = cpuTicks(server);
    const poller = spawnSync(process.execPath, ['-e', pollerScript], { stdio: 'ignore' });
    if (poller.status !== 0) throw new Error('bench: the polling watcher failed');
    const pollerTicks = cpuTicks(process.pid, true) - (globalThis.__childTicks ?? 0);
    const serverPollTicks = cpuTicks(server) - server1;
    const pct = (ticks) => (100 * ticks) / TICKS / IDLE_S;
    return {
      lanes: panes.length,
      enginePct: pct(engineTicks),
      serverIdlePct: pct(serverIdleTicks),
      pollerPct: pct(pollerTicks),
      serverPollPct: pct(serverPollTicks),
    };
  } finally {
    cleanup(s, child);
  }
}

const t = await turnaround();
globalThis.__childTicks = cpuTicks(process.pid, true);
const i = await idle();
const f = (v) => v.toFixed(2).padStart(7);
console.log(`\nengine on tmux ${execFileSync('tmux', ['-V']).toString().trim()}, node ${process.version}`);
console.log(`handoff turnaround (report sent → successor running), ${t.n} handoffs: p50 ${t.p50} ms, p95 ${t.p95} ms (target p50 ≤ 150 ms)`);
console.log(`${i.lanes} idle lanes over ${IDLE_S} s, % of one core:`);
console.log(`  swarm engine (event-driven)            ${f(i.enginePct)}   tmux server meanwhile ${f(i.serverIdlePct)}`);
console.log(`  polling watcher (capture-pane each 1 s) ${f(i.pollerPct)}   tmux server meanwhile ${f(i.serverPollPct)}`);
// One clock tick over the window is the resolution: a zero means "less than that".
const tick = (100 / TICKS) / IDLE_S;
const engineTotal = i.enginePct + i.serverIdlePct;
const pollTotal = i.pollerPct + i.serverPollPct;
if (engineTotal === 0) {
  console.log(`  swarm used less than one clock tick (< ${tick.toFixed(3)} % of a core); ratio polling / swarm > ${(pollTotal / tick).toFixed(0)}×`);
} else {
  console.log(`  ratio, watcher + server: polling / swarm = ${(pollTotal / engineTotal).toFixed(1)}× (resolution ${tick.toFixed(3)} %)`);
}
result('handoff_turnaround', { handoffs: t.n, p50_ms: t.p50, p95_ms: t.p95, target_p50_ms: 150 });
result('idle_cpu', { lanes: i.lanes, seconds: IDLE_S, engine_pct: i.enginePct, tmux_pct: i.serverIdlePct, poller_pct: i.pollerPct, tmux_with_poller_pct: i.serverPollPct, resolution_pct: tick, target_engine_pct: 0.5 });

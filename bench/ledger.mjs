#!/usr/bin/env node
// npm run bench (part: the ledger, issue 27) — what keeping the ledger costs the engine: 16 lanes
// streaming a status line 12 times a second, as in streaming.mjs, once as they are and once with each
// lane also telling its usage every BENCH_LEDGER_USAGE_MS (default 2000: a Claude Code status line
// after each reply comes less often), side by side, alternating, BENCH_LEDGER_PAIRS times (default 2).
// The engine's CPU is measured over BENCH_LEDGER_S (default 40) seconds, BENCH_LEDGER_WARM_S (default 30)
// after every lane streams (past the first JIT warm-up). Target: the ledger adds ≤ 5 % to the engine's
// CPU. And `swarm notify`'s bundle must hold none of the ledger (nothing added to its start).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, TICKS, cleanup, cpuTicks, makeSwarm, result, sleep, waitFor } from './lib.mjs';

const LANES = Number(process.env.BENCH_LEDGER_LANES ?? 16);
const USAGE_MS = Number(process.env.BENCH_LEDGER_USAGE_MS ?? 2000);
const PAIRS = Number(process.env.BENCH_LEDGER_PAIRS ?? 2);
const WINDOW_S = Number(process.env.BENCH_LEDGER_S ?? 40);
const WARM_S = Number(process.env.BENCH_LEDGER_WARM_S ?? 30);

const STREAMER = ['kind: streamer', 'seen_in: null', 'launch: null', 'account_env: null', 'idle: null', ''].join('\n');
// BENCH_LEDGER_NODE_ARGS: node flags for the engine, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (it is then stopped with SIGTERM).
const NODE_ARGS = (process.env.BENCH_LEDGER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const lanesOf = (n) => Array.from({ length: n }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);

/** The engine's CPU seconds over the window, and how many usage records it folded by then. */
async function run(withUsage, label) {
  const lanes = lanesOf(LANES);
  const agents = { AGENT_G1: 'ready,stream', ...(withUsage ? { AGENT_USAGE_MS: String(USAGE_MS) } : {}) };
  const s = makeSwarm(`ledger${label}`, lanes, agents, '', { kind: 'streamer', panes: { streamer: STREAMER } });
  const child = spawn(process.execPath, [...NODE_ARGS, process.env.BENCH_LEDGER_CLI ?? CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
  const log = () => (existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '');
  try {
    await waitFor(() => (log().match(/ stream$/gm) ?? []).length >= LANES, 120_000, `${LANES} streaming lanes`);
    await sleep(WARM_S * 1000);
    const t0 = cpuTicks(child.pid);
    await sleep(WINDOW_S * 1000);
    const cpuS = (cpuTicks(child.pid) - t0) / TICKS;
    const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8'));
    const folded = Object.values(state.ledger ?? {}).reduce((n, list) => n + list.length, 0);
    return { cpuS, pct: (100 * cpuS) / WINDOW_S, folded };
  } finally {
    cleanup(s, child, NODE_ARGS.some((a) => a.startsWith('--cpu-prof')));
  }
}

/** Whether the notify bundle (what an agent's `swarm notify` loads) holds any of the ledger's code. */
function notifyBundleHasLedger() {
  const bundle = join(ROOT, 'dist', 'hot', 'notify.cjs');
  if (!existsSync(bundle)) return null;
  const text = readFileSync(bundle, 'utf8');
  return ['foldUsage', 'generationFigures', 'trackLanes'].some((name) => text.includes(name));
}

const rows = [];
for (let i = 0; i < PAIRS; i += 1) {
  const off = await run(false, `off${i}`);
  const on = await run(true, `on${i}`);
  rows.push({ pair: i + 1, off_pct: off.pct, on_pct: on.pct, ratio: on.pct / off.pct, generations_folded: on.folded });
}
const off = rows.reduce((n, r) => n + r.off_pct, 0) / rows.length;
const on = rows.reduce((n, r) => n + r.on_pct, 0) / rows.length;
const added = (100 * (on - off)) / off;
const notify = notifyBundleHasLedger();
result('ledger', { lanes: LANES, usage_ms: USAGE_MS, window_s: WINDOW_S, rows, engine_off_pct: off, engine_on_pct: on, added_pct: added, notify_bundle_has_ledger: notify, targets: { added_pct: 5, notify_bundle_has_ledger: false } });
const f = (v) => v.toFixed(2).padStart(6);
console.log(`\nthe ledger: ${LANES} lanes streaming 12×/s, engine CPU (% of one core over ${WINDOW_S} s, ${WARM_S} s after they stream) without and with a usage record from every lane each ${USAGE_MS} ms (target: ≤ 5 % added)`);
console.log('pair  without   with   with/without');
for (const r of rows) console.log(`${String(r.pair).padStart(4)}  ${f(r.off_pct)}  ${f(r.on_pct)}   ${r.ratio.toFixed(3)}`);
console.log(`mean  ${f(off)}  ${f(on)}   added ${added.toFixed(1)} %   · swarm notify's bundle holds the ledger: ${notify === null ? 'no bundle built' : notify ? 'YES' : 'no'}   load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

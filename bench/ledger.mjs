#!/usr/bin/env node
// npm run bench (part: the ledger, issue 27) — what keeping the ledger costs the engine: 16 lanes
// streaming a status line 12 times a second, as in streaming.mjs, in two swarms run side by side at
// the same time (so both meet the same load on the machine), each lane telling its usage every
// BENCH_LEDGER_USAGE_MS (default 2000: a Claude Code status line after each reply comes less often):
// in one swarm into its usage file, which the engine reads (the ledger), in the other into a folder no
// engine reads (the same agents' work, no ledger). Each engine's time on a CPU (nanoseconds, /proc/<pid>/task/*/schedstat: a
// clock tick of 10 ms is a twentieth of what an idle engine spends in 40 s) over BENCH_LEDGER_S
// (default 60) seconds, BENCH_LEDGER_WARM_S (default 30) after every lane of both streams (past the
// first JIT warm-up); BENCH_LEDGER_PAIRS times (default 3), the two started in turn first.
// Target: the ledger adds ≤ 5 % to the engine's CPU. And `swarm notify`'s bundle must hold none of the
// ledger (nothing added to its start).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, cleanup, makeSwarm, onCpuNs, result, sleep, waitFor } from './lib.mjs';

const LANES = Number(process.env.BENCH_LEDGER_LANES ?? 16);
const USAGE_MS = Number(process.env.BENCH_LEDGER_USAGE_MS ?? 2000);
const PAIRS = Number(process.env.BENCH_LEDGER_PAIRS ?? 3);
const WINDOW_S = Number(process.env.BENCH_LEDGER_S ?? 60);
const WARM_S = Number(process.env.BENCH_LEDGER_WARM_S ?? 30);

const STREAMER = ['kind: streamer', 'seen_in: null', 'launch: null', 'account_env: null', 'idle: null', ''].join('\n');
// BENCH_LEDGER_NODE_ARGS: node flags for the engine, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (it is then stopped with SIGTERM).
const NODE_ARGS = (process.env.BENCH_LEDGER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const lanesOf = (n) => Array.from({ length: n }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);

/** One swarm's engine, started; `streaming()` once all its lanes stream. */
function start(withUsage, label) {
  const lanes = lanesOf(LANES);
  // Both swarms' agents write the same usage records; without the ledger's reading they go to a folder the
  // engine never reads (AGENT_USAGE_SINK), so the agents' own work is the same on both sides.
  const agents = { AGENT_G1: 'ready,stream', AGENT_USAGE_MS: String(USAGE_MS), ...(withUsage ? {} : { AGENT_USAGE_SINK: '1' }) };
  const s = makeSwarm(`ledger${label}`, lanes, agents, '', { kind: 'streamer', panes: { streamer: STREAMER } });
  // A state folder of its own (leases of accounts with the same names in the other swarm).
  const env = { ...s.env, SWARM_STATE_DIR: join(s.dir, 'state') };
  const child = spawn(process.execPath, [...NODE_ARGS, process.env.BENCH_LEDGER_CLI ?? CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env, cwd: s.repo, stdio: 'ignore' });
  const log = () => (existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '');
  const streaming = () => waitFor(() => (log().match(/ stream$/gm) ?? []).length >= LANES, 120_000, `${LANES} streaming lanes (${label})`);
  /** How many generations the ledger holds now. */
  const folded = () => {
    const state = JSON.parse(readFileSync(join(s.plan, '.swarm', 'state.json'), 'utf8'));
    return Object.values(state.ledger ?? {}).reduce((n, list) => n + list.length, 0);
  };
  return { s, child, streaming, folded, stop: () => cleanup(s, child, NODE_ARGS.some((a) => a.startsWith('--cpu-prof'))) };
}

/** Both engines side by side over one window: the CPU % of one core each spent. */
async function pair(i) {
  const first = i % 2 === 0;
  const [a, b] = [start(!first, `${first ? 'off' : 'on'}${i}`), start(first, `${first ? 'on' : 'off'}${i}`)];
  const [off, on] = first ? [a, b] : [b, a];
  try {
    await Promise.all([off.streaming(), on.streaming()]);
    await sleep(WARM_S * 1000);
    const t0 = { off: onCpuNs(off.child.pid), on: onCpuNs(on.child.pid) };
    await sleep(WINDOW_S * 1000);
    const t1 = { off: onCpuNs(off.child.pid), on: onCpuNs(on.child.pid) };
    const pct = (ns) => (100 * ns) / 1e9 / WINDOW_S;
    return { off_pct: pct(t1.off - t0.off), on_pct: pct(t1.on - t0.on), folded: on.folded() };
  } finally {
    off.stop();
    on.stop();
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
  const r = await pair(i);
  rows.push({ pair: i + 1, off_pct: r.off_pct, on_pct: r.on_pct, ratio: r.on_pct / r.off_pct, generations_folded: r.folded });
}
const off = rows.reduce((n, r) => n + r.off_pct, 0) / rows.length;
const on = rows.reduce((n, r) => n + r.on_pct, 0) / rows.length;
const added = (100 * (on - off)) / off;
const notify = notifyBundleHasLedger();
result('ledger', { lanes: LANES, usage_ms: USAGE_MS, window_s: WINDOW_S, rows, engine_off_pct: off, engine_on_pct: on, added_pct: added, notify_bundle_has_ledger: notify, targets: { added_pct: 5, notify_bundle_has_ledger: false } });
const f = (v) => v.toFixed(2).padStart(6);
console.log(`\nthe ledger: ${LANES} lanes streaming 12×/s, engine CPU (% of one core over ${WINDOW_S} s, ${WARM_S} s after they stream; two swarms side by side) without and with a usage record from every lane each ${USAGE_MS} ms (target: ≤ 5 % added)`);
console.log('pair  without   with   with/without');
for (const r of rows) console.log(`${String(r.pair).padStart(4)}  ${f(r.off_pct)}  ${f(r.on_pct)}   ${r.ratio.toFixed(3)}`);
console.log(`mean  ${f(off)}  ${f(on)}   added ${added.toFixed(1)} %   · swarm notify's bundle holds the ledger: ${notify === null ? 'no bundle built' : notify ? 'YES' : 'no'}   load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

#!/usr/bin/env node
// npm run bench (part: screen detection, issue 12 §6) — BENCH_DETECT_LANES (default 16) quiet lanes
// on a private tmux socket each show a permission screen at a time of its own (a lane every 370 ms,
// so the screens fall at every phase of a 1-second poll), then stay quiet. In the same run, a poller
// of the kind popular tools use captures every pane once a second (`tmux capture-pane -p`, one pane
// after the other) and notes when it first sees each screen. Figures: from the screen printed (the
// agent's log stamp) to swarm's `escalation` in the journal, and to the poller's first sight; p50 and
// max of each.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CLI, cleanup, makeSwarm, quantile, result, waitFor } from './lib.mjs';

const N = Number(process.env.BENCH_DETECT_LANES ?? 16);
const FIRST_MS = 6000;
const STEP_MS = 370;
const SCREEN = 'Do you want to proceed?';

// Command lanes with Claude Code's permission screen (as in bench/streaming.mjs), so a screen blocks them.
const KIND = [
  'kind: screened', 'seen_in: null', 'launch: null', 'account_env: null', 'idle: null',
  'screens:', '  permission:', "    - 'do you want to proceed\\?'", '',
].join('\n');

const lanes = Array.from({ length: N }, (_, i) => `lane-${String(i + 1).padStart(2, '0')}`);
const waits = Object.fromEntries(lanes.map((lane, i) => [`AGENT_WAIT_MS_${lane.replace(/-/g, '_')}`, String(FIRST_MS + i * STEP_MS)]));
const s = makeSwarm('detect', lanes, { AGENT_G1: 'ready,wait,permission', ...waits }, '', { kind: 'screened', panes: { screened: KIND } });
const child = spawn(process.execPath, [CLI, 'up', join(s.repo, 'swarm.yaml'), '--headless'], { env: s.env, cwd: s.repo, stdio: 'ignore' });
const log = () => (existsSync(s.env.AGENT_LOG) ? readFileSync(s.env.AGENT_LOG, 'utf8') : '');
let poller = null;
try {
  await waitFor(() => (log().match(/ g1 wait$/gm) ?? []).length >= N, 120_000, `${N} lanes waiting`);
  const panes = execFileSync('tmux', ['-L', s.socket, 'list-panes', '-a', '-F', '#{pane_id} #{@swarm_lane}']).toString().trim().split('\n')
    .map((l) => l.split(' ')).filter(([, lane]) => lanes.includes(lane));
  const script = `
    const { execFileSync } = require('node:child_process');
    const panes = ${JSON.stringify(panes)};
    const seen = {};
    const end = Date.now() + ${FIRST_MS + N * STEP_MS + 15_000};
    const tick = () => {
      for (const [pane, lane] of panes) {
        if (seen[lane]) continue;
        const text = execFileSync('tmux', ['-L', ${JSON.stringify(s.socket)}, 'capture-pane', '-p', '-t', pane]).toString();
        if (text.includes(${JSON.stringify(SCREEN)})) seen[lane] = Date.now();
      }
      if (Object.keys(seen).length < panes.length && Date.now() < end) setTimeout(tick, 1000);
      else process.stdout.write(JSON.stringify(seen));
    };
    tick();`;
  const pollerStarted = Date.now();
  poller = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  poller.stdout.on('data', (d) => { out += d; });
  const polled = JSON.parse(await new Promise((r) => poller.on('exit', () => r(out || '{}'))));
  const journal = () => readFileSync(join(s.plan, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const escalated = () => journal().filter((e) => e.event === 'escalation' && e.class === 'permission');
  await waitFor(() => escalated().length >= N, 30_000, `${N} permission escalations`);
  const shown = new Map([...log().matchAll(/^(\d+) (lane-\d+) g1 permission$/gm)].map((m) => [m[2], Number(m[1])]));
  if ([...shown.values()].some((at) => at < pollerStarted)) throw new Error('bench: a screen was shown before the poller started');
  const swarmMs = escalated().map((e) => Date.parse(e.ts) - shown.get(e.lane)).filter(Number.isFinite);
  const pollMs = Object.entries(polled).map(([lane, at]) => at - shown.get(lane)).filter(Number.isFinite);
  if (process.env.BENCH_DEBUG) console.log({ pollerStarted, shown: Object.fromEntries(shown), polled, swarmMs, pollMs });
  const fig = (ms) => ({ n: ms.length, p50_ms: quantile(ms, 0.5), max_ms: Math.max(...ms) });
  result('screen_detection', { lanes: N, load: loadavg()[0], swarm: fig(swarmMs), poller_1s: fig(pollMs) });
  console.log(`permission screen → seen, ${N} quiet lanes, one run: swarm's escalation p50 ${quantile(swarmMs, 0.5)} ms, max ${Math.max(...swarmMs)} ms (${swarmMs.length}); ` +
    `1-second capture-pane poller p50 ${quantile(pollMs, 0.5)} ms, max ${Math.max(...pollMs)} ms (${pollMs.length}); load ${loadavg()[0].toFixed(1)}`);
} finally {
  if (poller && poller.exitCode === null) poller.kill('SIGKILL');
  cleanup(s, child);
}

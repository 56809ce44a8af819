#!/usr/bin/env node
// npm run bench [-- --json] — every benchmark in one run, side by side on the same machine:
// cold start of the agents' commands (run.mjs), handoff turnaround and idle CPU vs a polling watcher
// (engine.mjs), screen detection vs a 1-second poller (detect.mjs), agents that never stop drawing
// (streaming.mjs), what the ledger adds to the engine (ledger.mjs), 16 lanes' sessions resumed after
// their tmux server died (resume.mjs), a handoff and 8 streaming lanes on another host (a real sshd)
// against the same here (hosts.mjs), time to start 32 and 64 lanes, `swarm up` to the first dashboard
// frame and its memory on a terminal (start.mjs), dashboard frames, heap and engine RSS (ui.mjs), the
// report of a generated night (report.mjs). Each part prints its own table; with --json
// their figures are collected (bench/lib.mjs `result`) and printed as one JSON object instead, the
// parts' tables going to stderr.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PARTS = ['run.mjs', 'engine.mjs', 'detect.mjs', 'streaming.mjs', 'ledger.mjs', 'resume.mjs', 'hosts.mjs', 'start.mjs', 'ui.mjs', 'report.mjs', 'init.mjs'];
const json = process.argv.includes('--json');
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-json-'));
const out = join(dir, 'results.jsonl');
const started = new Date();
const load = loadavg()[0];
let failed = 0;
try {
  for (const part of PARTS) {
    const run = spawnSync(process.execPath, [join(here, part)], {
      stdio: ['ignore', json ? process.stderr : 'inherit', 'inherit'],
      env: { ...process.env, ...(json ? { BENCH_JSON_OUT: out } : {}) },
    });
    if (run.status !== 0) {
      failed += 1;
      process.stderr.write(`bench: ${part} failed (exit ${run.status ?? run.signal})\n`);
    }
  }
  if (json) {
    let lines = [];
    try {
      lines = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
    } catch {
      // no part reported
    }
    const parts = {};
    for (const { part, ...figures } of lines) (parts[part] ??= []).push(figures);
    process.stdout.write(`${JSON.stringify({
      started: started.toISOString(), node: process.version, tmux: execFileSync('tmux', ['-V']).toString().trim(),
      cores: Number(execFileSync('nproc').toString().trim()), load_at_start: load, failed_parts: failed, parts,
    }, null, 2)}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;

#!/usr/bin/env node
// npm run bench (part 4) — `swarm report --html` on a generated night: a lead and 64 lanes × 8
// generations (bench/night.mjs, ~10,000 journal lines, ~4,600 capacity readings). Reads the plan's
// files, builds the facts and the page as `swarm report --html` does (dist/), and prints the build
// time (mean and max of BENCH_RUNS, default 5; target ≤ 1 s) and the page's size (target ≤ 2 MB).
// BENCH_LANES / BENCH_GENERATIONS change the night.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNight } from './night.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { readReportInput } = await import(join(ROOT, 'dist', 'adapters', 'reportInput.js'));
const { buildFacts } = await import(join(ROOT, 'dist', 'core', 'report', 'facts.js'));
const { renderReportPage } = await import(join(ROOT, 'dist', 'report', 'page.js'));
const { pickRun, recordsOfRun } = await import(join(ROOT, 'dist', 'core', 'report', 'runs.js'));

const { result } = await import('./lib.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'swarm-bench-report-'));
try {
  const night = writeNight(dir, { lanes: Number(process.env.BENCH_LANES ?? 64), generations: Number(process.env.BENCH_GENERATIONS ?? 8) });
  const pool = { vendors: new Map(), thresholds: { low: 25, critical: 10, contextPressure: 60 } };
  const times = [];
  let html = '';
  for (let i = 0; i < RUNS + 1; i += 1) {
    const started = performance.now();
    // As `swarm report --html` does: the last run of the journal, its inbox records.
    const input = readReportInput(dir, 'plans/night', pool);
    const picked = pickRun(input.journal, 'last');
    const run = picked.runs.at(-1) ?? null;
    const facts = buildFacts({ ...input, journal: picked.entries, inbox: recordsOfRun(input.inbox, run), run: picked.run, runs: picked.runs });
    html = renderReportPage(facts, { relativeTo: dir, timeZone: 'UTC' });
    if (i > 0) times.push(performance.now() - started); // the first run warms the JIT up
  }
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const bytes = Buffer.byteLength(html);
  result('report', { lanes: night.lanes.length, generations: night.generations, journal_lines: night.journalLines, mean_ms: mean, max_ms: Math.max(...times), bytes, target_ms: 1000, target_bytes: 2 * 1024 * 1024 });
  console.log(`report: ${night.lanes.length} lanes × ${night.generations} generations, ${night.journalLines} journal lines, ${night.inboxLines} inbox lines`);
  console.log(`report: read + facts + page  mean ${mean.toFixed(0)} ms  max ${Math.max(...times).toFixed(0)} ms  (target ≤ 1000 ms)  ${mean <= 1000 ? 'ok' : 'OVER'}`);
  console.log(`report: page size ${(bytes / 1024).toFixed(0)} KiB  (target ≤ 2048 KiB)  ${bytes <= 2 * 1024 * 1024 ? 'ok' : 'OVER'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

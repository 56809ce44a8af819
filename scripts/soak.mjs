#!/usr/bin/env node
/**
 * `npm run soak [-- --minutes N] [-- --keep]` (issue 12 §7; not part of `npm test`): one sim swarm of
 * 8 lanes run for an hour (or N minutes) with forced handoffs spread over the run. Every account's
 * quota runs down 2 % a step (SIM_COST 2) from an even start, so it goes from 26 % (ok) straight to
 * 24 % (critical: capacity_critical 24, capacity_low 25) after SPARE_STEPS steps on it, and the lane
 * hands off now. A drained account is critical, so never picked again (a merely low one would be, and
 * its successor would hand off at once: the pick ranks low above unknown). The lanes' first accounts
 * start staggered, so the swarm sees a handoff every minutes/≈30. Steps are paced (SIM_STEP_MS) to fill
 * the run.
 *
 * While it runs it samples the live panes (for chaosCheck's one-live-agent rule) and the engine's
 * /proc/<pid>/status and /proc/<pid>/stat; at the end it checks the invariants (scripts/chaosCheck.mjs),
 * that every lane handed off at least once, and prints handoffs, generations per lane, the engine's RSS
 * at start and end, its CPU over the run as % of one core, the duration and the violations. Exit 0 only
 * when there are none.
 *
 * Its own temporary repository and its own tmux server (`tmux -L swarm-soak-<pid>`), both removed on
 * exit and on Ctrl-C, with `swarm up` and any pane process it saw still alive. Nothing else is touched.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkRun, livePanes } from './chaosCheck.mjs';
import { cliPath, killServer, layOut, removeRun, runEnv, runFolder, simPlanMd, sleep, startUp } from './simRun.mjs';

const CLI = cliPath(process.env.SWARM_SOAK_BIN);
const LANES = Array.from({ length: 8 }, (_, i) => `lane-${i + 1}`);
/** Steps per lane; a fresh (spare) account lasts SPARE_STEPS of them before it is low. */
export const STEPS = 120;
export const SPARE_STEPS = 38;
const LOW = 25;
const CRITICAL = 24;
const COST = 2;
const SPARES = 32;
/** An account that is critical after `steps` steps (and ok before). */
const quotaFor = (steps) => CRITICAL + COST * steps;

/** The pacing and the first accounts' quotas for a run of `minutes`. */
export function soakPlan(minutes) {
  // Measured: a step takes its SIM_STEP_MS plus ~0.5 s (the step, the capacity check at the boundary),
  // and the start and the ~4 handoffs of a lane ~30 s in all.
  const stepMs = Math.max(300, Math.round((minutes * 60_000 - 30_000) / STEPS - 500));
  // Lane i's first account is drained after SPARE_STEPS·(i+1)/8 steps: the first handoffs are spread.
  const firstQuota = Object.fromEntries(LANES.map((lane, i) => [lane, quotaFor(Math.max(2, Math.round((SPARE_STEPS * (i + 1)) / LANES.length)))]));
  return { minutes, stepMs, firstQuota };
}

/** The swarm.yaml (JSON is YAML) of a soak. */
export function soakYaml(plan) {
  const sim = { AGENTKIT_CAPACITY_LOW: String(LOW), AGENTKIT_CAPACITY_CRITICAL: String(CRITICAL), AGENTKIT_CAPACITY_CAP: '', SIM_STEP_MS: String(plan.stepMs), SIM_COST: String(COST), SIM_CONTEXT: '0.2' };
  const account = (id, vendor, env) => ({ id, kind: 'sim', vendor, env: { ...sim, ...env } });
  const accounts = [
    account('acct-lead', 'anthropic-sim', { SIM_COST: '0', SIM_CONTEXT: '0' }),
    ...LANES.map((lane) => account(`acct-${lane}`, 'anthropic-sim', { SIM_QUOTA: String(plan.firstQuota[lane]) })),
    ...Array.from({ length: SPARES }, (_, i) => account(`spare-${i + 1}`, i % 2 === 0 ? 'openai-sim' : 'anthropic-sim', { SIM_QUOTA: String(quotaFor(SPARE_STEPS)) })),
  ];
  const stall = `${Math.max(60, Math.ceil((plan.stepMs * 4) / 1000))}s`;
  const doc = {
    version: 1,
    name: 'soak',
    plan: 'plans/soak',
    backend: 'tmux',
    accounts,
    lead: { name: 'lead', account: 'acct-lead', succession: [] },
    lanes: LANES.map((lane) => ({ name: lane, checkout: `../wt-${lane}`, task: `${lane} steps of PLAN.md`, account: `acct-${lane}`, done_when: `test "$(wc -l < out.txt)" -ge ${STEPS - 2}` })),
    max_lanes: LANES.length,
    thresholds: { capacity_low: LOW, capacity_critical: CRITICAL, max_generations: 8 },
    timeouts: { accept: '60s', packet: '30s', stall, ask: '60s', release: '5s' },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** VmRSS and VmHWM (kB) from /proc/<pid>/status text. */
export function memoryOf(status) {
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

/** utime, stime, cutime, cstime (ticks) and starttime from /proc/<pid>/stat text (the name may hold spaces). */
export function ticksOf(stat) {
  const f = stat.slice(stat.lastIndexOf(')') + 2).trim().split(/\s+/);
  // f[0] is field 3 (state): utime is field 14, so f[11].
  return { utime: Number(f[11]), stime: Number(f[12]), cutime: Number(f[13]), cstime: Number(f[14]), start: f[19] };
}

function readProc(pid, file) {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;

async function main() {
  const { values } = parseArgs({ options: { minutes: { type: 'string', default: '60' }, keep: { type: 'boolean' } } });
  const minutes = Number(values.minutes);
  if (!(minutes >= 1)) {
    process.stderr.write(`soak: --minutes ${values.minutes} is not a number of minutes (1 or more)\n`);
    process.exitCode = 2;
    return;
  }
  const plan = soakPlan(minutes);
  const dir = runFolder('swarm-soak-');
  const socket = `swarm-soak-${process.pid}`;
  const env = runEnv(dir, socket);
  /** Pane processes seen alive, by pid → starttime (so a reused pid is never killed). */
  const seen = new Map();
  let child = null;
  let cleaning = null;
  let interrupted = false;
  const cleanup = () => (cleaning ??= removeAll());
  const removeAll = async () => {
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const gone = new Promise((res) => child.once('exit', res));
      if ((await Promise.race([gone.then(() => true), sleep(5000).then(() => false)])) === false) child.kill('SIGKILL');
    }
    killServer(socket);
    for (const [pid, start] of seen) {
      const stat = readProc(pid, 'stat');
      if (stat !== null && ticksOf(stat).start === start) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    if (!values.keep) removeRun(dir);
    else process.stdout.write(`kept: ${dir}\n`);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      process.stdout.write(`\nsoak: ${signal}: stopping swarm up, removing tmux -L ${socket} and ${dir}\n`);
      void cleanup()
        .catch((error) => process.stderr.write(`soak: cleaning up: ${error instanceof Error ? error.message : String(error)}\n`))
        .finally(() => process.exit(130));
    });
  }

  const violations = [];
  let summary = null;
  try {
    const lines = Object.fromEntries(LANES.map((lane) => [lane, STEPS - 2]));
    const layout = layOut(dir, { name: 'soak', planMd: simPlanMd('Soak', 'soak', lines), yaml: soakYaml(plan), lanes: LANES });
    const journalPath = join(layout.plan, 'journal.jsonl');
    process.stdout.write(`soak: ${LANES.length} lanes × ${STEPS} steps, a step every ${plan.stepMs} ms, ${SPARES} spare accounts, about ${minutes} min; tmux -L ${socket}; ${dir}\n`);
    const started = Date.now();
    const timeout = `${Math.ceil(minutes * 2 + 5)}m`;
    const up = startUp(CLI, layout, env, ['--timeout', timeout], 20_000);
    child = up.child;
    const { done } = up;
    const pid = child.pid;
    const tick = clockTicks();
    const samples = [];
    let first = null;
    let last = null;
    let nextReport = started + 60_000;
    let ended = null;
    for (;;) {
      ended = await Promise.race([done, sleep(1000).then(() => null)]);
      if (ended) break;
      const panes = livePanes(socket);
      if (panes !== null) {
        samples.push(panes);
        for (const p of panes) {
          const stat = readProc(p.pid, 'stat');
          if (stat !== null && !seen.has(p.pid)) seen.set(p.pid, ticksOf(stat).start);
        }
      }
      const status = readProc(pid, 'status');
      const stat = readProc(pid, 'stat');
      if (status !== null && stat !== null) {
        const point = { at: Date.now(), ...memoryOf(status), ...ticksOf(stat) };
        const lanesUp = new Set((panes ?? []).map((p) => p.lane)).size;
        if (first === null && lanesUp >= LANES.length) first = point;
        last = point;
      }
      if (Date.now() >= nextReport) {
        nextReport += 60_000;
        const journal = existsSync(journalPath) ? readFileSync(journalPath, 'utf8') : '';
        const handoffs = journal.split('\n').filter((l) => l.includes('"handoff_reported"')).length;
        process.stdout.write(`  ${((Date.now() - started) / 60_000).toFixed(1)} min: ${handoffs} handoffs, ${(panes ?? []).length} live panes, engine RSS ${last ? mb(last.rssKb) : '?'}\n`);
      }
    }
    if (interrupted) return;
    const seconds = (Date.now() - started) / 1000;
    const result = checkRun({ plan: layout.plan, socket, exit: ended, samples, snapshots: [], lanes: LANES });
    violations.push(...result.violations);
    const journal = readFileSync(journalPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const generations = Object.fromEntries(LANES.map((lane) => [lane, 1 + journal.filter((e) => e.event === 'packet_accepted' && e.lane === lane).length]));
    for (const lane of LANES) if (generations[lane] < 2) violations.push(`${lane} never handed off`);
    if (first === null) violations.push(`the ${LANES.length} lanes were never all live at once`);
    summary = { seconds, handoffs: result.handoffs, generations, first, last, tick };
    if (violations.length > 0) process.stdout.write(`last output of swarm up:\n${up.output().split('\n').slice(-20).join('\n').replace(/^/gm, '    ')}\n`);
  } catch (error) {
    violations.push(`the soak failed: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    await cleanup();
  }
  if (summary !== null) {
    const { seconds, handoffs, generations, first, last, tick } = summary;
    process.stdout.write(`\nsoak summary (--minutes ${minutes})\n`);
    process.stdout.write(`  duration:    ${(seconds / 60).toFixed(1)} min (${Math.round(seconds)} s)\n`);
    process.stdout.write(`  handoffs:    ${handoffs} (one every ${handoffs > 0 ? Math.round(seconds / handoffs) : '-'} s)\n`);
    process.stdout.write(`  generations: ${LANES.map((l) => `${l} ${generations[l]}`).join(', ')}\n`);
    if (first !== null && last !== null) {
      const span = (last.at - first.at) / 1000;
      const own = last.utime + last.stime - (first.utime + first.stime);
      const kids = last.cutime + last.cstime - (first.cutime + first.cstime);
      const pct = (t) => (span > 0 ? ((t / tick / span) * 100).toFixed(1) : '?');
      process.stdout.write(`  engine RSS:  ${mb(first.rssKb)} at start (all lanes live), ${mb(last.rssKb)} at end, peak ${mb(last.hwmKb)}\n`);
      process.stdout.write(`  engine CPU:  ${own} ticks in ${Math.round(span)} s = ${pct(own)}% of a core (its waited children: ${kids} ticks, ${pct(kids)}%)\n`);
    }
  }
  process.stdout.write(`  violations:  ${violations.length}\n`);
  for (const v of violations) process.stdout.write(`    ✗ ${v}\n`);
  process.exitCode = violations.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

#!/usr/bin/env node
/**
 * `npm run chaos [-- --runs N] [-- --base B] [-- --seed S] [-- --keep] [-- --verbose]` (issue 12 §2; not part of
 * `npm test`): randomized sim swarms (kind: sim, fast step timings) under faults, each chosen by the
 * run's seed (scripts/chaosPlan.mjs) — SIGKILL of `swarm up` (then `swarm up` again, which must
 * resume), the run's tmux server killed (swarm stops short with host_lost and exit 1; `swarm up` again
 * resumes), a plan file refusing writes for a while (chattr +i on the journal, the state file or
 * .swarm/, then -i), lane agents crashing before a random step (SIM_CRASH_AT) or killed from outside
 * (kill -9 of a pane's process), the disk under the plan's `.swarm/` full for a while (a small tmpfs
 * filled, then freed), a lane reporting and exiting while no engine runs (`swarm up` killed, then
 * started again), and accounts capped so lanes hand off. After each run the invariants
 * are checked (scripts/chaosCheck.mjs); it prints the counts per fault kind and the seed of every
 * failing run (`--seed S` replays that one run).
 *
 * Kills wait while writes are refused and until swarm has written again (a kill then loses what was
 * never written: a different fault, not covered here). Each run has its own temporary repository and
 * its own tmux server (`tmux -L swarm-chaos-…`), removed afterwards, frozen files unfrozen first,
 * also on Ctrl-C. Run `npm run build` first (npm run chaos does).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkRun, livePanes } from './chaosCheck.mjs';
import { chattr, fillDisk, freeDisk, killSurvivors, mountTmpfs, processesOf, refusalPath, survivors, textOf, unmount } from './chaosFaults.mjs';
import { planRun, swarmYaml } from './chaosPlan.mjs';
import { printTotals, tally } from './chaosReport.mjs';
import { cliPath, killServer, layOut, removeRun, runEnv, runFolder, simPlanMd, sleep, startUp } from './simRun.mjs';

/** SWARM_CHAOS_BIN: another build's bin/swarm.cjs (a copy, so a rebuild cannot change a long run halfway). */
const CLI = cliPath(process.env.SWARM_CHAOS_BIN);
const RUN_MS = 150_000;
/** After writes are allowed again, how long swarm may take to write what waited (its backoff is ≤ 5 s). */
const CATCH_UP_MS = 8000;
/** How long an agent may outlive its killed tmux server. */
const SIGHUP_MS = 5000;
const cmdline = (pid) => (textOf(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim().slice(0, 120);
const count = (text, word) => text.split(word).length - 1;

/** What a run being torn down must undo (also on Ctrl-C). */
let undo = null;
/** --verbose: when each refusal began, how long agents outlived a killed tmux server. */
let verbose = false;

/** One run: lay out, start, inject faults, start `swarm up` again after each kill, then check. */
export async function oneRun(seed, { keep = false } = {}) {
  const run = planRun(seed);
  const dir = runFolder(`swarm-chaos-${seed}-`);
  const socket = `swarm-chaos-${process.pid}-${seed}`;
  const env = runEnv(dir, socket);
  const stats = { swarmKills: 0, tmuxKills: 0, tmuxKillsAtStart: 0, stoppedShort: 0, refusals: [], faultsTold: 0, crashes: Object.keys(run.crashAt).length, paneKills: 0, handoffs: 0, violations: [], downReports: [] };
  const samples = [];
  const snapshots = [];
  const orphans = [];
  let frozen = null;
  let current = null;
  /** The tmpfs under the plan's `.swarm/` (a full-disk fault), and the window it is full. */
  let disk = null;
  let full = null;
  undo = () => {
    if (frozen) chattr('-i', frozen.path);
    if (disk) {
      freeDisk(disk);
      unmount(disk);
    }
    current?.child.kill('SIGKILL');
    killServer(socket);
    killSurvivors(orphans);
  };
  let ended = null;
  const logs = [];
  try {
    const layout = layOut(dir, { name: 'chaos', planMd: simPlanMd(`Chaos run ${seed}`, `chaos-${seed}`, Object.fromEntries(run.lanes.map((l) => [l, run.steps[l] - 1]))), yaml: swarmYaml(run), lanes: run.lanes });
    const journalPath = () => refusalPath(layout.plan, 'journal');
    const journal = () => (existsSync(journalPath()) ? readFileSync(journalPath(), 'utf8') : '');
    const started = Date.now();
    const pending = run.paneKills.map((k) => ({ ...k }));
    const kills = [...run.swarmKills].sort((a, b) => a - b);
    const tmuxKills = [...run.tmuxKills];
    const refusals = run.refusals.map((r) => ({ ...r }));
    let fullDisk = run.fullDisk;
    let downReport = run.downReport;
    if (fullDisk) {
      disk = join(layout.plan, '.swarm');
      if (!mountTmpfs(disk)) throw new Error(`mount -t tmpfs on ${disk} failed: the full-disk fault needs root`);
    }
    const upAgain = () => {
      if (current !== null) current.done.then((e) => logs.push(e.out));
      current = { ...startUp(CLI, layout, env, ['--timeout', '90s']), since: Date.now(), hostKilled: null };
    };
    /** The agents of the killed tmux server go with their ptys (SIGHUP): give them a few seconds. */
    const agentsGone = async () => {
      const gone = Date.now() + SIGHUP_MS;
      while (survivors(current.hostKilled).length > 0 && Date.now() < gone) await sleep(100);
      if (verbose) process.stdout.write(`  seed ${seed}: the agents were gone ${Date.now() - current.hostKilledAt} ms after their tmux server was killed\n`);
      for (const p of survivors(current.hostKilled)) stats.violations.push(`the agent of ${p.lane} g${p.generation} (pid ${p.pid}: ${cmdline(p.pid)}) outlived its tmux server by ${SIGHUP_MS / 1000} s`);
      orphans.push(...current.hostKilled);
      current.hostKilled = null;
    };
    /** The current swarm up has started (its first line is out): a refusal now is not one at start. */
    const running = () => current.output().includes('swarm chaos: plan ');
    let quietUntil = 0;
    upAgain();
    for (;;) {
      const exited = await Promise.race([current.done, sleep(150).then(() => null)]);
      const panes = livePanes(socket);
      if (panes !== null) samples.push(panes);
      const now = Date.now() - started;
      // The plan is done: swarm up is ending, and a fault from now on lands after the run it tests
      // (an agent or a tmux server killed after swarm up exited leaves a lease no swarm can release;
      // under SPEC 10.4 it is free for every swarm, and the plan's next swarm up removes it).
      let over = exited !== null || journal().includes('"event":"plan_done"');
      for (const k of pending.filter((p) => !p.done && now >= p.atMs && !over)) {
        k.done = true;
        const target = (panes ?? []).find((p) => p.lane === k.lane && p.generation === 1);
        if (target) {
          try {
            process.kill(target.pid, 'SIGKILL');
            if (verbose) process.stdout.write(`  ${new Date().toISOString()} ${k.lane} g1 killed (pid ${target.pid})\n`);
            stats.paneKills += 1;
          } catch {
            // already gone
          }
        }
      }
      if (frozen && (exited || Date.now() >= frozen.until)) {
        const text = textOf(frozen.path);
        if (frozen.before !== null && text !== frozen.before) stats.violations.push(`${frozen.path} changed while immutable: the refusal did not take`);
        if (!chattr('-i', frozen.path)) stats.violations.push(`chattr -i ${frozen.path} failed`);
        stats.refusals.push({ target: frozen.target, from: frozen.from, to: Date.now() });
        frozen = null;
        quietUntil = Date.now() + CATCH_UP_MS;
      }
      if (full && (exited || Date.now() >= full.until)) {
        freeDisk(disk);
        stats.refusals.push({ target: 'full-disk', from: full.from, to: Date.now() });
        full = null;
        quietUntil = Date.now() + CATCH_UP_MS;
      }
      if (exited) {
        stats.faultsTold += count(exited.out, 'plan_files_fault');
        if (current.hostKilled === null || exited.code === 0) {
          ended = exited;
          break;
        }
        // The tmux server was killed under it: stopped short, exit 1, and the agents gone with it.
        stats.stoppedShort += 1;
        if (exited.code !== 1 || !/the tmux server is gone/.test(exited.out)) stats.violations.push(`swarm up exited ${exited.code ?? exited.signal} after its tmux server was killed, not 1 with "the tmux server is gone": ${exited.out.split('\n').slice(-3).join(' | ')}`);
        await agentsGone();
        upAgain();
        continue;
      }
      if (current.hostKilled !== null && panes !== null && panes.length > 0 && Date.now() - current.hostKilledAt > 300) {
        // A server again under a swarm up that goes on: right while it started (it resumes as after
        // any lost host), never once it ran (SPEC: it stops short rather than rebuild the server).
        if (current.killedRunning) stats.violations.push('swarm up carried on after its tmux server was killed: a new server under it');
        else stats.tmuxKillsAtStart += 1;
        await agentsGone();
      }
      // Asked again after the waits above (agentsGone waits up to SIGHUP_MS): the plan may be done by now.
      over ||= journal().includes('"event":"plan_done"');
      // Caught up: every refusal told so far has been written through (plan_files_recovered).
      if (Date.now() < quietUntil && count(journal(), '"plan_files_recovered"') >= stats.faultsTold + count(current.output(), 'plan_files_fault')) quietUntil = 0;
      const quiet = frozen === null && full === null && Date.now() >= quietUntil && current.hostKilled === null;
      if (quiet && !over && kills.length > 0 && Date.now() - current.since >= kills[0]) {
        kills.shift();
        snapshots.push(journal());
        if (verbose) process.stdout.write(`  ${new Date().toISOString()} swarm up killed\n`);
        current.child.kill('SIGKILL');
        stats.faultsTold += count((await current.done).out, 'plan_files_fault');
        stats.swarmKills += 1;
        upAgain();
      } else if (quiet && !over && tmuxKills.length > 0 && now >= tmuxKills[0] && panes !== null && panes.length > 0) {
        tmuxKills.shift();
        snapshots.push(journal());
        current.killedRunning = running();
        current.hostKilled = processesOf(panes);
        current.hostKilledAt = Date.now();
        if (verbose) process.stdout.write(`  ${new Date().toISOString()} tmux server killed (${panes.length} panes)\n`);
        killServer(socket);
        stats.tmuxKills += 1;
      } else if (quiet && running() && fullDisk && now >= fullDisk.atMs) {
        full = { from: Date.now(), until: Date.now() + fullDisk.forMs };
        fullDisk = null;
        snapshots.push(journal());
        fillDisk(disk);
      } else if (quiet && !over && running() && downReport && now >= downReport.atMs) {
        downReport = null;
        snapshots.push(journal());
        current.child.kill('SIGKILL');
        stats.faultsTold += count((await current.done).out, 'plan_files_fault');
        stats.swarmKills += 1;
        const report = await reportWhileDown(layout.plan, socket);
        if (report) stats.downReports.push(report);
        upAgain();
      } else if (quiet && running() && refusals.length > 0 && now >= refusals[0].atMs) {
        const path = refusalPath(layout.plan, refusals[0].target);
        if (existsSync(path)) {
          const { target, forMs } = refusals.shift();
          const from = Date.now(); // before chattr: swarm may meet the refusal before chattr has returned
          if (!chattr('+i', path)) throw new Error(`chattr +i ${path} failed: chaos needs root on a file system with immutable files`);
          const before = target === 'swarm-dir' ? null : textOf(path); // read once immutable: a write just before is no change
          frozen = { target, path, before, from, until: from + forMs };
          snapshots.push(journal());
        }
      }
      if (current.hostKilled !== null && Date.now() - current.hostKilledAt > 20_000) {
        stats.violations.push('swarm up did not stop within 20 s of its tmux server being killed');
        current.child.kill('SIGKILL');
        ended = { ...(await current.done), code: -1 };
        break;
      }
      if (Date.now() - started > RUN_MS) {
        current.child.kill('SIGKILL');
        ended = { ...(await current.done), code: -1 };
        stats.violations.push(`the run took over ${RUN_MS / 1000} s`);
        break;
      }
    }
    const result = checkRun({
      plan: layout.plan, machineLeases: join(env.SWARM_STATE_DIR, 'leases'), socket, exit: ended, samples, snapshots, lanes: run.lanes,
      hostLost: stats.stoppedShort, refusals: stats.refusals, faultsTold: stats.faultsTold,
      fullDisk: stats.refusals.some((r) => r.target === 'full-disk'), downReports: stats.downReports,
    });
    stats.handoffs = result.handoffs;
    stats.violations.push(...result.violations);
    if (stats.violations.length > 0) stats.output = ended?.out?.split('\n').slice(-15).join('\n');
    if (keep) [...logs, ended?.out ?? ''].forEach((out, i) => writeFileSync(join(dir, `up-${i + 1}.log`), out));
  } catch (error) {
    stats.violations.push(`the run failed: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    undo();
    undo = null;
    if (!keep) removeRun(dir);
  }
  return { run, stats, dir };
}

/**
 * While no engine runs: wait (up to 20 s) for a lane's `done` or `handoff` in its spool, then end that
 * agent (kill -9 of its pane's process) as an agent that exits after reporting. The report, or null.
 */
async function reportWhileDown(plan, socket) {
  const spools = () => {
    const root = join(plan, '.swarm', 'spool');
    return existsSync(root) ? readdirSync(root).flatMap((run) => readdirSync(join(root, run)).map((agent) => join(root, run, agent, 'records.jsonl'))) : [];
  };
  const size = (path) => (existsSync(path) ? readFileSync(path).length : 0);
  const from = new Map(spools().map((path) => [path, size(path)]));
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const text = spools().map((path) => (existsSync(path) ? readFileSync(path).subarray(from.get(path) ?? 0).toString('utf8') : '')).join('\n');
    for (const line of text.split('\n')) {
      let r = null;
      try {
        r = JSON.parse(line);
      } catch {
        continue;
      }
      const kind = r?.kind === 'message' && r.role === 'lane' && r.to === 'lead' ? /^(done|handoff)\b/.exec(String(r.text))?.[1] : undefined;
      if (!kind) continue;
      const pane = (livePanes(socket) ?? []).find((p) => p.lane === r.from && p.generation === r.generation);
      if (pane) {
        try {
          process.kill(pane.pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      return { lane: r.from, generation: r.generation, kind };
    }
    await sleep(150);
  }
  return null;
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' }, seed: { type: 'string' }, keep: { type: 'boolean' }, base: { type: 'string' }, verbose: { type: 'boolean' } } });
  verbose = Boolean(values.verbose);
  const seeds = values.seed !== undefined
    ? [Number(values.seed)]
    : Array.from({ length: Number(values.runs) }, (_, i) => (values.base !== undefined ? Number(values.base) : Date.now() % 1_000_000) + i);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stdout.write(`\nchaos: ${signal}: undoing the current run (unfreezing its files, killing its swarm up and tmux server)\n`);
      undo?.();
      process.exit(130);
    });
  }
  const results = [];
  const started = Date.now();
  for (const seed of seeds) {
    const { run, stats, dir } = await oneRun(seed, { keep: Boolean(values.keep) });
    results.push({ run, stats });
    const refused = stats.refusals.map((r) => `${r.target} ${((r.to - r.from) / 1000).toFixed(1)} s${values.verbose ? ` from ${new Date(r.from).toISOString()}` : ''}`).join(', ');
    process.stdout.write(`run ${results.length}/${seeds.length} seed ${seed}: ${run.lanes.length} lanes, ${stats.swarmKills} swarm kills, ${stats.tmuxKills} tmux kills${stats.tmuxKillsAtStart > 0 ? ` (${stats.tmuxKillsAtStart} while swarm up started)` : ''}, ${stats.refusals.length} write refusals${refused ? ` (${refused}; ${stats.faultsTold} told)` : ''}, ${stats.downReports.length} reports while down, ${stats.crashes} crashes, ${stats.paneKills} pane kills, ${stats.handoffs} handoffs, ${stats.violations.length} violations\n`);
    if (stats.violations.length > 0) {
      for (const v of stats.violations) process.stdout.write(`  ✗ ${v}\n`);
      if (stats.output) process.stdout.write(`  last output:\n${stats.output.replace(/^/gm, '    ')}\n`);
      if (values.keep) process.stdout.write(`  kept: ${dir}\n`);
    }
  }
  const failing = printTotals(tally(results), (Date.now() - started) / 60_000, (line) => process.stdout.write(`${line}\n`));
  process.exitCode = failing > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

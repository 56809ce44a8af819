/**
 * The counts `npm run chaos` prints at the end: per fault kind, the runs that had it, how many times
 * it struck, and the handoffs and violations of those runs; then the totals and the failing seeds.
 * Pure: results in, lines out.
 */

/** The fault kinds, each with how many times it struck in one run's stats. */
export const KINDS = [
  ['swarm up killed (SIGKILL), up again', (s) => s.swarmKills],
  ['tmux server killed, up again', (s) => s.tmuxKills],
  ['writes refused (chattr +i or a full disk), then allowed', (s) => s.refusals.length],
  ['  of which a full disk (tmpfs), then freed', (s) => s.refusals.filter((r) => r.target === 'full-disk').length],
  ['a report while swarm up was down, up again', (s) => s.downReports?.length ?? 0],
  ['lane agent crashed (SIM_CRASH_AT)', (s) => s.crashes],
  ['lane pane killed (kill -9)', (s) => s.paneKills],
];

/** Totals of a list of { run, stats } (the stats of scripts/chaos.mjs oneRun). */
export function tally(results) {
  const row = () => ({ runs: 0, faults: 0, handoffs: 0, violations: 0 });
  const kinds = KINDS.map(([name]) => ({ name, ...row() }));
  const none = { name: 'none of these', ...row() };
  const all = { name: 'all runs', ...row() };
  const targets = { journal: 0, state: 0, 'swarm-dir': 0 };
  let told = 0;
  const failing = [];
  for (const { run, stats } of results) {
    const add = (r, faults) => {
      r.runs += 1;
      r.faults += faults;
      r.handoffs += stats.handoffs;
      r.violations += stats.violations.length;
    };
    const struck = KINDS.map(([, of]) => of(stats));
    struck.forEach((n, i) => n > 0 && add(kinds[i], n));
    if (struck.every((n) => n === 0)) add(none, 0);
    add(all, struck.reduce((a, b) => a + b, 0));
    for (const r of stats.refusals) targets[r.target] = (targets[r.target] ?? 0) + 1;
    told += stats.faultsTold;
    if (stats.violations.length > 0) failing.push(run.seed);
  }
  return { kinds: [...kinds, none, all], targets, told, failing };
}

/** Print the table and the summary line with `print`; the number of failing runs. */
export function printTotals(totals, minutes, print) {
  const width = Math.max(...totals.kinds.map((k) => k.name.length));
  const cell = (v, w = 9) => String(v).padStart(w);
  print('');
  print(`${'fault kind'.padEnd(width)} ${cell('runs', 5)} ${cell('faults', 7)} ${cell('handoffs')} ${cell('violations', 10)}`);
  for (const k of totals.kinds) print(`${k.name.padEnd(width)} ${cell(k.runs, 5)} ${cell(k.faults, 7)} ${cell(k.handoffs)} ${cell(k.violations, 10)}`);
  const of = (name) => totals.kinds.find((k) => k.name === name) ?? { faults: 0, runs: 0, handoffs: 0, violations: 0 };
  const [swarm, tmux, writes, , down, crash, pane] = totals.kinds;
  const all = of('all runs');
  const t = totals.targets;
  print('');
  print(
    `chaos: ${all.runs} runs in ${minutes.toFixed(1)} min, ${swarm.faults} swarm kills (SIGKILL), ${tmux.faults} tmux kills, `
    + `${writes.faults} write refusals (journal ${t.journal}, state.json ${t.state}, .swarm/ ${t['swarm-dir']}, full disk ${t['full-disk'] ?? 0}; ${totals.told} told), `
    + `${down.faults} reports while swarm up was down, ${crash.faults} lane crashes (SIM_CRASH_AT) + ${pane.faults} lane pane kills (SIGKILL), ${all.handoffs} handoffs, ${all.violations} violations`,
  );
  if (totals.failing.length > 0) print(`failing seeds: ${totals.failing.join(' ')} (replay one: npm run chaos -- --seed S --keep)`);
  return totals.failing.length;
}

/**
 * The invariants of a chaos run (issue 12 §1), judged from what it left: the journal, the lease files,
 * the packets and the tmux samples taken while it ran; across a killed tmux server (every lane's lost
 * agent succeeded) and a window of refused writes (told once, written after, nothing lost). Pure but
 * for reading those files and tmux (`live` given: no tmux at all).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterDownReports, afterFullDisk } from './chaosAppends.mjs';

/** Every live agent pane on the server: lane, generation, pid; null when no server runs. */
export function livePanes(socket) {
  let out;
  try {
    out = execFileSync('tmux', ['-L', socket, 'list-panes', '-a', '-F', '#{@swarm_lane}\t#{@swarm_generation}\t#{pane_pid}\t#{pane_dead}'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
  return out
    .split('\n')
    .map((l) => l.split('\t'))
    .filter(([lane, , , dead]) => lane && dead === '0')
    .map(([lane, generation, pid]) => ({ lane, generation: Number(generation), pid: Number(pid) }));
}

function readJournal(plan) {
  const path = join(plan, 'journal.jsonl');
  if (!existsSync(path)) return { text: '', entries: [] };
  const text = readFileSync(path, 'utf8');
  const entries = [];
  for (const line of text.split('\n').filter(Boolean)) {
    try {
      entries.push(JSON.parse(line));
    } catch {
      entries.push({ event: '(unparsable)', line });
    }
  }
  return { text, entries };
}

function leaseFiles(dir) {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => {
    const text = readFileSync(join(dir, f), 'utf8');
    try {
      return { file: f, ...JSON.parse(text) };
    } catch {
      return { file: f, torn: text }; // not a lease: an empty or torn file no engine can parse or recover
    }
  });
}

/** The plan's view of its leases, and its leases in the machine's folder (SPEC 10.4) when given. */
function readLeases(plan, machineLeases) {
  const mine = leaseFiles(machineLeases).filter((l) => l.torn !== undefined || l.plan === plan);
  return [...leaseFiles(join(plan, '.swarm', 'leases')), ...mine.map((l) => ({ ...l, file: `machine ${l.file}` }))];
}

/**
 * The violations of one run, and how many handoffs it made. `live`: the agent panes alive at the end
 * (else read from tmux -L socket); `hostLost`: how many times swarm up stopped short on a killed tmux
 * server; `refusals`: the windows of refused writes ({ target, from, to } in epoch ms); `faultsTold`:
 * how many plan_files_fault lines swarm up printed; `fullDisk`: the disk under `.swarm/` was full for a
 * while; `downReports`: reports made while no engine ran (scripts/chaosAppends.mjs).
 */
export function checkRun({ plan, machineLeases, socket, exit, samples, snapshots, lanes, live, hostLost = 0, refusals = [], faultsTold = 0, fullDisk = false, downReports = [] }) {
  const violations = [];
  const { text, entries } = readJournal(plan);
  const ev = (name) => entries.filter((e) => e.event === name);

  // Never two live agents of one lane: one pane per lane and generation, and at most the spent and
  // its successor (consecutive generations) alive together, as during a handoff.
  for (const [i, sample] of samples.entries()) {
    const byLane = new Map();
    for (const p of sample) byLane.set(p.lane, [...(byLane.get(p.lane) ?? []), p.generation]);
    for (const [lane, gens] of byLane) {
      const distinct = [...new Set(gens)].sort((a, b) => a - b);
      if (distinct.length !== gens.length) violations.push(`sample ${i}: two live panes of ${lane} g${gens.join(',g')}`);
      else if (distinct.length > 2 || (distinct.length === 2 && distinct[1] !== distinct[0] + 1)) violations.push(`sample ${i}: live generations ${distinct.join(',')} of ${lane}`);
    }
  }

  // Nothing recorded is lost: each journal read before a fault is a prefix of the final one (whole lines).
  for (const [i, snap] of snapshots.entries()) {
    const whole = snap.slice(0, snap.lastIndexOf('\n') + 1);
    if (!text.startsWith(whole)) violations.push(`the journal read before fault ${i + 1} (a kill or a refusal) is not a prefix of the final journal`);
  }
  if (entries.some((e) => e.event === '(unparsable)')) violations.push('the journal has an unparsable line');

  // Every handoff ends accepted, rejected and reported to the lane, or stopped.
  const reported = ev('handoff_reported');
  for (const r of reported) {
    const same = (e) => e.lane === r.lane && (e.packet === r.packet || e.generation === r.generation);
    const accepted = ev('packet_accepted').some((e) => e.lane === r.lane && e.packet === r.packet);
    const rejected = ev('packet_rejected').some(same);
    const stopped = entries.some((e) => same(e) && /stopped|max_generations|escalation|handoff_dropped/.test(String(e.event)));
    if (!accepted && !rejected && !stopped) violations.push(`the handoff of ${r.lane} g${r.generation} (${r.packet}) ended neither accepted, rejected nor stopped`);
    if (typeof r.packet === 'string') {
      const path = isAbsolute(r.packet) ? r.packet : join(plan, r.packet);
      if (!existsSync(path)) violations.push(`packet ${r.packet} is gone`);
      else if ((statSync(path).mode & 0o777) !== 0o600) violations.push(`packet ${r.packet} is mode ${(statSync(path).mode & 0o777).toString(8)}`);
    }
  }
  // One packet accepted at most once: by two generations is two agents on one packet; by one
  // generation twice, the acceptance is recorded twice (an intent run again after a kill).
  const byPacket = new Map();
  for (const e of ev('packet_accepted')) byPacket.set(`${e.lane} ${e.packet}`, [...(byPacket.get(`${e.lane} ${e.packet}`) ?? []), e.generation]);
  for (const [key, generations] of byPacket) {
    if (generations.length < 2) continue;
    const [lane, packet] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
    if (new Set(generations).size > 1) violations.push(`a packet accepted twice: ${packet} by ${lane} g${generations.join(' and g')}`);
    else violations.push(`the acceptance of ${packet} by ${lane} g${generations[0]} is journaled ${generations.length} times`);
  }

  // No lease without a live holder, once the run is over.
  for (const lease of readLeases(plan, machineLeases)) {
    if (lease.torn !== undefined) {
      violations.push(`lease ${lease.file} is not a lease (${JSON.stringify(lease.torn.slice(0, 40))}): the account can never be leased again`);
      continue;
    }
    const holder = (live ?? livePanes(socket) ?? []).find((p) => (p.lane === lease.lane || (lease.lane === 'lead' && p.lane.startsWith('lead'))) && p.generation === lease.generation);
    if (!holder) violations.push(`lease ${lease.file} (${lease.lane} g${lease.generation}) has no live holder`);
  }

  violations.push(...afterHostLost(entries, lanes, hostLost), ...afterRefusals(entries, refusals, faultsTold));
  if (fullDisk) violations.push(...afterFullDisk(plan, entries));
  violations.push(...afterDownReports(entries, downReports));

  // The plan ends done.
  if (exit?.code !== 0) violations.push(`the last swarm up exited ${exit?.code ?? '?'}${exit?.signal ? ` (${exit.signal})` : ''}`);
  if (ev('plan_done').length === 0) violations.push('no plan_done in the journal');
  for (const lane of lanes) {
    const result = ev('lane_result').filter((e) => e.lane === lane).at(-1);
    if (result?.passed !== true) violations.push(`${lane} has no passing lane_result`);
  }
  return { violations, handoffs: reported.length };
}

const generationOf = (e) => Math.max(Number(e.generation ?? 0), Number(e.for_generation ?? 0));

/**
 * Each time the tmux server was killed: one host_lost in the journal, and every lane not yet done
 * then has its lost agent succeeded afterwards (a later generation accepts a packet), or passes.
 */
function afterHostLost(entries, lanes, hostLost) {
  const violations = [];
  const lost = entries.flatMap((e, i) => (e.event === 'host_lost' ? [i] : []));
  if (lost.length !== hostLost) violations.push(`${hostLost} tmux server kills stopped swarm up, but the journal has ${lost.length} host_lost`);
  for (const at of lost) {
    const before = entries.slice(0, at);
    const after = entries.slice(at + 1);
    for (const lane of lanes) {
      if (before.some((e) => e.event === 'lane_result' && e.lane === lane && e.passed === true)) continue;
      const started = before.filter((e) => e.lane === lane && (e.event === 'lane_started' || e.event === 'packet_accepted'));
      if (started.length === 0) continue;
      const generation = Math.max(...started.map(generationOf));
      const succeeded = after.some((e) => e.event === 'packet_accepted' && e.lane === lane && Number(e.generation) > generation);
      const passed = after.some((e) => e.event === 'lane_result' && e.lane === lane && e.passed === true);
      if (!succeeded && !passed) violations.push(`after host_lost (journal line ${at + 1}), the lost agent ${lane} g${generation} was never succeeded`);
    }
  }
  return violations;
}

/**
 * Refused writes: each refusal swarm met is told once (a plan_files_fault printed) and ends in one
 * plan_files_recovered whose start lies in a refusal window (a full disk, which frees and fills
 * again, may be met more than once in its window: each time told once and recovered once); journal entries made while the journal
 * was refused appear in it afterwards.
 */
function afterRefusals(entries, refusals, faultsTold) {
  const violations = [];
  const slackMs = 500;
  const recovered = entries.filter((e) => e.event === 'plan_files_recovered');
  if (recovered.length !== faultsTold) violations.push(`swarm up told ${faultsTold} plan_files_fault, the journal has ${recovered.length} plan_files_recovered`);
  // The window a recovery began in: of those around its start (give or take the slack), the latest
  // begun by then — one refusal may end just as the next begins.
  const windowOf = (e) => {
    const since = Date.parse(e.since);
    let best = -1;
    for (const [i, w] of refusals.entries()) {
      if (since < w.from - slackMs || since > w.to + slackMs) continue;
      if (best === -1 || (w.from <= since + slackMs && w.from > refusals[best].from)) best = i;
    }
    return best;
  };
  const hits = recovered.map(windowOf);
  for (const [i, w] of hits.entries()) if (w === -1) violations.push(`plan_files_recovered since ${recovered[i].since} lies in no refusal window`);
  for (const [w, refusal] of refusals.entries()) {
    // A full disk takes some writes and refuses others while it is full: it may be met, and recovered
    // from, more than once in one window. A chattr refusal refuses every write until it is lifted.
    if (refusal.target !== 'full-disk' && hits.filter((h) => h === w).length > 1) violations.push(`the ${refusal.target} refusal was told more than once`);
    if (refusal.target !== 'journal' || !hits.includes(w)) continue;
    const made = entries.filter((e) => e.event !== 'plan_files_recovered' && Date.parse(e.ts) >= refusal.from - slackMs && Date.parse(e.ts) <= refusal.to);
    if (made.length === 0) violations.push('no journal entry made while the journal was refused appears in it afterwards');
  }
  return violations;
}

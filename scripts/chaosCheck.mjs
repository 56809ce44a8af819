/**
 * The invariants of a chaos run (issue 12 §1), judged from what it left: the journal, the lease files,
 * the packets and the tmux samples taken while it ran. Pure but for reading those files and tmux.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

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

function readLeases(plan) {
  const dir = join(plan, '.swarm', 'leases');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => ({ file: f, ...JSON.parse(readFileSync(join(dir, f), 'utf8')) }));
}

/** The violations of one run, and how many handoffs it made. */
export function checkRun({ plan, socket, exit, samples, snapshots, lanes }) {
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

  // Nothing recorded is lost: each journal read before a kill is a prefix of the final one (whole lines).
  for (const [i, snap] of snapshots.entries()) {
    const whole = snap.slice(0, snap.lastIndexOf('\n') + 1);
    if (!text.startsWith(whole)) violations.push(`the journal read before kill ${i + 1} is not a prefix of the final journal`);
  }
  if (entries.some((e) => e.event === '(unparsable)')) violations.push('the journal has an unparsable line');

  // Every handoff ends accepted, rejected and reported to the lane, or stopped.
  const reported = ev('handoff_reported');
  for (const r of reported) {
    const same = (e) => e.lane === r.lane && (e.packet === r.packet || e.generation === r.generation);
    const accepted = ev('packet_accepted').some((e) => e.lane === r.lane && e.packet === r.packet);
    const rejected = ev('packet_rejected').some(same);
    const stopped = entries.some((e) => same(e) && /stopped|max_generations|escalation/.test(String(e.event)));
    if (!accepted && !rejected && !stopped) violations.push(`the handoff of ${r.lane} g${r.generation} (${r.packet}) ended neither accepted, rejected nor stopped`);
    if (typeof r.packet === 'string') {
      const path = isAbsolute(r.packet) ? r.packet : join(plan, r.packet);
      if (!existsSync(path)) violations.push(`packet ${r.packet} is gone`);
      else if ((statSync(path).mode & 0o777) !== 0o600) violations.push(`packet ${r.packet} is mode ${(statSync(path).mode & 0o777).toString(8)}`);
    }
  }
  const acceptances = ev('packet_accepted').map((e) => `${e.lane} ${e.packet}`);
  if (new Set(acceptances).size !== acceptances.length) violations.push(`a packet accepted twice: ${acceptances.join('; ')}`);

  // No lease without a live holder, once the run is over.
  const live = livePanes(socket) ?? [];
  for (const lease of readLeases(plan)) {
    const holder = live.find((p) => (p.lane === lease.lane || (lease.lane === 'lead' && p.lane.startsWith('lead'))) && p.generation === lease.generation);
    if (!holder) violations.push(`lease ${lease.file} (${lease.lane} g${lease.generation}) has no live holder`);
  }

  // The plan ends done.
  if (exit?.code !== 0) violations.push(`the last swarm up exited ${exit?.code ?? '?'}${exit?.signal ? ` (${exit.signal})` : ''}`);
  if (ev('plan_done').length === 0) violations.push('no plan_done in the journal');
  for (const lane of lanes) {
    const result = ev('lane_result').filter((e) => e.lane === lane).at(-1);
    if (result?.passed !== true) violations.push(`${lane} has no passing lane_result`);
  }
  return { violations, handoffs: reported.length };
}

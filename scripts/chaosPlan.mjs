/**
 * What one chaos run does, from its seed alone (scripts/chaos.mjs carries it out): the lanes and
 * their steps, which accounts are capped (so lanes hand off), which lanes crash or are killed, when
 * `swarm up` is killed, when the run's tmux server is killed, which plan file refuses writes for
 * how long, when the disk under `.swarm/` is full, and when a lane reports while no engine runs. Pure: the same seed gives the same run, so `npm run chaos -- --seed S` replays it.
 */

/** mulberry32: a small seeded generator, so a run replays from its seed. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), chance: (p) => next() < p };
}

/** What a write refusal makes immutable (chattr +i): the journal, the state file, or the .swarm/ folder. */
export const REFUSAL_TARGETS = ['journal', 'state', 'swarm-dir'];

/**
 * One run. The draws of the first faults come first and in their old order, so a seed replays the
 * lanes, crashes and swarm kills it did before tmux kills and refusals were added.
 * - swarmKills: ms after each `swarm up` starts, SIGKILL it (then `swarm up` again);
 * - tmuxKills: ms after the run starts, kill its tmux server (swarm stops short; `swarm up` again);
 * - refusals: ms after the run starts, make `target` immutable for `forMs`, then writable again;
 * - fullDisk: ms after the run starts, fill the tmpfs the plan's `.swarm/` lies on for `forMs`, then free it;
 * - downReport: ms after the run starts, kill -9 `swarm up`, let a lane report and exit while no engine
 *   runs, then `swarm up` again.
 */
export function planRun(seed) {
  const r = rng(seed);
  const lanes = ['lane-a', 'lane-b', 'lane-c'].slice(0, r.int(2, 3));
  const steps = Object.fromEntries(lanes.map((l) => [l, r.int(3, 6)]));
  const capped = lanes.filter(() => r.chance(0.5));
  const crashAt = Object.fromEntries(lanes.filter((l) => !capped.includes(l) && r.chance(0.35)).map((l) => [l, r.int(1, steps[l])]));
  const paneKills = lanes.filter((l) => !(l in crashAt) && r.chance(0.3)).map((l) => ({ lane: l, atMs: r.int(500, 3500) }));
  const swarmKills = Array.from({ length: r.int(0, 3) }, () => r.int(300, 4000));
  const tmuxKills = r.chance(0.4) ? Array.from({ length: r.chance(0.25) ? 2 : 1 }, () => r.int(800, 6000)).sort((a, b) => a - b) : [];
  const refusals = r.chance(0.45)
    ? [{ target: REFUSAL_TARGETS[r.int(0, REFUSAL_TARGETS.length - 1)], atMs: r.int(1000, 4000), forMs: r.int(800, 4000) }]
    : [];
  // Drawn last, so earlier seeds replay what they did before these faults were added.
  const fullDisk = r.chance(0.35) ? { atMs: r.int(1000, 4000), forMs: r.int(800, 3000) } : null;
  const downReport = r.chance(0.3) ? { atMs: r.int(1500, 5000) } : null;
  return { seed, lanes, steps, capped, crashAt, paneKills, swarmKills, tmuxKills, refusals, fullDisk, downReport };
}

const HERMETIC = { AGENTKIT_CAPACITY_LOW: '25', AGENTKIT_CAPACITY_CRITICAL: '10', AGENTKIT_CAPACITY_CAP: '', SIM_STEP_MS: '250' };

/** The run's swarm.yaml (JSON is YAML). */
export function swarmYaml(run) {
  const laneAccount = (lane) => `acct-${lane}`;
  const account = (id, vendor, env = {}) => ({ id, kind: 'sim', vendor, env: { ...HERMETIC, ...env } });
  const accounts = [
    account('acct-lead', 'anthropic-sim'),
    ...run.lanes.map((lane) => account(laneAccount(lane), 'anthropic-sim', {
      ...(run.capped.includes(lane) ? { AGENTKIT_CAPACITY_CAP: `@${laneAccount(lane)}=20` } : {}),
      ...(lane in run.crashAt ? { SIM_CRASH_AT: String(run.crashAt[lane]) } : {}),
    })),
    account('spare-o1', 'openai-sim'),
    account('spare-o2', 'openai-sim'),
    account('spare-o3', 'openai-sim'),
  ];
  const doc = {
    version: 1,
    name: 'chaos',
    plan: 'plans/chaos',
    backend: 'tmux',
    accounts,
    lead: { name: 'lead', account: 'acct-lead', succession: [] },
    lanes: run.lanes.map((lane) => ({ name: lane, checkout: `../wt-${lane}`, task: `${lane} steps of PLAN.md`, account: laneAccount(lane), done_when: `test "$(wc -l < out.txt)" -ge ${run.steps[lane] - 1}` })),
    max_lanes: 4,
    thresholds: { capacity_low: 25, capacity_critical: 10, max_generations: 6 },
    timeouts: { accept: '20s', packet: '10s', stall: '60s', ask: '20s', release: '3s' },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

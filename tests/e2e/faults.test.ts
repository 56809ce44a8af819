/**
 * Each fault knob of the simulated agent (src/sim/faults.ts) through the real engine on tmux, to the
 * outcome SPEC names (issue 4 part 4): a crash → a degraded successor (4.4); a permission screen →
 * blocked, one escalation, no key sent (4.4); a usage limit → a successor (4.4); a bad packet →
 * rejected, then a good one accepted (5.1); a lane that ignores "hand off now" → the packet deadline
 * passes and swarm writes a degraded packet (5). Knobs sit in lane-a's account environment, so only
 * generation 1 on that account has them.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePacket, type Packet } from '../../src/core/packet/packet.js';
import type { SimSwarmSpec } from '../../src/drill/repo.js';
import { makeSimSwarm, type SimSwarm } from '../helpers/simSwarm.js';

const SIM = `lane-a:
  - write: greeting.txt
    text: "hello from lane-a\\n"
  - run: cat greeting.txt
  - gate: grep -qx 'hello from lane-a' greeting.txt
lane-b:
  - write: b.txt
    text: "b\\n"
  - ask: lane-a
    text: what is your file called?
  - gate: test -s b.txt`;

const GATE_A = "grep -qx 'hello from lane-a' greeting.txt";

function spec(knobs: Record<string, string>, withLaneB = false): SimSwarmSpec {
  const account = (id: string, vendor: string, env: Record<string, string> = {}) => ({
    id, vendor, env: { AGENTKIT_CAPACITY_LOW: '25', AGENTKIT_CAPACITY_CRITICAL: '10', AGENTKIT_CAPACITY_CAP: '', SIM_STEP_MS: '300', SIM_ASK_MS: '1500', ...env },
  });
  return {
    name: 'faults',
    contract: 'faults-v1',
    prose: '# Faults\n\nOne knob of the simulated agent per run.',
    sim: SIM,
    accounts: [account('f-a1', 'anthropic-sim'), account('f-a2', 'anthropic-sim', knobs), account('f-o1', 'openai-sim'), account('f-o2', 'openai-sim'), account('f-o3', 'openai-sim')],
    lead: { account: 'f-a1', succession: ['lead-b'] },
    lanes: [
      { name: 'lane-a', task: 'lane-a steps', account: 'f-a2', doneWhen: GATE_A },
      ...(withLaneB ? [{ name: 'lane-b', task: 'lane-b steps', account: 'f-o1', doneWhen: 'test -s b.txt' }] : []),
    ],
    timeouts: { accept: '20s', packet: '3s', stall: '60s', ask: '20s', release: '2s' },
  };
}

let s: SimSwarm | null = null;
afterEach(() => {
  s?.cleanup();
  s = null;
});

function packetAt(path: unknown): Packet {
  const parsed = parsePacket(readFileSync(String(path), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  return parsed.packet;
}

/** lane-a g1's handoff, and g2 on another account accepting that packet and passing the gate. */
function expectSuccessor(sw: SimSwarm): Packet {
  const reported = sw.events('handoff_reported', 'lane-a').filter((e) => e.generation === 1);
  const accepted = sw.events('packet_accepted', 'lane-a');
  expect(accepted).toMatchObject([{ generation: 2, from_generation: 1, packet: reported.at(-1)!.packet }]);
  expect(accepted[0]!.account).not.toBe('f-a2');
  expect(sw.events('lane_result', 'lane-a').at(-1)).toMatchObject({ generation: 2, passed: true, gate: GATE_A });
  expect(sw.events('plan_done')).toHaveLength(1);
  return packetAt(reported.at(-1)!.packet);
}

describe('fault knobs through the engine', () => {
  it('SIM_CRASH_AT: the agent exits before reporting done → lane_lost, a degraded packet, a successor finishes', async () => {
    s = makeSimSwarm(spec({ SIM_CRASH_AT: '2' }));
    const run = await s.up();
    expect(run.code, run.stdout).toBe(0);
    expect(s.events('degraded_handoff', 'lane-a')).toMatchObject([{ generation: 1, reason: 'lane_lost' }]);
    const packet = expectSuccessor(s);
    expect(packet).toMatchObject({ reason: 'lane_lost', degraded: true, author: { lane: 'lane-a', account: 'f-a2', generation: 1 } });
  });

  it('SIM_PERMISSION_AT: blocked permission, one escalation, no key sent, the independent lane finishes', async () => {
    s = makeSimSwarm(spec({ SIM_PERMISSION_AT: '1' }, true));
    const run = await s.up();
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain('stopped short — lane-a blocked permission');
    expect(s.events('escalation', 'lane-a')).toMatchObject([{ class: 'permission' }]);
    expect(s.events('escalation')).toHaveLength(1);
    // lane-b's ask reached lane-a's mailbox while the screen showed; swarm typed nothing into the pane.
    expect(s.events('ask', 'lane-b')).toMatchObject([{ to: 'lane-a' }]);
    expect(s.events('lane_result', 'lane-b')).toMatchObject([{ passed: true }]);
    expect(s.runtimeFile('sim/keys-lane-a-g1.log')).toBe('# keys typed into lane-a g1 at the permission screen (none is expected)\n');
    expect(s.events('successor_spawned', 'lane-a')).toEqual([]);
    const status = JSON.parse((await s.swarm(['status', '--json'])).stdout) as { lanes: { name: string; state: string; blocked: unknown }[] };
    expect(status.lanes.find((l) => l.name === 'lane-a')).toMatchObject({ state: 'blocked', blocked: { class: 'permission' } });
  });

  it('SIM_USAGE_LIMIT_AT: a usage-limit screen is a hard limit → a degraded packet, a successor on another account', async () => {
    s = makeSimSwarm(spec({ SIM_USAGE_LIMIT_AT: '2' }));
    const run = await s.up();
    expect(run.code, run.stdout).toBe(0);
    const packet = expectSuccessor(s);
    expect(packet).toMatchObject({ reason: 'usage_limit', degraded: true });
    expect(s.events('escalation')).toEqual([]);
  });

  it('SIM_BAD_PACKET: a 0644 packet is rejected with the reason; the rewritten one is accepted', async () => {
    s = makeSimSwarm(spec({ SIM_BAD_PACKET: '1', AGENTKIT_CAPACITY_CAP: '@f-a2=8' }));
    const run = await s.up();
    expect(run.code, run.stdout).toBe(0);
    const rejected = s.events('packet_rejected', 'lane-a');
    expect(rejected).toHaveLength(1);
    expect(JSON.stringify(rejected[0])).toContain('0644');
    const packet = expectSuccessor(s);
    expect(s.events('packet_accepted', 'lane-a')[0]!.packet).not.toBe(rejected[0]!.packet);
    expect(packet).toMatchObject({ reason: 'capacity_critical', degraded: false });
  });

  it('SIM_IGNORE_HANDOFF: told to hand off at critical, the lane reports nothing → after timeouts.packet a degraded packet', async () => {
    s = makeSimSwarm(spec({ SIM_IGNORE_HANDOFF: '1', AGENTKIT_CAPACITY_CAP: '@f-a2=8' }));
    const run = await s.up();
    expect(run.code, run.stdout).toBe(0);
    expect(s.events('handoff_reported', 'lane-a').filter((e) => e.degraded !== true)).toEqual([]);
    const degraded = s.events('degraded_handoff', 'lane-a');
    expect(degraded).toMatchObject([{ generation: 1, reason: 'capacity_critical' }]);
    const packet = expectSuccessor(s);
    expect(packet).toMatchObject({ reason: 'capacity_critical', degraded: true });
  });
});

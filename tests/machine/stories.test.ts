/** Whole handoffs driven by hand through reduceLane, from the first notice to the closed pane. */
import { describe, expect, it } from 'vitest';
import { DECIDE_AND_RECORD } from '../../src/core/protocol/protocol.js';
import { handoffInFlight, MAX_GENERATIONS_HINT } from '../../src/machine/lane.js';
import {
  DEGRADED, MIN, PACKET, T0, degradedLane, drive, gateResult, journals, leased, only, picking, report, spawned, types, verdict, working,
} from './build.js';

describe('a planned handoff, report to accepted', () => {
  const story = drive(working(), [
    [verdict('handoff_soon'), T0 + MIN],
    [verdict('handoff_now'), T0 + 2 * MIN],
    [report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + 3 * MIN],
    [{ type: 'packet_checked', packet: PACKET, reasons: [] }, T0 + 4 * MIN],
    [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok 80%' }, T0 + 5 * MIN],
    [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 6 * MIN],
    [{ type: 'accepted', generation: 2, packet: PACKET }, T0 + 7 * MIN],
  ]);

  it('walks near → writing → reported → spawning → accepted', () => {
    expect(story.steps.map((s) => s.lane.phase)).toEqual(['near', 'writing', 'reported', 'spawning', 'spawning', 'spawning', 'accepted']);
  });

  it('emits each step\'s effects in order', () => {
    expect(story.steps.map((s) => types(s.effects))).toEqual([
      ['notify', 'journal'],
      ['notify', 'set_timer', 'journal'],
      ['set_timer', 'clear_timer', 'journal', 'validate_packet'],
      ['pick_account'],
      ['journal', 'spawn', 'set_timer'],
      ['journal'],
      ['clear_timer', 'record_acceptance', 'release_lease', 'close_pane', 'journal', 'journal', 'journal', 'set_timer'],
    ]);
    expect(journals(story.effects)).toEqual([
      'capacity_verdict', 'capacity_verdict', 'handoff_reported', 'lease_acquired', 'successor_spawned',
      'packet_accepted', 'lease_released', 'pane_closed',
    ]);
  });

  it('asks for an account other than the spent one, then spawns g2 with the packet and arms the accept deadline', () => {
    expect(only(story.effects, 'pick_account')).toEqual([
      { type: 'pick_account', id: 'lane-a/g2/pick/1', exclude: ['work2'], preferOtherThan: 'work2' },
    ]);
    expect(only(story.effects, 'spawn')).toEqual([
      { type: 'spawn', id: 'lane-a/g2/spawn/work3', generation: 2, account: 'work3', packet: PACKET },
    ]);
    expect(only(story.effects, 'set_timer').find((t) => t.timer === 'accept')?.at).toBe(T0 + 15 * MIN);
    expect(only(story.effects, 'set_timer').find((t) => t.timer === 'packet')?.at).toBe(T0 + 12 * MIN);
  });

  it('releases the spent lease, closes the spent pane, and the lane carries on as g2', () => {
    expect(only(story.effects, 'release_lease')).toEqual([{ type: 'release_lease', id: 'lane-a/g1/release/work2', account: 'work2' }]);
    expect(only(story.effects, 'close_pane')).toEqual([{ type: 'close_pane', id: 'lane-a/g1/close', paneId: '%1' }]);
    expect(story.lane).toMatchObject({
      generation: 2, account: 'work3', paneId: '%2', state: 'working', phase: 'accepted', capacity: null,
      capacityState: 'unknown', startedAt: T0 + 6 * MIN, lastActivity: T0 + 7 * MIN, nearGeneration: 1,
    });
    expect(story.lane.handoff).toMatchObject({ packet: PACKET, reason: 'capacity_critical', degraded: false, tried: [] });
  });

  it('tells the lane exactly what to do at near and at writing', () => {
    expect(only(story.effects, 'notify').map((n) => n.text)).toEqual([
      'swarm: you are running low (capacity low 20%, context 30%). Finish your current step, then hand off: write your packet with ' +
        '`swarm packet write` and report `handoff <packet path>`.',
      'swarm: hand off now. Write your packet with `swarm packet write --reason R --doing TEXT --next STEP` ' +
        '— with a `--deadend "what you tried: why it failed"` for each approach that did not work — and ' +
        'report `handoff <packet path>` within 10 min, or swarm writes a degraded packet for you.',
    ]);
  });

  it('counts the hand-off as in flight from reported until accepted', () => {
    expect(story.steps.map((s) => handoffInFlight(s.lane))).toEqual([false, false, true, true, true, true, false]);
  });
});

describe('a rejected packet', () => {
  const story = drive(working(), [
    [report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + MIN],
    [{ type: 'packet_checked', packet: PACKET, reasons: ['missing next', 'not mode 0600'] }, T0 + 2 * MIN],
    [report(`handoff ${PACKET}\ncapacity=critical 7% @work2`), T0 + 3 * MIN],
    [{ type: 'packet_checked', packet: PACKET, reasons: [] }, T0 + 4 * MIN],
  ]);

  it('is shown with its reasons and ends when the lane reports again', () => {
    expect(story.steps.map((s) => s.lane.phase)).toEqual(['reported', 'rejected', 'reported', 'spawning']);
    expect(story.steps[1]?.lane.handoff?.rejected).toEqual(['missing next', 'not mode 0600']);
    expect(journals(story.steps[1]?.effects ?? [])).toEqual(['packet_rejected']);
    expect(only(story.effects, 'notify')[0]?.text).toBe(
      `swarm: your packet ${PACKET} was rejected:\n- missing next\n- not mode 0600\n` +
        'Fix it and report `handoff <packet path>` again within 9 min, or swarm writes a degraded packet for you.',
    );
    expect(only(story.effects, 'validate_packet').map((v) => v.id)).toEqual([`lane-a/g1/validate/${T0 + MIN}`, `lane-a/g1/validate/${T0 + 3 * MIN}`]);
    expect(types(story.effects).filter((t) => t === 'spawn' || t === 'pick_account')).toEqual(['pick_account']);
  });
});

describe('a usage-limit screen', () => {
  const story = drive(degradedLane(), [
    [{ type: 'degraded_written', packet: DEGRADED }, T0 + 2 * MIN],
    [{ type: 'lease', account: 'work1', resetsAt: null, why: 'ok' }, T0 + 3 * MIN],
    [{ type: 'spawned', generation: 2, account: 'work1', paneId: '%5' }, T0 + 4 * MIN],
    [{ type: 'accepted', generation: 2, packet: DEGRADED }, T0 + 5 * MIN],
  ]);

  it('marks the account limited, writes a degraded packet, then goes on as if it were reported valid', () => {
    const first = degradedLane();
    expect(first).toMatchObject({ phase: 'degraded', handoff: { packet: null, reason: 'usage_limit', degraded: true, accountLimited: true } });
    expect(story.steps.map((s) => s.lane.phase)).toEqual(['spawning', 'spawning', 'spawning', 'accepted']);
    expect(types(story.steps[0]?.effects ?? [])).toEqual(['journal', 'pick_account']);
    expect(story.lane).toMatchObject({ generation: 2, account: 'work1', paneId: '%5', phase: 'accepted' });
  });
});

describe('the lead', () => {
  it('hands over with reason lead_handover and journals lead_accepted with the new generation', () => {
    const story = drive(working('lead'), [
      [verdict('handoff_now'), T0 + MIN],
      [report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + 2 * MIN],
      [{ type: 'packet_checked', packet: PACKET, reasons: [] }, T0 + 3 * MIN],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 4 * MIN],
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 5 * MIN],
      [{ type: 'accepted', generation: 2, packet: PACKET }, T0 + 6 * MIN],
    ]);
    expect(story.lane.handoff?.reason).toBe('lead_handover');
    const last = only(story.steps.at(-1)?.effects ?? [], 'journal').at(-1);
    expect(last).toMatchObject({ event: 'lead_accepted', data: { generation: 2, packet: PACKET, takeover: false } });
  });

  it.each([
    ['its pane dies', { type: 'exited', paneId: '%1', status: 1 } as const, 'lane_lost'],
    ['it shows a usage screen', { type: 'screen', screen: 'usage_limit' } as const, 'usage_limit'],
  ])('is taken over when %s: reason %s, journal lead_takeover once, no degraded_handoff', (_why, event, reason) => {
    const story = drive(working('lead'), [
      [event, T0 + MIN],
      [{ type: 'degraded_written', packet: DEGRADED }, T0 + 2 * MIN],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 3 * MIN],
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 4 * MIN],
      [{ type: 'accepted', generation: 2, packet: DEGRADED }, T0 + 5 * MIN],
    ]);
    expect(only(story.effects, 'write_degraded')).toEqual([
      { type: 'write_degraded', id: `lead/g1/degraded/${T0 + MIN}`, reason, generation: 1 },
    ]);
    expect(journals(story.effects).filter((j) => j.startsWith('lead_') || j === 'degraded_handoff')).toEqual(['lead_takeover', 'lead_accepted']);
    expect(only(story.effects, 'journal').at(-1)).toMatchObject({ event: 'lead_accepted', data: { generation: 2, takeover: true } });
  });
});

describe('waiting for a reset', () => {
  it('retries at the earliest reset, then spawns when an account is free', () => {
    const reset = new Date(T0 + 40 * MIN).toISOString();
    const story = drive(picking(), [
      [{ type: 'lease', account: null, resetsAt: reset, why: 'every account is critical' }, T0 + 5 * MIN],
      [{ type: 'timer', timer: 'reset' }, T0 + 40 * MIN],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'reset' }, T0 + 41 * MIN],
    ]);
    expect(story.steps.map((s) => s.lane.phase)).toEqual(['waiting', 'spawning', 'spawning']);
    expect(only(story.effects, 'set_timer')[0]).toMatchObject({ timer: 'reset', at: T0 + 40 * MIN });
    expect(journals(story.steps[0]?.effects ?? [])).toEqual(['waiting_for_reset']);
    expect(only(story.effects, 'pick_account').map((p) => p.id)).toEqual(['lane-a/g2/pick/2']);
    expect(types(story.steps[2]?.effects ?? [])).toEqual(['journal', 'spawn', 'set_timer']);
  });

  it.each([
    ['no reset known', null, T0 + 20 * MIN],
    ['a reset in the past', new Date(T0).toISOString(), T0 + 20 * MIN],
    ['an unreadable reset', 'soon', T0 + 20 * MIN],
  ])('with %s retries after 15 minutes', (_why, resetsAt, at) => {
    const step = drive(picking(), [[{ type: 'lease', account: null, resetsAt, why: 'none' }, T0 + 5 * MIN]]);
    expect(step.lane.handoff?.retryAt).toBe(at);
    expect(only(step.effects, 'set_timer')).toEqual([{ type: 'set_timer', id: `lane-a/g1/timer/reset/${at}`, timer: 'reset', at }]);
  });
});

describe('successors that do not accept', () => {
  const story = drive(spawned(), [
    [{ type: 'timer', timer: 'accept' }, T0 + 15 * MIN],
    [{ type: 'lease', account: 'work4', resetsAt: null, why: 'ok' }, T0 + 15 * MIN],
    [{ type: 'spawn_failed', generation: 2, account: 'work4', error: 'tmux: no space for new pane' }, T0 + 16 * MIN],
    [{ type: 'lease', account: null, resetsAt: null, why: 'no account left' }, T0 + 16 * MIN],
  ]);

  it('kill the pane, release its lease, try the next account excluding all tried, then hold the lane in attention', () => {
    expect(story.steps.map((s) => s.lane.phase)).toEqual(['spawning', 'spawning', 'spawning', 'attention']);
    expect(types(story.steps[0]?.effects ?? [])).toEqual(['clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account']);
    expect(only(story.effects, 'kill_pane')).toEqual([{ type: 'kill_pane', id: 'lane-a/g2/kill/work3', paneId: '%2' }]);
    expect(only(story.effects, 'release_lease').map((r) => r.account)).toEqual(['work3', 'work4']);
    expect(only(story.effects, 'pick_account').map((p) => p.exclude)).toEqual([['work2', 'work3'], ['work2', 'work3', 'work4']]);
    expect(story.lane).toMatchObject({
      state: 'blocked',
      blocked: { class: 'dependency', source: 'engine', what: `no successor accepted ${PACKET} on work3, work4, and no other account is free (no account left)\n` +
        '- work3: no acceptance within 10 min\n- work4: spawn failed: tmux: no space for new pane' },
    });
    expect(only(story.effects, 'escalate')).toHaveLength(1);
  });
});

describe('max_generations', () => {
  it('stops a lane that hands off from its last generation, with the hint', () => {
    const step = drive(working(), [[report(`handoff ${PACKET}\ncapacity=critical 8% @work2`), T0 + MIN]], { maxGenerations: 1 });
    expect(step.lane).toMatchObject({ state: 'stopped', phase: 'stopped', endedAt: T0 + MIN });
    expect(journals(step.effects)).toEqual(['max_generations', 'escalation']);
    expect(only(step.effects, 'escalate')).toEqual([{
      type: 'escalate', id: `lane-a/g1/escalate/decision/${T0 + MIN}`, class: 'decision',
      what: `lane-a handed off from generation 1, its max_generations (1): there is no further generation; ${MAX_GENERATIONS_HINT}`,
    }]);
    expect(MAX_GENERATIONS_HINT).toBe('the window or thresholds are probably set too low');
    expect(types(step.effects)).not.toContain('validate_packet');
  });

  it('stops a degraded handoff from the last generation too', () => {
    const step = drive(working(), [[{ type: 'exited', paneId: '%1', status: 0 }, T0 + MIN]], { maxGenerations: 1 });
    expect(step.lane.phase).toBe('stopped');
    expect(types(step.effects)).not.toContain('write_degraded');
  });
});

describe('done', () => {
  it('without a gate: done, lane_result, the lead told', () => {
    const step = drive(working(), [[report('done\ncapacity=ok 70% @work2'), T0 + MIN]]);
    expect(step.lane.state).toBe('done');
    expect(journals(step.effects)).toEqual(['lane_result']);
    expect(only(step.effects, 'tell_lead').map((t) => t.text)).toEqual(['lane-a done']);
  });

  it('with a gate that fails then passes', () => {
    const over = { doneWhen: 'npm test' };
    const story = drive(working(), [
      [report('done\ncapacity=ok 70% @work2'), T0 + MIN],
      [gateResult(false, '1 failing\n', `lane-a/g1/gate/${T0 + MIN}`), T0 + 2 * MIN],
      [report('done\ncapacity=ok 60% @work2'), T0 + 3 * MIN],
      [gateResult(true, 'ok', `lane-a/g1/gate/${T0 + 3 * MIN}`), T0 + 4 * MIN],
    ], over);
    expect(story.steps.map((s) => [s.lane.state, s.lane.gate !== null])).toEqual([
      ['working', true], ['working', false], ['working', true], ['done', false],
    ]);
    expect(only(story.effects, 'run_gate').map((g) => g.command)).toEqual(['npm test', 'npm test']);
    expect(only(story.effects, 'notify').map((n) => n.text)).toEqual([
      'swarm: your `done` gate `npm test` failed, so the lane is still working. Its output (last part):\n1 failing',
    ]);
    expect(only(story.effects, 'tell_lead').map((t) => t.text)).toEqual(['lane-a done (gate passed: npm test)']);
  });
});

describe('stall', () => {
  it('nudges once, then blocks stalled with one escalation; output unblocks', () => {
    const story = drive(working(), [
      [{ type: 'timer', timer: 'stall' }, T0 + 30_000 + 30 * MIN],
      [{ type: 'timer', timer: 'stall' }, T0 + 30_000 + 60 * MIN],
      [{ type: 'timer', timer: 'stall' }, T0 + 30_000 + 90 * MIN],
      [{ type: 'output' }, T0 + 100 * MIN],
    ]);
    expect(story.steps.map((s) => s.lane.state)).toEqual(['working', 'blocked', 'blocked', 'working']);
    expect(only(story.effects, 'notify').map((n) => n.text)).toEqual([
      'swarm: no output and no report for 30 min. If you are stuck, report `blocked <class> <what you need>`; ' +
        'otherwise carry on and report at your next work boundary.',
    ]);
    expect(only(story.effects, 'escalate')).toEqual([{
      type: 'escalate', id: `lane-a/g1/escalate/stalled/${T0 + 30_000 + 60 * MIN}`, class: 'stalled',
      what: 'no output and no report for 60 min, and none after a nudge',
    }]);
    expect(story.lane).toMatchObject({ blocked: null, stallNudged: false, lastActivity: T0 + 100 * MIN });
  });
});

describe('reports from the lane', () => {
  it('a blocked report with a known class escalates once; one with no known class gets DECIDE_AND_RECORD', () => {
    const story = drive(working(), [
      [report('blocked login need a fresh token\ncapacity=ok 70% @work2'), T0 + MIN],
      [report('blocked login need a fresh token\ncapacity=ok 70% @work2'), T0 + 2 * MIN],
      [report('blocked stuck on the api design\ncapacity=ok 70% @work2'), T0 + 3 * MIN],
    ]);
    expect(story.steps.map((s) => s.lane.state)).toEqual(['blocked', 'blocked', 'blocked']);
    expect(only(story.effects, 'escalate')).toEqual([
      { type: 'escalate', id: `lane-a/g1/escalate/login/${T0 + MIN}`, class: 'login', what: 'need a fresh token' },
    ]);
    expect(only(story.effects, 'notify')).toEqual([{ type: 'notify', id: `lane-a/g1/decide/${T0 + 3 * MIN}`, text: DECIDE_AND_RECORD }]);
  });

  it('a later ordinary report unblocks a lane that was blocked by its own report', () => {
    const story = drive(working(), [
      [report('blocked decision which db\ncapacity=ok 70% @work2'), T0 + MIN],
      [report('PR open https://example.test/pr/1\ncapacity=ok 60% @work2'), T0 + 2 * MIN],
    ]);
    expect(story.lane).toMatchObject({ state: 'working', blocked: null, last: 'PR open https://example.test/pr/1', capacity: 'capacity=ok 60% @work2' });
  });
});

describe('a crash loop', () => {
  it('degrades the first quick exit, and blocks dependency on the second in a row with the pane\'s last lines', () => {
    const story = drive(working(), [
      [{ type: 'exited', paneId: '%1', status: 1 }, T0 + 5_000],
      [{ type: 'degraded_written', packet: DEGRADED }, T0 + 6_000],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 7_000],
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 8_000],
      [{ type: 'exited', paneId: '%2', status: 127, tail: 'claude: command not found' }, T0 + 10_000],
    ]);
    expect(story.steps.map((s) => [s.lane.state, s.lane.phase, s.lane.quickExits])).toEqual([
      ['lost', 'degraded', 1], ['lost', 'spawning', 1], ['lost', 'spawning', 1], ['lost', 'spawning', 1], ['blocked', 'attention', 2],
    ]);
    expect(story.lane.blocked).toEqual({
      class: 'dependency', source: 'engine',
      what: 'the agent exited within 15 s of its start for the second time in a row (exit status 127): fix the command or ' +
        "the account's setup, then run swarm up again\nlast lines of the pane:\nclaude: command not found",
    });
    expect(types(story.steps[4]?.effects ?? [])).toEqual(['journal', 'clear_timer', 'kill_pane', 'release_lease', 'journal', 'clear_timer', 'clear_timer', 'journal', 'escalate']);
    expect(only(story.effects, 'spawn')).toHaveLength(1);
  });

  it('an accepted successor that exits right after its start is the second quick exit: no third agent', () => {
    const story = drive(working(), [
      [{ type: 'exited', paneId: '%1', status: 1 }, T0 + 5_000],
      [{ type: 'degraded_written', packet: DEGRADED }, T0 + 6_000],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 7_000],
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 8_000],
      [{ type: 'accepted', generation: 2, packet: DEGRADED }, T0 + 9_000],
      [{ type: 'exited', paneId: '%2', status: 1 }, T0 + 20_000],
    ]);
    expect(story.lane).toMatchObject({ generation: 2, state: 'blocked', phase: 'accepted', quickExits: 2, blocked: { class: 'dependency' } });
    expect(types(story.steps[5]?.effects ?? [])).toEqual(['journal', 'clear_timer', 'clear_timer', 'journal', 'escalate']);
  });

  it.each([[9, 'SIGKILL'], [15, 'SIGTERM'], [1, 'SIGHUP']])('agents killed from outside (signal %i, %s) twice within 15 s are no crash loop: each gets a successor', (signal) => {
    const story = drive(working(), [
      [{ type: 'exited', paneId: '%1', status: null, signal }, T0 + 5_000],
      [{ type: 'degraded_written', packet: DEGRADED }, T0 + 6_000],
      [{ type: 'lease', account: 'work3', resetsAt: null, why: 'ok' }, T0 + 7_000],
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 8_000],
      [{ type: 'accepted', generation: 2, packet: DEGRADED }, T0 + 9_000],
      [{ type: 'exited', paneId: '%2', status: null, signal }, T0 + 12_000],
    ]);
    expect(story.lane).toMatchObject({ generation: 2, state: 'lost', phase: 'degraded', quickExits: 0, blocked: null });
    expect(story.effects.filter((e) => e.type === 'journal' && e.event === 'agent_exited')).toMatchObject([
      { data: { status: null, signal } }, { data: { status: null, signal } },
    ]);
  });

  it('a successor killed from outside before it accepts is replaced, not counted; one that crashes by itself (SIGSEGV) is', () => {
    const killed = drive(leased(), [
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 6 * MIN],
      [{ type: 'exited', paneId: '%2', status: null, signal: 9 }, T0 + 6 * MIN + 2_000],
    ]);
    expect(killed.lane).toMatchObject({ phase: 'spawning', quickExits: 0 });
    const crashed = drive(leased(), [
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 6 * MIN],
      [{ type: 'exited', paneId: '%2', status: null, signal: 11 }, T0 + 6 * MIN + 2_000],
    ]);
    expect(crashed.lane).toMatchObject({ phase: 'spawning', quickExits: 1 });
  });

  it('a slow exit breaks the run: the next quick exit is the first again', () => {
    const story = drive(working(), [[{ type: 'exited', paneId: '%1', status: 0 }, T0 + 20_000]]);
    expect(story.lane).toMatchObject({ state: 'lost', phase: 'degraded', quickExits: 0 });
  });

  it('a successor that exits slowly before accepting is replaced on the next account', () => {
    const step = drive(leased(), [
      [{ type: 'spawned', generation: 2, account: 'work3', paneId: '%2' }, T0 + 6 * MIN],
      [{ type: 'exited', paneId: '%2', status: 1 }, T0 + 8 * MIN],
    ]);
    expect(step.lane).toMatchObject({ phase: 'spawning', quickExits: 0, handoff: { tried: ['work3'], successor: null } });
    expect(types(step.steps[1]?.effects ?? [])).toEqual(['journal', 'clear_timer', 'kill_pane', 'release_lease', 'journal', 'pick_account']);
  });
});

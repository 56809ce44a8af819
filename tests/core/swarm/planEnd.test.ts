import { describe, expect, it } from 'vitest';
import { ALL_DONE_TEXT, reducePlanEnd, type PlanEnd, type PlanEndEffect, type PlanEndEvent } from '../../../src/core/swarm/planEnd.js';
import type { Progress } from '../../../src/core/swarm/progress.js';

const NOW = 1_700_000_000_000;
const RELEASE = 600_000;
const ctx = { now: NOW, releaseMs: RELEASE };

const fresh: PlanEnd = { allDoneTold: false, releaseAt: null, planDone: false };
const told: PlanEnd = { allDoneTold: true, releaseAt: NOW + 5000, planDone: false };
const toldOld: PlanEnd = { allDoneTold: true, releaseAt: null, planDone: false }; // a state saved before releaseAt existed
const ended: PlanEnd = { allDoneTold: true, releaseAt: null, planDone: true };

const allDone: Progress = { kind: 'all_done' };
const running: Progress = { kind: 'running' };
const stuck: Progress = { kind: 'stuck', why: 'lane-a blocked decision: may I push?' };

const settled = (progress: Progress, released = false, untilDone = false): PlanEndEvent => ({ type: 'settled', progress, released, untilDone });
const tellAndArm = (at: number): PlanEndEffect[] => [
  { type: 'tell_lead', text: ALL_DONE_TEXT },
  { type: 'journal', kind: 'observation', event: 'all_lanes_done', data: {} },
  { type: 'arm_release', at },
];
const releaseBy = (why: string): PlanEndEffect => ({ type: 'release_plan', why });
const planDone: PlanEndEffect[] = [
  { type: 'disarm_release' },
  { type: 'journal', kind: 'delegation', event: 'plan_done', data: {} },
  { type: 'finish', code: 0, why: 'plan done' },
];

describe('reducePlanEnd', () => {
  it.each<[string, PlanEnd, PlanEndEvent, PlanEnd, PlanEndEffect[]]>([
    // settled
    ['settled, running: nothing', fresh, settled(running), fresh, []],
    ['settled, running under --until-done: nothing', fresh, settled(running, false, true), fresh, []],
    ['settled, all done for the first time: tell the lead once, the deadline starts', fresh, settled(allDone),
      { allDoneTold: true, releaseAt: NOW + RELEASE, planDone: false }, tellAndArm(NOW + RELEASE)],
    ['settled, all done and the lead released already: told, then released', fresh, settled(allDone, true),
      { allDoneTold: true, releaseAt: NOW + RELEASE, planDone: false }, [...tellAndArm(NOW + RELEASE), releaseBy('the lead released the plan')]],
    ['settled, all done, told before: nothing again', told, settled(allDone), told, []],
    ['settled, stuck without --until-done: nothing (the swarm waits for a human)', fresh, settled(stuck), fresh, []],
    ['settled, stuck under --until-done: stopped short, exit 1', fresh, settled(stuck, false, true), fresh, [
      { type: 'journal', kind: 'observation', event: 'stopped_short', data: { why: stuck.why } },
      { type: 'finish', code: 1, why: stuck.why },
    ]],
    ['settled, the plan done: nothing', ended, settled(allDone, true), ended, []],
    // the lead releases
    ['the lead releases with every lane done', told, { type: 'lead_released', progress: allDone }, told, [releaseBy('the lead released the plan')]],
    ['the lead releases with lanes still running: nothing', fresh, { type: 'lead_released', progress: running }, fresh, []],
    ['the lead releases after the plan is done: nothing', ended, { type: 'lead_released', progress: allDone }, ended, []],
    // the deadline
    ['release deadline passes, every lane done: swarm releases', told, { type: 'release_due', progress: allDone }, told, [releaseBy('timeouts.release passed')]],
    ['release deadline passes after a lane was added (running): the deadline is void', told, { type: 'release_due', progress: running },
      { ...told, releaseAt: null }, []],
    ['release deadline passes before the lead was told (not told): void', { ...fresh, releaseAt: NOW }, { type: 'release_due', progress: allDone }, fresh, []],
    // lane add
    ['a lane added after all done: told again later, the deadline stops', told, { type: 'lane_added' }, fresh, [{ type: 'disarm_release' }]],
    ['a lane added while running', fresh, { type: 'lane_added' }, fresh, [{ type: 'disarm_release' }]],
    // a new lead takes office
    ['a new lead after every lane is done: told again, its own deadline', told, { type: 'lead_changed' },
      { ...told, releaseAt: NOW + RELEASE }, [{ type: 'tell_lead', text: ALL_DONE_TEXT }, { type: 'arm_release', at: NOW + RELEASE }]],
    ['a new lead while lanes run: nothing (it will be told when they are done)', fresh, { type: 'lead_changed' }, fresh, []],
    ['a new lead after the plan is done: nothing', ended, { type: 'lead_changed' }, ended, []],
    // the record released
    ['the lead record released: plan done, exit 0', told, { type: 'record_released' }, ended, planDone],
    ['the lead record released twice: once only', ended, { type: 'record_released' }, ended, []],
    // restart
    ['resume, running: nothing', fresh, { type: 'resume', progress: running, released: false }, fresh, []],
    ['resume, all done but not told yet: the next settle tells', fresh, { type: 'resume', progress: allDone, released: false }, fresh, []],
    ['resume, told: the saved deadline is armed again', told, { type: 'resume', progress: allDone, released: false }, told, [{ type: 'arm_release', at: NOW + 5000 }]],
    ['resume, told, the deadline passed while down: armed in the past (fires at once)', { ...told, releaseAt: NOW - 1 },
      { type: 'resume', progress: allDone, released: false }, { ...told, releaseAt: NOW - 1 }, [{ type: 'arm_release', at: NOW - 1 }]],
    ['resume, told in an older state file (no deadline saved): it starts now', toldOld, { type: 'resume', progress: allDone, released: false },
      { ...toldOld, releaseAt: NOW + RELEASE }, [{ type: 'arm_release', at: NOW + RELEASE }]],
    ['resume, told, the lead released while swarm was down', told, { type: 'resume', progress: allDone, released: true }, told, [releaseBy('the lead released the plan')]],
    ['resume, the plan done: nothing', ended, { type: 'resume', progress: allDone, released: true }, ended, []],
  ])('%s', (_name, state, event, next, effects) => {
    const step = reducePlanEnd(state, event, ctx);
    expect(step.state).toEqual(next);
    expect(step.effects).toEqual(effects);
  });

  it('never mutates the state it is given', () => {
    const state = Object.freeze({ ...told });
    expect(() => reducePlanEnd(state, { type: 'lane_added' }, ctx)).not.toThrow();
    expect(state).toEqual(told);
  });
});

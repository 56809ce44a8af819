/**
 * Security (issue 12 §4): a lane's task (swarm.yaml, or `swarm lane add --task` from the lead agent)
 * and a predecessor's packet reach the successor's prompt and brief files as text: no terminal
 * escape or control byte survives; shell and tmux syntax stays as written (it is never run).
 */
import { describe, expect, it } from 'vitest';
import { promptText, protocolBrief, type AgentIntro } from '../../src/core/launch/agentPrompt.js';

const INTRO: AgentIntro = {
  swarm: 'sec', name: 'lane-a', role: 'lane', generation: 2, account: 'a2', checkout: '/w/lane-a', planFile: '/w/plans/p/PLAN.md',
  task: '', packet: '/w/plans/p/analysis_results/handoff/lane-a-g1.json', resumeBrief: null, promptFile: '/w/plans/p/.swarm/prompts/lane-a-g2.md',
};
// eslint-disable-next-line no-control-regex -- the point: no control byte but \n
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe.each<[string, string, string]>([
  ['OSC 52 clipboard', 'fix \u001b]52;c;ZXZpbA==\u0007it', 'fix it'],
  ['OSC 0 title', 'a\u001b]0;evil title\u0007b', 'ab'],
  ['clear screen', 'x\u001b[2J\u001b[3Jy', 'xy'],
  ['colour and C1', '\u001b[1;31mred\u001b[0m\u009b2J', 'red'],
  ['shell and tmux syntax', '$(touch x) `id`; rm -rf ~ #{pane_id} #(touch y)', '$(touch x) `id`; rm -rf ~ #{pane_id} #(touch y)'],
])('%s', (_name, hostile, kept) => {
  it('in the task: the prompt holds it as text (and the brief, in the swarm name)', () => {
    expect(promptText({ ...INTRO, task: `task ${hostile}` })).not.toMatch(CONTROL);
    expect(protocolBrief({ ...INTRO, swarm: `sec ${hostile}` })).not.toMatch(CONTROL);
    expect(promptText({ ...INTRO, task: `task ${hostile}` })).toContain(`task ${kept}`);
  });

  it("in the predecessor's packet (its resume brief): the prompt holds it as indented data", () => {
    const text = promptText({ ...INTRO, resumeBrief: `doing: ${hostile}\nnext: 1. go on` });
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain(`    doing: ${kept}`);
  });
});

import { describe, expect, it } from 'vitest';
import { agentFiles, firstLine, promptText, protocolBrief, type AgentIntro } from '../../../src/core/launch/agentPrompt.js';

const INTRO: AgentIntro = {
  swarm: 'shop', name: 'lane-a', role: 'lane', generation: 1, account: 'c1', checkout: '/w/wt a', planFile: '/w/plans/p/PLAN.md',
  task: 'Steps 1-3', promptFile: '/w/plans/p/.swarm/prompts/lane-a-g1.md', packet: null, resumeBrief: null,
};
const successor = (resumeBrief: string | null): AgentIntro => ({ ...INTRO, generation: 2, packet: '/w/h/lane-a-g1.json', resumeBrief });

describe('agentFiles', () => {
  it('names the generation\'s three files in its run\'s folder of the prompts folder', () => {
    expect(agentFiles('/w/plans/p', 2, 'lane-a', 3)).toEqual({
      prompt: '/w/plans/p/.swarm/prompts/run-2/lane-a-g3.md',
      brief: '/w/plans/p/.swarm/prompts/run-2/lane-a-g3.brief.md',
      session: '/w/plans/p/.swarm/prompts/run-2/lane-a-g3.session.json',
    });
  });
});

describe('protocolBrief: swarm\'s words only', () => {
  it.each([['lane'], ['lead']] as const)('%s', (role) => {
    const text = protocolBrief({ ...INTRO, role });
    expect(text).toContain(role === 'lead' ? 'swarm lead release' : 'swarm notify lead');
    expect(text).not.toContain('Steps 1-3');
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('promptText', () => {
  it('a first generation: the task and the protocol, no successor part', () => {
    const text = promptText(INTRO);
    expect(text).toContain('## Task\nSteps 1-3\n');
    expect(text).toContain('## How to work\n');
    expect(text).not.toContain('successor\n');
  });

  it('an empty task says so', () => {
    expect(promptText({ ...INTRO, task: '' })).toContain('## Task\n(none given)\n');
  });

  it.each([
    ['multi-line', '# Resume brief\n\n## Doing\n  step 2\n', ['    # Resume brief', '', '    ## Doing', '      step 2']],
    ['CRLF', '# Resume brief\r\n## Next\r\n1. go\r\n', ['    # Resume brief', '    ## Next', '    1. go']],
    ['trailing blank lines and spaces', '# R\n\n\n', ['    # R']],
  ])('a successor\'s packet, %s, is indented under its predecessor\'s heading', (_name, brief, lines) => {
    const text = promptText(successor(brief));
    const body = text.slice(text.indexOf("## Your predecessor's packet"));
    expect(body).toContain(`\n\n${lines.join('\n')}\n\n(end of the predecessor's packet)\n`);
    expect(body.split('\n').filter((l) => l.startsWith('#'))).toHaveLength(1);
  });

  it('a successor without a readable brief is still told to accept', () => {
    const text = promptText(successor(null));
    expect(text).toContain('## You are a successor\nYour first act: `swarm accept "$SWARM_PACKET"`');
    expect(text).not.toContain("predecessor's packet");
  });
});

describe('firstLine: never empty, one line', () => {
  it.each([
    ['first generation', INTRO, 'You are lane-a in swarm shop. Read your prompt file /w/plans/p/.swarm/prompts/lane-a-g1.md ($SWARM_PROMPT_FILE) and follow it.'],
    ['successor', successor('x'), 'You are lane-a g2, a successor in swarm shop. Read your prompt file /w/plans/p/.swarm/prompts/lane-a-g1.md ($SWARM_PROMPT_FILE), then run: swarm accept "$SWARM_PACKET".'],
    ['a path with a newline', { ...INTRO, promptFile: '/w/a\nb.md' }, 'You are lane-a in swarm shop. Read your prompt file /w/a b.md ($SWARM_PROMPT_FILE) and follow it.'],
  ])('%s', (_name, intro, line) => {
    expect(firstLine(intro)).toBe(line);
  });
});

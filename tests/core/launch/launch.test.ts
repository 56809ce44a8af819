import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { CommandSpec } from '../../../src/core/config/config.js';
import { parseKind, type KindSpec } from '../../../src/core/config/kindFile.js';
import { launchArgv, MAX_ARG_BYTES, promptDelivery, type LaunchInput } from '../../../src/core/launch/launch.js';

function kindOf(text: string): KindSpec {
  const result = parseKind(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.kind;
}
const shipped = (name: string): KindSpec => kindOf(readFileSync(new URL(`../../../panes/${name}.yaml`, import.meta.url), 'utf8'));

const PROMPT = 'Lane a, generation 1.\nSteps 1-3 of PLAN.md. Say "done" when\tthe gate passes; $HOME `x` stays as is.';
const INPUT: LaunchInput = {
  command: null,
  promptFile: '/work/shop/plans/demo/.swarm/prompts/lane-a-g1.md',
  prompt: PROMPT,
  brief: 'Read /work/shop/plans/demo/.swarm/prompts/lane-a-g1.md and follow it.',
  swarmBin: '/opt/swarm/bin/swarm',
  nodeBin: '/usr/local/bin/node',
  sessionId: '0b7c3c9e-4a55-4c52-9a1e-2f1d7e0c5a11',
  settings: '{"statusLine":{"type":"command","command":"/opt/swarm/bin/swarm statusline"}}',
  systemPromptFile: '/work/shop/plans/demo/.swarm/prompts/lane-a-g1.brief.md',
  approvals: { argv: [], promptAfterDashDash: false },
  notify: '["/opt/swarm/bin/swarm","hook","codex-notify"]',
};
const input = (over: Partial<LaunchInput>): LaunchInput => ({ ...INPUT, ...over });

/** The error a call throws (fails when it throws none). */
function thrown(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('launchArgv: the shipped kinds', () => {
  it.each([
    ['claude', ['claude', '--session-id', INPUT.sessionId, '--settings', INPUT.settings, '--append-system-prompt-file', INPUT.systemPromptFile, '--', INPUT.brief]],
    ['codex', ['codex', '--no-daemon', '-c', 'notice.hide_rate_limit_model_nudge=true', '-c', 'allow_login_shell=false', '-c', `notify=${INPUT.notify}`, INPUT.brief]],
    ['gemini', ['gemini', '-i', INPUT.brief]],
    ['sim', ['/opt/swarm/bin/swarm', 'sim']],
  ])('%s', (name, argv) => {
    expect(launchArgv(shipped(name), INPUT)).toEqual(argv);
  });
});

describe('launchArgv: a command that replaces the launch', () => {
  it.each([
    ['a string runs through sh -c', 'claude', './agent.sh --fast "{prompt}"', ['sh', '-c', './agent.sh --fast "{prompt}"']],
    ['a string with a leading space is kept as written', 'codex', '  npm run agent', ['sh', '-c', '  npm run agent']],
    ['a multi-line string', 'command', 'cd sub\n./agent.sh', ['sh', '-c', 'cd sub\n./agent.sh']],
    ['a list is the argv, placeholders untouched', 'command', ['./agent.sh', '{prompt_file}'], ['./agent.sh', '{prompt_file}']],
    ['on the sim kind', 'sim', ['node', 'fake-agent.mjs'], ['node', 'fake-agent.mjs']],
  ])('%s (%s kind)', (_name, kindName, command, argv) => {
    expect(launchArgv(shipped(kindName), input({ command }))).toEqual(argv);
  });

  it('returns a copy, never the config list', () => {
    const command = ['./agent.sh'];
    const argv = launchArgv(shipped('command'), input({ command }));
    argv.push('changed');
    expect(command).toEqual(['./agent.sh']);
  });

  it.each([
    ['null', null, 'the lane'],
    ['an empty string', '', 'the lane'],
    ['whitespace only', ' \t\n', 'the lane'],
    ['an empty list', [], 'the lane'],
  ])('the command kind with %s throws UsageError saying the lane needs command:', (_name, command: CommandSpec, who) => {
    const error = thrown(() => launchArgv(shipped('command'), input({ command })));
    expect(error.message).toBe(`${who} needs a command: kind "command" has no launch of its own (launch: null in panes/command.yaml)`);
    expect(error.hint).toBe('give the lane a command in swarm.yaml, e.g. command: "./agent.sh" (a string runs by sh -c, a list is argv)');
    expect(error.exitCode).toBe(2);
  });

  it('names the lane when told who it is', () => {
    expect(thrown(() => launchArgv(shipped('command'), input({ who: 'lane-b' }))).message)
      .toBe('"lane-b" needs a command: kind "command" has no launch of its own (launch: null in panes/command.yaml)');
  });
});

describe('launchArgv: expansion', () => {
  const template = (command: string): KindSpec => kindOf(`kind: t\nlaunch:\n  command: ${command}\n  prompt: argument\n`);

  it.each([
    ['inside a longer argument', '[x, "--file={prompt_file}"]', ['x', `--file=${INPUT.promptFile}`]],
    ['twice in one argument', '[x, "{node}:{node}", "{brief}"]', ['x', '/usr/local/bin/node:/usr/local/bin/node', INPUT.brief]],
    ['every placeholder', '["{node}", "{swarm_bin}", "{prompt_file}", "{prompt}", "{brief}"]', [INPUT.nodeBin, INPUT.swarmBin, INPUT.promptFile, PROMPT, INPUT.brief]],
    ['braces that are no placeholder stay', '[x, "--settings={\\"a\\":{}}", "{brief}"]', ['x', '--settings={"a":{}}', INPUT.brief]],
    ['a value that looks like a placeholder is not expanded again', '[x, "{prompt}"]', ['x', '{brief} and {node}']],
  ])('%s', (name, command, argv) => {
    const values = name.startsWith('a value') ? input({ prompt: '{brief} and {node}' }) : INPUT;
    expect(launchArgv(template(command), values)).toEqual(argv);
  });

  it('the prompt is one argument, with its quotes, newlines and $ as written', () => {
    expect(launchArgv(template('[x, "{prompt}"]'), INPUT)[1]).toBe(PROMPT);
  });

  it('an argument at the limit passes; one byte more throws with the fix', () => {
    const kind = kindOf('kind: codex\nlaunch:\n  command: [codex, "{prompt}"]\n  prompt: argument\n');
    expect(launchArgv(kind, input({ prompt: 'x'.repeat(MAX_ARG_BYTES) }))[1]).toHaveLength(MAX_ARG_BYTES);
    const error = thrown(() => launchArgv(kind, input({ prompt: `${'x'.repeat(MAX_ARG_BYTES - 1)}é`, who: 'lane-a' })));
    expect(error.message).toBe('argument 1 of "lane-a"\'s launch (kind "codex") is 131072 bytes, over the 131071 an argument may have');
    expect(error.hint).toBe('pass the prompt as a file: use {prompt_file} or {brief} in panes/codex.yaml instead of {prompt}');
  });
});

describe('promptDelivery', () => {
  it.each([
    ['claude', null, 'argument'],
    ['codex', null, 'argument'],
    ['sim', null, 'file'],
    ['command', null, 'file'],
    ['command', './agent.sh', 'file'],
    ['claude', './wrapped-claude.sh', 'file'],
    ['claude', ['claude', '--model', 'opus'], 'file'],
    ['claude', '', 'argument'],
    ['claude', [], 'argument'],
  ])('%s with command %j → %s', (name, command: CommandSpec, delivery) => {
    expect(promptDelivery(shipped(name), command)).toBe(delivery);
  });

  it('paste stays paste under a command (the command is still a TUI to type into)', () => {
    const kind = kindOf('kind: t\nlaunch:\n  command: [t]\n  prompt: paste\n');
    expect(promptDelivery(kind)).toBe('paste');
    expect(promptDelivery(kind, './t.sh')).toBe('paste');
  });
});

describe('launchArgv: approvals', () => {
  const claudeFlags = { argv: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(npm test)', 'Edit'], promptAfterDashDash: true };
  const codexFlags = { argv: ['-a', 'never', '-s', 'workspace-write'], promptAfterDashDash: false };

  it.each([
    ['claude without approvals', 'claude', { argv: [], promptAfterDashDash: false },
      ['claude', '--session-id', INPUT.sessionId, '--settings', INPUT.settings, '--append-system-prompt-file', INPUT.systemPromptFile, '--', INPUT.brief]],
    ['claude with approvals: the flags, then --, then the first prompt', 'claude', claudeFlags,
      ['claude', '--session-id', INPUT.sessionId, '--settings', INPUT.settings, '--append-system-prompt-file', INPUT.systemPromptFile,
        '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(npm test)', 'Edit', '--', INPUT.brief]],
    ['codex without approvals', 'codex', { argv: [], promptAfterDashDash: false }, ['codex', '--no-daemon', '-c', 'notice.hide_rate_limit_model_nudge=true', '-c', 'allow_login_shell=false', '-c', `notify=${INPUT.notify}`, INPUT.brief]],
    ['codex with approvals', 'codex', codexFlags, ['codex', '--no-daemon', '-c', 'notice.hide_rate_limit_model_nudge=true', '-c', 'allow_login_shell=false', '-a', 'never', '-s', 'workspace-write', '-c', `notify=${INPUT.notify}`, INPUT.brief]],
  ])('%s', (_name, kind, approvals, argv) => {
    expect(launchArgv(shipped(kind), input({ approvals }))).toEqual(argv);
  });

  it('a template without {approvals} takes none', () => {
    expect(launchArgv(shipped('gemini'), input({ approvals: claudeFlags }))).toEqual(['gemini', '-i', INPUT.brief]);
  });

  it('a prompt after multi-value flags with no -- is refused with the fix', () => {
    const kind = kindOf('kind: mine\nlaunch:\n  command: [claude, "{approvals}", "{brief}"]\n  prompt: argument\n');
    const error = thrown(() => launchArgv(kind, input({ approvals: claudeFlags, who: 'lane-a' })));
    expect(error.message).toBe('"lane-a"\'s launch (kind "mine") puts a prompt argument after {approvals} with no "--" between them: --allowedTools or --add-dir would take it as one more value');
    expect(error.hint).toBe('add "--" before the prompt in launch.command of panes/mine.yaml');
    expect(launchArgv(kind, input({ approvals: codexFlags }))).toEqual(['claude', '-a', 'never', '-s', 'workspace-write', INPUT.brief]);
  });
});

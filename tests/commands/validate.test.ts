import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../../src/commands/validate.js';
import { ConfigError, UsageError } from '../../src/errors.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(args: string[], cwd = ROOT): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await validate(args, { stdout: (s) => void (out += s), cwd, env: {} });
  return { code, out };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('swarm validate', () => {
  it('prints one line for the shipped demo and returns 0', async () => {
    expect(await run([])).toEqual({
      code: 0,
      out: 'swarm.yaml: ok — swarm "demo", plan plans/demo, lead lead@sim-a1, 4 lanes, 8 accounts (2 vendors), backend auto\n',
    });
  });

  it('takes the file as given', async () => {
    expect((await run(['../swarm.yaml'], join(ROOT, 'plans'))).out).toMatch(/^\.\.\/swarm\.yaml: ok — swarm "demo", plan plans\/demo,/);
  });

  it('says one lane, one account, one vendor', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    writeFileSync(join(dir, 'swarm.yaml'), 'version: 1\nname: one\nplan: p\naccounts: [{ id: a1, kind: sim }]\nlead: { account: a1 }\nlanes: [{ name: l, task: t }]\nbackend: pty\n');
    expect((await run([], dir)).out).toBe('swarm.yaml: ok — swarm "one", plan p, lead lead@a1, 1 lane, 1 account (1 vendor), backend pty\n'
      + '  lead succession (default, no "succession:" given): lead-b, l\n');
  });

  it('names ids on one profile folder (a symlink to it too) as one account (SPEC 10.4); other folders are not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    mkdirSync(join(dir, 'claude-work'));
    mkdirSync(join(dir, 'claude-other'));
    symlinkSync(join(dir, 'claude-work'), join(dir, 'claude-link'));
    const accounts = [
      `{ id: w1, kind: claude, env: { CLAUDE_CONFIG_DIR: ${join(dir, 'claude-work')} } }`,
      `{ id: w2, kind: claude, env: { CLAUDE_CONFIG_DIR: ${join(dir, 'claude-link')} } }`,
      `{ id: o1, kind: claude, env: { CLAUDE_CONFIG_DIR: ${join(dir, 'claude-other')} } }`,
      '{ id: s1, kind: sim }', '{ id: s2, kind: sim }',
    ];
    writeFileSync(join(dir, 'swarm.yaml'), `version: 1\nname: one\nplan: p\naccounts: [${accounts.join(', ')}]\nlead: { account: s1 }\nlanes: [{ name: l, task: t, command: "true" }]\nbackend: pty\n`);
    const out = (await run([], dir)).out.split('\n');
    expect(out.slice(1)).toEqual([
      `  accounts w1, w2 are one account: one profile folder (${realpathSync(join(dir, 'claude-work'))}); swarm gives it to one agent at a time on this machine and shares its readings and limits`,
      '  lead succession (default, no "succession:" given): lead-b, l',
      '',
    ]);
  });

  it.each([
    [['--strict'], 'unknown flag "--strict" for validate — usage: swarm validate [file]'],
    [['-x', 'swarm.yaml'], 'unknown flag "-x" for validate — usage: swarm validate [file]'],
    [['a.yaml', 'b.yaml'], 'validate takes one file, got 2 — usage: swarm validate [file]'],
  ])('%j is a usage error', async (args, message) => {
    const error = await rejection(run(args));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(message);
  });

  it('throws the config problems (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nnmae: x\n');
    const error = await rejection(run(['bad.yaml'], dir));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'bad.yaml:1:1: missing "name": name the swarm, e.g. name: demo (its tmux session is swarm-<name>)',
      'bad.yaml:1:1: missing "plan": give the plan directory, e.g. plan: plans/demo',
      'bad.yaml:1:1: missing "accounts": declare the pool, e.g. accounts: [{ id: work1, kind: claude, vendor: anthropic }]',
      'bad.yaml:1:1: missing "lead": add the lead, e.g. lead: { account: work1 }',
      'bad.yaml:2:1: unknown key "nmae"; did you mean "name"?',
    ]);
  });

  it('checks that the kind files it names are YAML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    mkdirSync(join(dir, 'panes'));
    writeFileSync(join(dir, 'panes', 'mine.yaml'), 'kind: mine\nscreens: [unclosed\n');
    writeFileSync(join(dir, 'swarm.yaml'), 'version: 1\nname: one\nplan: p\naccounts: [{ id: a1, kind: mine }]\nlead: { account: a1 }\n');
    const error = await rejection(run([], dir));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'panes/mine.yaml:3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });

  it('checks every field of the kinds it names, with swarm.yaml in one report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    mkdirSync(join(dir, 'panes'));
    writeFileSync(join(dir, 'panes', 'mine.yaml'), 'kind: yours\nlaunch:\n  command: [x]\n  prompt: typed\nscreens:\n  login: ["(a"]\n  permisson: [x]\n');
    writeFileSync(join(dir, 'panes', 'empty.yaml'), '');
    writeFileSync(join(dir, 'swarm.yaml'), 'version: 1\nname: one\nplan: p\naccounts: [{ id: a1, kind: mine }, { id: a2, kind: empty }, { id: a3, kind: sim }]\nlead: { account: a3 }\nlanes: [{ name: l, task: t, tsak: x }]\n');
    const error = await rejection(run([], dir));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).problems).toEqual([
      'swarm.yaml:6:29: unknown key "tsak" in lanes[0]; did you mean "task"?',
      'panes/mine.yaml:1:7: "kind" is "yours" but the file is mine.yaml: make them the same',
      'panes/mine.yaml:4:11: "launch.prompt" must be one of argument, paste, file, got "typed"',
      'panes/mine.yaml:6:11: "screens.login[0]" is not a valid regular expression (Unterminated group): quote it in \'…\' and escape ( ) [ ] ? . with \\',
      'panes/mine.yaml:7:3: unknown key "permisson" in screens; did you mean "permission"?',
      'panes/empty.yaml:1:1: the file is empty: a kind file needs at least kind: and launch:',
    ]);
  });

  it('refuses credentials and reserved names in an account env, never printing a value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    const key = `sk-ant-api03-${'Zq9xLm2P'.repeat(5)}`;
    const token = `ghp_${'R4nd0mT0k3n'.repeat(4)}`;
    writeFileSync(join(dir, 'swarm.yaml'), [
      'version: 1', 'name: one', 'plan: p',
      'accounts:',
      `  - { id: a1, kind: sim, env: { ANTHROPIC_API_KEY: ${key}, GITHUB_TOKEN: ${token}, SWARM_PACKET: /etc/passwd, CLAUDE_CONFIG_DIR: ~/.claude-a1 } }`,
      `  - { id: a2, kind: sim, env: { CODEX_HOME: ${key} } }`,
      'lead: { account: a1 }', '',
    ].join('\n'));
    const error = await rejection(run([], dir));
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    const help = ": an account's env holds only its profile location (e.g. CLAUDE_CONFIG_DIR: ~/.claude-work1); keep credentials in that profile, and remove this entry";
    expect(problems).toEqual([
      `swarm.yaml:5:33: "accounts[0].env.ANTHROPIC_API_KEY" is named like a credential (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*)${help}`,
      `swarm.yaml:5:107: "accounts[0].env.GITHUB_TOKEN" is named like a credential (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*)${help}`,
      'swarm.yaml:5:171: "accounts[0].env.SWARM_PACKET" is reserved: swarm sets every SWARM_* variable of a pane itself (SPEC 4.1); remove it (an account\'s env holds only its profile location)',
      `swarm.yaml:6:45: "accounts[1].env.CODEX_HOME" looks like an Anthropic API key (sk-ant-…), value not shown${help}`,
    ]);
    for (const p of problems) {
      expect(p).not.toContain(key.slice(0, 12));
      expect(p).not.toContain('R4nd0m');
      expect(p).not.toContain('/etc/passwd');
    }
  });
});

describe('swarm validate: PLAN.md approvals (issue 9 §4)', () => {
  const planWith = (planText: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    writeFileSync(join(dir, 'p', 'PLAN.md'), planText);
    writeFileSync(join(dir, 'swarm.yaml'), 'version: 1\nname: one\nplan: p\naccounts: [{ id: a1, kind: sim }]\nlead: { account: a1 }\nlanes: [{ name: l, task: t }]\nbackend: pty\n');
    return dir;
  };

  it('valid approvals: ok', async () => {
    const dir = planWith('---\ncontract: c\napprovals:\n  claude: { permission_mode: acceptEdits, allowed_tools: ["Bash(npm test)"] }\n  codex: { approval: never, sandbox: workspace-write }\n---\n# plan\n');
    expect((await run([], dir)).code).toBe(0);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('bad approvals (%s): each problem as PLAN.md:LINE:COL, exit 2', async (_name, eol) => {
    const dir = planWith(['---', 'contract: c', 'approvals:', '  claude: { permission_mode: acceptEdit }', '  codex: { approval: full-auto }', '---', '# plan', ''].join(eol));
    const error = await rejection(run([], dir));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^p\/PLAN\.md:4:\d+: .*acceptEdit.*acceptEdits/);
    expect(problems[1]).toMatch(/^p\/PLAN\.md:5:\d+: .*full-auto/);
  });
});

describe('swarm validate: ak_profile (issue 9 §7)', () => {
  it('shows where each ak_profile resolved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'p'));
    writeFileSync(join(dir, 'swarm.yaml'), 'version: 1\nname: one\nplan: p\naccounts: [{ id: a1, kind: sim }, { id: w3, kind: claude, ak_profile: claude/work3 }]\nlead: { account: a1 }\nlanes: [{ name: l, task: t }]\nbackend: pty\n');
    let out = '';
    await validate([], { stdout: (s) => void (out += s), cwd: dir, env: { AK_HOME: '/kit' } });
    expect(out.split('\n')[1]).toBe('  account w3: ak_profile claude/work3 → CLAUDE_CONFIG_DIR=/kit/profiles/claude/work3');
  });
});

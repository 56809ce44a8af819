import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHIPPED_KINDS } from '../../../src/core/config/config.js';
import { parseKind, SCREEN_NAMES, type KindSpec } from '../../../src/core/config/kindFile.js';

const shipped = (name: string): string => readFileSync(new URL(`../../../panes/${name}.yaml`, import.meta.url), 'utf8');

/** The kind, or a failure that shows the problems. */
function parsed(text: string, expected?: string): KindSpec {
  const result = parseKind(text, expected);
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return result.kind;
}

/** The problems as `LINE:COL: message` ([] when the file is valid). */
function problems(text: string, expected?: string): string[] {
  const result = parseKind(text, expected);
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

const MINIMAL = 'kind: x\nlaunch:\n  command: [x, "{brief}"]\n  prompt: argument\n';

describe('the shipped kinds', () => {
  it.each(SHIPPED_KINDS.map((name) => [name]))('panes/%s.yaml parses, named after its file', (name) => {
    const kind = parsed(shipped(name), name);
    expect(kind.kind).toBe(name);
    for (const screen of SCREEN_NAMES) for (const re of kind.screens[screen]) expect(re.flags).toBe('l');
  });

  it.each([
    ['claude', ['claude', '--session-id', '{session_id}', '--settings', '{settings}', '--append-system-prompt-file', '{system_prompt_file}', '{approvals}', '--', '{brief}'], 'argument', 'CLAUDE_CONFIG_DIR',
      ['claude', '--resume', '{session_id}', '--settings', '{settings}', '--append-system-prompt-file', '{system_prompt_file}', '{approvals}', '--', '{brief}']],
    ['codex', ['codex', '--no-daemon', '-c', 'notice.hide_rate_limit_model_nudge=true', '-c', 'allow_login_shell=false', '{approvals}', '-c', 'notify={notify}', '{brief}'], 'argument', 'CODEX_HOME',
      ['codex', '--no-daemon', '-c', 'notice.hide_rate_limit_model_nudge=true', '-c', 'allow_login_shell=false', '{approvals}', '-c', 'notify={notify}', 'resume', '{session_id}', '{brief}']],
    ['gemini', ['gemini', '-i', '{brief}'], 'argument', 'GEMINI_CLI_HOME', null],
    ['sim', ['{swarm_bin}', 'sim'], 'file', null, null],
  ])('%s launches as %j with the prompt as %s, profile via %s, resumes as %j', (name, command, prompt, accountEnv, resume) => {
    const kind = parsed(shipped(name), name);
    expect(kind.launch).toEqual({ command, prompt, resume });
    expect(kind.accountEnv).toBe(accountEnv);
  });

  it('command has no launch, no idle signal, and only the overflow screens', () => {
    const kind = parsed(shipped('command'), 'command');
    expect(kind.launch).toBeNull();
    expect(kind.idle).toBeNull();
    expect(SCREEN_NAMES.filter((name) => kind.screens[name].length > 0)).toEqual(['overflow']);
  });

  it('every kind with screens carries the SPEC overflow texts', () => {
    const texts = ['prompt is too long', 'context length exceeded', 'maximum context length', 'too many total text bytes', 'input length and max_tokens exceed'];
    for (const name of ['claude', 'codex', 'gemini', 'command']) {
      const kind = parsed(shipped(name), name);
      for (const text of texts) expect(kind.screens.overflow.some((re) => re.test(text)), `${name}: ${text}`).toBe(true);
    }
  });

  it('claude keeps its signals as plain data', () => {
    expect(parsed(shipped('claude')).signals).toEqual({
      session_state: '$CLAUDE_CONFIG_DIR/sessions/*.json',
      statusline: true,
      hooks: ['SessionStart', 'Stop', 'StopFailure', 'Notification', 'PermissionRequest', 'PreCompact', 'PostCompact'],
      transcript: '$CLAUDE_CONFIG_DIR/projects/*/{session_id}.jsonl',
    });
  });
});

describe('parseKind: valid files', () => {
  it('a minimal file gets the defaults', () => {
    const kind = parsed(MINIMAL);
    expect(kind).toMatchObject({ kind: 'x', seenIn: null, launch: { command: ['x', '{brief}'], prompt: 'argument' }, accountEnv: null, idle: null, contextLeft: [], contextUsed: [], signals: {} });
    expect(Object.keys(kind.screens)).toEqual([...SCREEN_NAMES]);
    expect(Object.values(kind.screens).every((list) => list.length === 0)).toBe(true);
  });

  it.each([
    ['CRLF line ends', shipped('claude').replace(/\n/g, '\r\n')],
    ['trailing spaces', shipped('claude').replace(/\n/g, '   \n')],
    ['a byte-order mark', `\uFEFF${shipped('claude')}`],
  ])('%s parse like the plain file', (_name, text) => {
    expect(parsed(text, 'claude')).toEqual(parsed(shipped('claude'), 'claude'));
  });

  it('patterns are case-insensitive', () => {
    const kind = parsed(`${MINIMAL}screens:\n  permission: ['DO YOU WANT TO PROCEED\\?']\n`);
    expect(kind.screens.permission[0]?.test('do you want to proceed?')).toBe(true);
  });

  it('launch: null and no launch both mean a lane must supply the command', () => {
    expect(parsed('kind: x\nlaunch: null\n').launch).toBeNull();
    expect(parsed('kind: x\n').launch).toBeNull();
  });

  it('idle may list idle texts as well as busy ones', () => {
    const idle = parsed(`${MINIMAL}idle:\n  showing: ['\\? for shortcuts']\n`).idle;
    expect(idle?.notShowing).toEqual([]);
    expect(idle?.showing.map(String)).toEqual(['/\\u003f for shortcuts/l']);
  });

  it('context patterns keep their group', () => {
    const kind = parsed(`${MINIMAL}context_left: ['(\\d+)% left']\ncontext_used: ['(?<used>\\d+)% used']\n`);
    expect(kind.contextLeft.map(String)).toEqual(['/(\\d+)% left/l']);
    expect(kind.contextUsed.map(String)).toEqual(['/(?<used>\\d+)% used/l']);
  });
});

describe('parseKind: problems', () => {
  it.each([
    ['empty', '', undefined, ['1:1: the file is empty: a kind file needs at least kind: and launch:']],
    ['whitespace only', '  \n\t\n', undefined, ['1:1: the file is empty: a kind file needs at least kind: and launch:']],
    ['comments only', '# nothing yet\n', undefined, ['1:1: the file must be a mapping of keys, got nothing']],
    ['a list', '- kind\n- launch\n', undefined, ['1:1: the file must be a mapping of keys, got a list']],
    ['a scalar', 'claude\n', undefined, ['1:1: the file must be a mapping of keys, got "claude"']],
    ['an unknown key', 'kind: x\nscreen: {}\n', undefined, ['2:1: unknown key "screen"; did you mean "screens"?']],
    ['an upper-case key', 'KIND: x\n', undefined, ['1:1: unknown key "KIND"; did you mean "kind"?', '1:1: missing "kind": the kind\'s name, the same as the file\'s base name']],
    ['no kind', 'launch: null\n', undefined, ['1:1: missing "kind": the kind\'s name, the same as the file\'s base name']],
    ['another name', 'kind: claud\n', 'claude', ['1:7: "kind" is "claud" but the file is claude.yaml: make them the same']],
    ['an upper-case name', 'kind: Claude\n', 'claude', ['1:7: "kind" is "Claude" but the file is claude.yaml: make them the same']],
    ['an unsafe name', 'kind: "a b"\n', undefined, ['1:7: "kind" must be a name of letters, digits, ".", "_" and "-" that starts with a letter or digit, got "a b"']],
    ['a number as seen_in', 'kind: x\nseen_in: 2.1\n', undefined, ['2:10: "seen_in" must be a non-empty string, got 2.1']],
    ['launch as a string', 'kind: x\nlaunch: claude\n', undefined, ['2:9: "launch" must be a mapping of keys, got "claude"']],
    ['launch without prompt', 'kind: x\nlaunch:\n  command: [x, "{brief}"]\n', undefined, ['3:3: missing "prompt" in launch: how the first prompt arrives: argument, paste or file']],
    ['launch without command', 'kind: x\nlaunch:\n  prompt: file\n', undefined, ['3:3: missing "command" in launch: the argv template, e.g. command: [claude, "{brief}"]']],
    ['an unknown prompt delivery', 'kind: x\nlaunch:\n  command: [x]\n  prompt: typed\n', undefined, ['4:11: "launch.prompt" must be one of argument, paste, file, got "typed"']],
    ['an upper-case prompt delivery', 'kind: x\nlaunch:\n  command: [x]\n  prompt: FILE\n', undefined, ['4:11: "launch.prompt" must be one of argument, paste, file, got "FILE"']],
    ['a command string', 'kind: x\nlaunch:\n  command: claude {brief}\n  prompt: argument\n', undefined, ['3:12: "launch.command" must be a list, got "claude {brief}"']],
    ['an empty command', 'kind: x\nlaunch:\n  command: []\n  prompt: file\n', undefined, ['3:12: "launch.command" is empty: list the program, then its arguments']],
    ['a resume naming no session', 'kind: x\nlaunch:\n  command: [x]\n  prompt: file\n  resume: [x, --resume, "{brief}"]\n', undefined, ['5:11: "launch.resume" has no {session_id}: it must name the session resumed ({session_id}) and give it the pointer line as its prompt ({brief})']],
    ['a resume with no pointer line', 'kind: x\nlaunch:\n  command: [x]\n  prompt: file\n  resume: [x, --resume, "{session_id}"]\n', undefined, ['5:11: "launch.resume" has no {brief}: it must name the session resumed ({session_id}) and give it the pointer line as its prompt ({brief})']],
    ['a resume with an unknown placeholder', 'kind: x\nlaunch:\n  command: [x]\n  prompt: file\n  resume: [x, "{sesion_id}", "{brief}"]\n', undefined, ['5:15: "launch.resume[1]": unknown placeholder {sesion_id}; did you mean "session_id"?']],
    ['a resume as a string', 'kind: x\nlaunch:\n  command: [x]\n  prompt: file\n  resume: x --resume\n', undefined, ['5:11: "launch.resume" must be a list, got "x --resume"']],
    ['a number in the command', 'kind: x\nlaunch:\n  command: [x, 3]\n  prompt: file\n', undefined, ['3:16: "launch.command[1]" must be a non-empty string, got 3']],
    ['a misspelt placeholder', 'kind: x\nlaunch:\n  command: [x, "{promt}"]\n  prompt: argument\n', undefined, ['3:16: "launch.command[1]": unknown placeholder {promt}; did you mean "prompt"?']],
    ['an unknown placeholder', 'kind: x\nlaunch:\n  command: [x, "--id={conversation}", "{brief}"]\n  prompt: argument\n', undefined, ['3:16: "launch.command[1]": unknown placeholder {conversation}; known: {prompt_file}, {prompt}, {brief}, {swarm_bin}, {node}, {session_id}, {settings}, {system_prompt_file}, {approvals}, {notify}']],
    ['{approvals} inside an argument', 'kind: x\nlaunch:\n  command: [x, "--flags={approvals}", "{brief}"]\n  prompt: argument\n', undefined, ['3:16: "launch.command[1]": {approvals} expands to several arguments, so it must be an argument of its own: write "{approvals}" alone']],
    ['{approvals} twice in one argument', 'kind: x\nlaunch:\n  command: [x, "{approvals}{approvals}"]\n  prompt: file\n', undefined, [
      '3:16: "launch.command[1]": {approvals} expands to several arguments, so it must be an argument of its own: write "{approvals}" alone',
      '3:16: "launch.command[1]": {approvals} expands to several arguments, so it must be an argument of its own: write "{approvals}" alone',
    ]],
    ['an argument prompt the command never passes', 'kind: x\nlaunch:\n  command: [x, "{swarm_bin}"]\n  prompt: argument\n', undefined, ['4:11: "launch.prompt" is argument but "launch.command" has no {prompt}, {brief} or {prompt_file}: add one, or use paste or file']],
    ['a bad account_env', 'kind: x\naccount_env: 1HOME\n', undefined, ['2:14: "account_env" must be an environment variable name (letters, digits and "_", not starting with a digit), or null, got "1HOME"']],
    ['a number as account_env', 'kind: x\naccount_env: 5\n', undefined, ['2:14: "account_env" must be a non-empty string, got 5']],
    ['idle as a string', 'kind: x\nidle: busy\n', undefined, ['2:7: "idle" must be a mapping of keys, got "busy"']],
    ['an empty idle rule', 'kind: x\nidle: {}\n', undefined, ['2:7: "idle" needs not_showing (busy texts) or showing (idle texts); write idle: null for no idle signal']],
    ['a misspelt idle key', 'kind: x\nidle:\n  not_shown: [x]\n', undefined, ['3:3: unknown key "not_shown" in idle; did you mean "not_showing"?', '3:3: "idle" needs not_showing (busy texts) or showing (idle texts); write idle: null for no idle signal']],
    ['a misspelt screen class', 'kind: x\nscreens:\n  permisson: [x]\n', undefined, ['3:3: unknown key "permisson" in screens; did you mean "permission"?']],
    ['a screen list as a string', 'kind: x\nscreens:\n  login: not logged in\n', undefined, ['3:10: "screens.login" must be a list, got "not logged in"']],
    ['a bad regular expression', 'kind: x\nscreens:\n  login: ["not (logged"]\n', undefined, ['3:11: "screens.login[0]" is not a valid regular expression (Unterminated group): quote it in \'…\' and escape ( ) [ ] ? . with \\']],
    ['a pattern matching empty text', 'kind: x\nscreens:\n  login: ["x*"]\n', undefined, ['3:11: "screens.login[0]" matches empty text, so it would match every screen: make it name the text it looks for']],
    ['an empty pattern', 'kind: x\nscreens:\n  login: [""]\n', undefined, ['3:11: "screens.login[0]" must be a regular expression (a non-empty string), got ""']],
    ['a number as a pattern', 'kind: x\nscreens:\n  login: [42]\n', undefined, ['3:11: "screens.login[0]" must be a regular expression (a non-empty string), got 42']],
    ['a context pattern without a group', "kind: x\ncontext_left: ['\\d+% left']\n", undefined, ['2:16: "context_left[0]" needs a group that captures the percentage, e.g. \'(\\d+)% context left\'']],
    ['signals as a list', 'kind: x\nsignals: [a]\n', undefined, ['2:10: "signals" must be a mapping of keys, got a list']],
    ['several problems, in file order', 'kind: x\nidle: busy\nlaunch: claude\n', undefined, ['2:7: "idle" must be a mapping of keys, got "busy"', '3:9: "launch" must be a mapping of keys, got "claude"']],
  ])('%s', (_name, text, expected, want) => {
    expect(problems(text, expected)).toEqual(want);
  });

  it.each([
    ['an unclosed list', 'kind: [claude\n'],
    ['a tab indent', 'kind: x\nlaunch:\n\tprompt: file\n'],
  ])('%s is a YAML syntax error with its position', (_name, text) => {
    const found = problems(text);
    expect(found.length).toBeGreaterThan(0);
    for (const line of found) expect(line).toMatch(/^\d+:\d+: YAML syntax error: \S/);
  });

  it('a duplicate key points at the second one', () => {
    expect(problems('kind: a\nkind: b\n')).toEqual(['2:1: duplicate key "kind": a key may appear once in a mapping; keep one']);
  });

  it('a second document is refused at its first line', () => {
    expect(problems('kind: x\n---\nkind: y\n')).toEqual([
      '2:1: a second YAML document starts here: a kind file is one document; remove this "---" and what follows, or merge it into the first',
    ]);
  });

  it('a YAML alias bomb is refused quickly, at its first alias', { timeout: 2000 }, () => {
    const levels = ['  a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i += 1) levels.push(`  a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    expect(problems(`kind: x\nsignals:\n${levels.join('\n')}\n`)).toEqual([
      '4:12: too many YAML alias expansions (over 100: aliases of aliases multiply, a "billion laughs"): write the values out, or use fewer aliases',
    ]);
  });
});

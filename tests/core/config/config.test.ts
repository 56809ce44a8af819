import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, KNOWN_KEYS, parseConfig, type ConfigFacts, type SwarmConfig } from '../../../src/core/config/config.js';
import { DEFAULT_THRESHOLDS } from '../../../src/core/capacity/thresholds.js';

const DIRS = ['/w', '/w/plans/demo', '/w/a', '/w/b', '/w/c', '/p', '/home/u/wt'];
const KINDS = ['claude', 'codex', 'gemini', 'sim', 'command'];

function facts(env: Record<string, string | undefined> = {}): ConfigFacts {
  return { isDirectory: (p) => DIRS.includes(p), kindExists: (k) => KINDS.includes(k), kindLaunches: (k) => k !== 'command', home: '/home/u', env };
}

/** Line numbers below refer to this file. */
const BASE = [
  'version: 1', //                                          1
  'name: demo', //                                          2
  'plan: plans/demo', //                                    3
  'accounts:', //                                           4
  '  - { id: work1, kind: claude, vendor: anthropic }', //  5
  '  - { id: work2, kind: codex, vendor: openai }', //      6
  '  - { id: work3, kind: claude, vendor: anthropic }', //  7
  'lead:', //                                               8
  '  account: work1', //                                    9
  'lanes:', //                                             10
  '  - name: lane-a', //                                   11
  '    checkout: a', //                                    12
  '    task: Steps 1-3', //                                13
  '  - name: lane-b', //                                   14
  '    checkout: b', //                                    15
  '    task: Steps 4-5', //                                16
  '',
].join('\n');

/** BASE with line `n` (1-based) replaced by `lines` (none: deleted). */
function edit(n: number, ...lines: string[]): string {
  const all = BASE.split('\n');
  all.splice(n - 1, 1, ...lines);
  return all.join('\n');
}

const append = (...lines: string[]): string => `${BASE}${lines.join('\n')}\n`;

function problems(text: string, env: Record<string, string | undefined> = {}): string[] {
  const result = parseConfig(text, '/w/swarm.yaml', facts(env));
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

function config(text: string, env: Record<string, string | undefined> = {}): SwarmConfig {
  const result = parseConfig(text, '/w/swarm.yaml', facts(env));
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return result.config;
}

const NAME_RULE = 'a name of letters, digits, ".", "_" and "-" that starts with a letter or digit';
const SWARM_NAME_RULE = 'a name of letters, digits, "_" and "-" (no "." or ":": tmux changes those in session names)';
const COMMAND_RULE = 'a command: a string (run by sh -c), a non-empty list of strings (argv), or null';
const DURATION_HELP = 'use <n>ms, <n>s, <n>m or <n>h (a bare number is seconds)';
const ENV_HELP = 'an account\'s env holds only its profile location (e.g. CLAUDE_CONFIG_DIR: ~/.claude-work1); keep credentials in that profile, and remove this entry';
const EMPTY = '1:1: the file is empty: a swarm.yaml needs version: 1, name, plan, accounts, lead and lanes';

describe('parseConfig: a good file', () => {
  it('applies every default (SPEC 3)', () => {
    expect(config(BASE)).toEqual({
      version: 1, name: 'demo', file: '/w/swarm.yaml', dir: '/w', plan: '/w/plans/demo', backend: 'auto',
      accounts: [
        { id: 'work1', kind: 'claude', vendor: 'anthropic', env: {}, akProfile: null },
        { id: 'work2', kind: 'codex', vendor: 'openai', env: {}, akProfile: null },
        { id: 'work3', kind: 'claude', vendor: 'anthropic', env: {}, akProfile: null },
      ],
      lead: { name: 'lead', account: 'work1', checkout: '/w', command: null, succession: ['lead-b'], successionDefault: true },
      lanes: [
        { name: 'lane-a', checkout: '/w/a', task: 'Steps 1-3', account: null, command: null, doneWhen: null },
        { name: 'lane-b', checkout: '/w/b', task: 'Steps 4-5', account: null, command: null, doneWhen: null },
      ],
      maxLanes: 8, maxAsks: 3, maxReviews: 3, thresholds: DEFAULT_THRESHOLDS, timeouts: DEFAULT_TIMEOUTS, notifyCommand: null, passEnv: [], base: null,
    } satisfies SwarmConfig);
    expect(DEFAULT_TIMEOUTS).toEqual({ accept: 600_000, packet: 600_000, stall: 1_800_000, ask: 1_800_000, release: 600_000 });
  });

  it.each<[string, string, string[], boolean]>([
    ['absent: the successor lead, no lane (none on the lead\'s checkout)', BASE, ['lead-b'], true],
    ['absent, a lane on the lead\'s checkout (spelled another way): the successor lead, then that lane',
      edit(15, '    checkout: ./'), ['lead-b', 'lane-b'], true],
    ['absent, a named lead whose `-b` name a lane has: the next free letter',
      edit(8, 'lead:', '  name: boss', '  checkout: a').replace('name: lane-b', 'name: boss-b'), ['boss-c', 'lane-a'], true],
    ['null: as absent', edit(9, '  account: work1', '  succession: null'), ['lead-b'], true],
    ['given empty: none (the developer\'s choice)', edit(9, '  account: work1', '  succession: []'), [], false],
    ['given: as given, no default added', edit(9, '  account: work1', '  succession: [lane-a]'), ['lane-a'], false],
  ])('lead.succession %s (SPEC 10.5)', (_name, text, succession, byDefault) => {
    const lead = config(text).lead;
    expect(lead.succession).toEqual(succession);
    expect(lead.successionDefault === true).toBe(byDefault);
  });

  it('reads every field when given', () => {
    const text = [
      'version: 1', 'name: full', 'plan: ../p', 'backend: tmux',
      'accounts:',
      '  - id: work1', '    kind: claude', '    vendor: anthropic', '    env: { CLAUDE_CONFIG_DIR: ~/.claude-work1, HOME_ONLY: "~", PLAIN: /opt/x }',
      '  - { id: work2, kind: codex }',
      '  - { id: work3, kind: claude, vendor: anthropic, ak_profile: claude/work3 }',
      'lead:', '  name: boss', '  account: work1', '  checkout: ~/wt', '  command: claude --fast', '  succession: [lead-b, lane-a]',
      'lanes:',
      '  - name: lane-a', '    checkout: /w/c/', '    task: |', '      Steps 1-3', '      of PLAN.md', '    account: work2',
      '    command: [node, sim.js, "--x"]', '    done_when: npm test',
      'max_lanes: 3',
      'max_asks: 5',
      'thresholds: { capacity_low: 30, capacity_critical: 12.5, context_pressure: 70, window: 200000, headroom: 40000, max_generations: 2, compact: auto }',
      'timeouts: { accept: 90, packet: 1.5m, stall: 2h, ask: 500ms, release: "45s" }',
      'notify_command: ntfy publish swarm',
      'pass_env: [GH_TOKEN, MY_API_KEY]',
      'base: release/2.x',
    ].join('\n');
    expect(config(text)).toEqual({
      version: 1, name: 'full', file: '/w/swarm.yaml', dir: '/w', plan: '/p', backend: 'tmux',
      accounts: [
        { id: 'work1', kind: 'claude', vendor: 'anthropic', env: { CLAUDE_CONFIG_DIR: '/home/u/.claude-work1', HOME_ONLY: '/home/u', PLAIN: '/opt/x' }, akProfile: null },
        { id: 'work2', kind: 'codex', vendor: 'codex', env: {}, akProfile: null },
        { id: 'work3', kind: 'claude', vendor: 'anthropic', env: { CLAUDE_CONFIG_DIR: '/home/u/.agentkit/profiles/claude/work3' }, akProfile: 'claude/work3' },
      ],
      lead: { name: 'boss', account: 'work1', checkout: '/home/u/wt', command: 'claude --fast', succession: ['lead-b', 'lane-a'] },
      lanes: [{ name: 'lane-a', checkout: '/w/c', task: 'Steps 1-3\nof PLAN.md\n', account: 'work2', command: ['node', 'sim.js', '--x'], doneWhen: 'npm test' }],
      maxLanes: 3,
      maxAsks: 5,
      maxReviews: 3,
      thresholds: { capacityLow: 30, capacityCritical: 12.5, contextPressure: 70, window: 200_000, headroom: 40_000, maxGenerations: 2, compact: 'auto' },
      timeouts: { accept: 90_000, packet: 90_000, stall: 7_200_000, ask: 500, release: 45_000 },
      notifyCommand: 'ntfy publish swarm',
      passEnv: ['GH_TOKEN', 'MY_API_KEY'],
      base: 'release/2.x',
    } satisfies SwarmConfig);
  });

  it.each([
    ['CRLF line endings', BASE.replace(/\n/g, '\r\n')],
    ['a byte-order mark', `\uFEFF${BASE}`],
    ['a BOM and CRLF', `\uFEFF${BASE.replace(/\n/g, '\r\n')}`],
    ['trailing spaces', BASE.replace(/\n/g, '   \n')],
    ['comments and blank lines', `# a swarm\n\n${BASE}\n# end\n`],
    ['explicit nulls for optional fields', append('backend: auto', 'notify_command: null', 'thresholds: { window: auto, compact: null }', 'pass_env: null')],
    ['an empty pass_env', append('pass_env: []')],
  ])('loads a file with %s', (_what, text) => {
    expect(config(text)).toEqual(config(BASE));
  });

  it('follows YAML anchors and aliases', () => {
    expect(config(edit(15, '    checkout: &b b')).lanes[1]?.checkout).toBe('/w/b');
  });

  it('takes AGENTKIT_CAPACITY_LOW / _CRITICAL over the file', () => {
    const text = append('thresholds: { capacity_low: 40, capacity_critical: 20 }');
    expect(config(text, { AGENTKIT_CAPACITY_LOW: '35', AGENTKIT_CAPACITY_CRITICAL: ' 5 ' }).thresholds).toMatchObject({ capacityLow: 35, capacityCritical: 5 });
    expect(config(text, { AGENTKIT_CAPACITY_LOW: '', AGENTKIT_CAPACITY_CRITICAL: undefined }).thresholds).toMatchObject({ capacityLow: 40, capacityCritical: 20 });
  });

  it('takes a task of exactly 32 KiB', () => {
    expect(config(edit(13, `    task: "${'x'.repeat(32 * 1024)}"`)).lanes[0]?.task).toHaveLength(32 * 1024);
  });

  it('lets the lead share a checkout with a lane', () => {
    expect(config(edit(9, '  account: work1', '  checkout: a')).lead.checkout).toBe('/w/a');
  });
});

describe('parseConfig: a bad file gets every problem with its line and column', () => {
  it.each([
    ['an empty file', '', [EMPTY]],
    ['whitespace only', '  \n\t\n', [EMPTY]],
    ['comments only', '# nothing yet\n', [EMPTY]],
    ['a BOM only', '\uFEFF', [EMPTY]],
    ['a list at the top', '- a\n- b\n', ['1:1: the file must be a mapping of keys, got a list']],
    ['a scalar at the top', 'hello\n', ['1:1: the file must be a mapping of keys, got "hello"']],
    ['a YAML syntax error', edit(2, 'name: [demo'), ['3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]']],
    ['a syntax error with CRLF', edit(2, 'name: demo: x').replace(/\n/g, '\r\n'), ['2:7: YAML syntax error: Nested mappings are not allowed in compact mappings']],
    ['an unclosed quote', edit(2, 'name: "demo'), ['17:1: YAML syntax error: Missing closing "quote']],
    ['a duplicate key', edit(2, 'name: demo', 'name: other'), ['3:1: duplicate key "name": a key may appear once in a mapping; keep one']],
    ['version 2', edit(1, 'version: 2'), ['1:10: "version" must be 1 (the only version swarm reads), got 2']],
    ['version as a string', edit(1, 'version: "1"'), ['1:10: "version" must be 1 (the only version swarm reads), got "1"']],
    ['no version', edit(1), ['1:1: missing "version": add version: 1 at the top of the file']],
    ['an unknown key close to a known one', edit(10, 'lnaes:'), ['10:1: unknown key "lnaes"; did you mean "lanes"?']],
    ['an upper-case key', edit(10, 'Lanes:'), ['10:1: unknown key "Lanes"; did you mean "lanes"?']],
    ['an unknown key far from any', append('colour: red'), [`17:1: unknown key "colour"; known keys: ${KNOWN_KEYS.top.join(', ')}`]],
    ['an unknown key in a lane', edit(13, '    tsak: Steps 1-3'), [
      '11:5: missing "task" in lanes[0]: say what the lane does, e.g. task: "Steps 1-3 of PLAN.md"',
      '13:5: unknown key "tsak" in lanes[0]; did you mean "task"?',
    ]],
    ['an unknown key in an account', edit(5, '  - { id: work1, kind: claude, vendr: anthropic }'), ['5:32: unknown key "vendr" in accounts[0]; did you mean "vendor"?']],
    ['an unknown key in thresholds', append('thresholds: { capacity_lo: 20 }'), ['17:15: unknown key "capacity_lo" in thresholds; did you mean "capacity_low"?']],
    ['a base with a space', append('base: my branch'), ['17:7: "base" holds a space, a control character or one of ~ ^ : ? * [ \\, which git refuses in a branch name: name the plan\'s base branch, e.g. base: main']],
    ['a base as a full ref', append('base: refs/heads/main'), ['17:7: "base" is a full ref: write the branch name alone (main): name the plan\'s base branch, e.g. base: main']],
    ['a base with ..', append('base: a..b'), ['17:7: "base" holds ".." or "@{", which git refuses in a branch name: name the plan\'s base branch, e.g. base: main']],
    ['a base ending in .lock', append('base: main.lock'), ['17:7: "base" is not a branch name git accepts (no leading "-" or "/", no trailing "/", "." or ".lock", no "//"): name the plan\'s base branch, e.g. base: main']],
    ['a base that is a number', append('base: 7'), ['17:7: "base" must be a branch name, e.g. base: main, got 7']],
    ['max_lanes not a number', append('max_lanes: eight'), ['17:12: "max_lanes" must be a whole number, got "eight"']],
    ['max_lanes 0', append('max_lanes: 0'), ['17:12: "max_lanes" must be a whole number of at least 1, got 0']],
    ['max_asks 0', append('max_asks: 0'), ['17:11: "max_asks" must be a whole number of at least 1, got 0']],
    ['max_asks not a number', append('max_asks: 2.5'), ['17:11: "max_asks" must be a whole number, got 2.5']],
    ['more lanes than max_lanes', append('max_lanes: 1'), ['10:1: 2 lanes but "max_lanes" is 1: raise max_lanes or remove lanes']],
    ['no name', edit(2), ['1:1: missing "name": name the swarm, e.g. name: demo (its tmux session is swarm-<name>)']],
    ['an empty name', edit(2, 'name:'), ['2:1: "name" must be a non-empty string, got nothing']],
    ['a name with a space', edit(2, 'name: my demo'), [`2:7: "name" must be ${SWARM_NAME_RULE}, got "my demo"`]],
    ['a name with ANSI escapes', edit(2, 'name: "\\e[31mdemo"'), [`2:7: "name" must be ${SWARM_NAME_RULE}, got "\\u001b[31mdemo"`]],
    ['a name that is a path', edit(2, 'name: ../x'), [`2:7: "name" must be ${SWARM_NAME_RULE}, got "../x"`]],
    ['no plan', edit(3), ['1:1: missing "plan": give the plan directory, e.g. plan: plans/demo']],
    ['a missing plan directory', edit(3, 'plan: plans/dmeo'), ['3:7: plan directory "plans/dmeo" not found (looked for /w/plans/dmeo): create it with a PLAN.md, or fix "plan"']],
    ['a plan that is a number', edit(3, 'plan: 5'), ['3:7: "plan" must be a non-empty string, got 5']],
    ['an unknown backend', append('backend: docker'), ['17:10: "backend" must be one of auto, tmux, pty, got "docker"']],
    ['an upper-case backend', append('backend: TMUX'), ['17:10: "backend" must be one of auto, tmux, pty, got "TMUX"']],
    ['no accounts', [...BASE.split('\n').slice(0, 3), ...BASE.split('\n').slice(7)].join('\n'), [
      '1:1: missing "accounts": declare the pool, e.g. accounts: [{ id: work1, kind: claude, vendor: anthropic }]',
    ]],
    ['an empty pool', [...BASE.split('\n').slice(0, 3), 'accounts: []', ...BASE.split('\n').slice(7)].join('\n'), [
      '4:11: "accounts" is empty: declare at least one account (the pool swarm may use)',
    ]],
    ['accounts as a mapping', [...BASE.split('\n').slice(0, 3), 'accounts: { id: work1 }', ...BASE.split('\n').slice(7)].join('\n'), [
      '4:11: "accounts" must be a list, got a mapping',
    ]],
    ['an account that is a string', edit(7, '  - work3'), ['7:5: "accounts[2]" must be a mapping of keys, got "work3"']],
    ['an account without id', edit(7, '  - { kind: claude }'), ['7:5: missing "id" in accounts[2]: give the account an id, e.g. id: work1']],
    ['an account without kind', edit(7, '  - { id: work3 }'), ['7:5: missing "kind" in accounts[2]: say which kind of agent it runs, e.g. kind: claude']],
    ['an unsafe account id', edit(7, '  - { id: "work 3", kind: claude }'), [`7:11: "accounts[2].id" must be ${NAME_RULE}, got "work 3"`]],
    ['a duplicate account id', edit(6, '  - { id: work1, kind: codex }'), ['6:11: duplicate account id "work1" (first at line 5): account ids must be unique']],
    ['an unknown kind', edit(6, '  - { id: work2, kind: codx }'), [
      '6:24: unknown kind "codx": no panes/codx.yaml beside swarm.yaml, and the shipped kinds are claude, codex, gemini, sim, command; did you mean "codex"?',
    ]],
    ['an unknown kind far from any', edit(6, '  - { id: work2, kind: aider }'), [
      '6:24: unknown kind "aider": no panes/aider.yaml beside swarm.yaml, and the shipped kinds are claude, codex, gemini, sim, command',
    ]],
    ['a kind that is a path', edit(6, '  - { id: work2, kind: ../../etc/x }'), [`6:24: "accounts[1].kind" must be ${NAME_RULE}, got "../../etc/x"`]],
    ['an env that is a list', edit(6, '  - { id: work2, kind: codex, env: [a] }'), ['6:36: "accounts[1].env" must be a mapping of keys, got a list']],
    ['an env value that is a number', edit(6, '  - { id: work2, kind: codex, env: { CODEX_HOME: 5 } }'), [
      '6:50: "accounts[1].env.CODEX_HOME" must be a string (a profile location, never a secret), got 5',
    ]],
    ['an env value that is a bare ~', edit(6, '  - { id: work2, kind: codex, env: { CODEX_HOME: ~ } }'), [
      '6:50: "accounts[1].env.CODEX_HOME" must be a string (a profile location, never a secret); a bare ~ is null in YAML, write "~", got null',
    ]],
    ['an env key that is no variable name', edit(6, '  - { id: work2, kind: codex, env: { codex-home: /x } }'), [
      '6:38: "accounts[1].env.codex-home": "codex-home" is not an environment variable name (letters, digits and "_", not starting with a digit)',
    ]],
    ['an env variable named like a credential', edit(6, '  - { id: work2, kind: codex, env: { OPENAI_API_KEY: x } }'), [
      `6:38: "accounts[1].env.OPENAI_API_KEY" is named like a credential (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*): ${ENV_HELP}`,
    ]],
    ['an env value that looks like a key', edit(6, `  - { id: work2, kind: codex, env: { CODEX_HOME: sk-ant-${'a1B2'.repeat(8)} } }`), [
      `6:50: "accounts[1].env.CODEX_HOME" looks like an Anthropic API key (sk-ant-…), value not shown: ${ENV_HELP}`,
    ]],
    ['an env value that looks like a GitHub token', edit(6, `  - { id: work2, kind: codex, env: { GH: ghp_${'aB3d'.repeat(9)} } }`), [
      `6:42: "accounts[1].env.GH" looks like a GitHub token, value not shown: ${ENV_HELP}`,
    ]],
    ['an ak_profile that is a number', edit(6, '  - { id: work2, kind: codex, ak_profile: 7 }'), ['6:43: "accounts[1].ak_profile" must be a non-empty string, got 7']],
    ['no lead', BASE.replace('lead:\n  account: work1\n', ''), ['1:1: missing "lead": add the lead, e.g. lead: { account: work1 }']],
    ['a lead that is a string', edit(8, 'lead: work1').replace('lead: work1\n  account: work1', 'lead: work1'), ['8:7: "lead" must be a mapping of keys, got "work1"']],
    ['a lead without account', edit(9, '  name: boss'), ['9:3: missing "account" in lead: say which account the lead runs on, e.g. account: work1']],
    ['a lead on an unknown account', edit(9, '  account: work9'), ['9:12: unknown account "work9" for the lead: the accounts are work1, work2, work3; did you mean "work1"?']],
    ['an unsafe lead name', edit(9, '  account: work1', '  name: "-lead"'), [`10:9: "lead.name" must be ${NAME_RULE}, got "-lead"`]],
    ['a succession naming the lead', edit(9, '  account: work1', '  succession: [lead]'), ['10:15: "lead.succession" names the lead itself ("lead"): list only its successors']],
    ['a succession entry that is unsafe', edit(9, '  account: work1', '  succession: [ok, "a b"]'), [`10:20: "lead.succession[1]" must be ${NAME_RULE}, got "a b"`]],
    ['a lead checkout that is not a directory', edit(9, '  account: work1', '  checkout: nowhere'), [
      '10:13: checkout "nowhere" of the lead is not a directory (looked for /w/nowhere): create it (e.g. git worktree add) or fix "checkout"',
    ]],
    ['lanes that are no list', edit(10, 'lanes: lane-a').split('\n').slice(0, 10).join('\n'), ['10:8: "lanes" must be a list, got "lane-a"']],
    ['a lane without name', BASE.replace('  - name: lane-a\n    checkout: a', '  - checkout: a'), ['11:5: missing "name" in lanes[0]: name the lane, e.g. name: lane-a']],
    ['a lane without task', edit(13), ['11:5: missing "task" in lanes[0]: say what the lane does, e.g. task: "Steps 1-3 of PLAN.md"']],
    ['a lane with an empty task', edit(13, '    task: "  "'), ['13:11: "lanes[0].task" must be a non-empty string, got ""']],
    ['a task over 32 KiB', edit(13, `    task: "${'x'.repeat(32 * 1024 + 1)}"`), [
      '13:11: "lanes[0].task" is 32769 bytes, over the 32768 (32 KiB) a task may have: put the long text in PLAN.md and make the task point to it, e.g. task: "Steps 1-3 of PLAN.md"',
    ]],
    ['a task over 32 KiB in UTF-8 bytes', edit(13, `    task: "${'é'.repeat(16 * 1024)}x"`), [
      '13:11: "lanes[0].task" is 32769 bytes, over the 32768 (32 KiB) a task may have: put the long text in PLAN.md and make the task point to it, e.g. task: "Steps 1-3 of PLAN.md"',
    ]],
    ['an unsafe lane name', edit(11, '  - name: lane/a'), [`11:11: "lanes[0].name" must be ${NAME_RULE}, got "lane/a"`]],
    ['duplicate lane names', edit(14, '  - name: lane-a'), ['14:11: duplicate lane name "lane-a" (first at line 11): lane names must be unique']],
    ['a lane named like the lead', edit(14, '  - name: lead'), [`14:11: lane "lead" has the lead's name: give the lane (or lead.name) another name`]],
    ['a lane on the lead\'s account', edit(16, '    task: Steps 4-5', '    account: work1'), [
      `17:14: lane "lane-b" is on the lead's account "work1": the lead's account is never leased to a lane; pick another account or leave "account" out`,
    ]],
    ['a lane on an unknown account', edit(16, '    task: Steps 4-5', '    account: wrk2'), [
      '17:14: unknown account "wrk2" for lane "lane-b": the accounts are work1, work2, work3; did you mean "work2"?',
    ]],
    ['two lanes on one account', BASE.replace(/(Steps \d-\d)/g, '$1\n    account: work2'), [
      '18:14: lanes "lane-a" and "lane-b" both name account "work2": an account serves one lane at a time',
    ]],
    ['two lanes on one checkout', edit(15, '    checkout: ./a/'), ['15:15: lanes "lane-a" and "lane-b" share the checkout /w/a: give each lane its own (use git worktrees)']],
    ['two lanes on the default checkout', edit(15).replace('    checkout: a\n', ''), ['13:11: lanes "lane-a" and "lane-b" share the checkout /w: give each lane its own (use git worktrees)']],
    ['a lane checkout that is not a directory', edit(15, '    checkout: nowhere'), [
      '15:15: checkout "nowhere" of lane "lane-b" is not a directory (looked for /w/nowhere): create it (e.g. git worktree add) or fix "checkout"',
    ]],
    ['a lane command that is a number', edit(16, '    task: Steps 4-5', '    command: 5'), [`17:14: "lanes[1].command" must be ${COMMAND_RULE}, got 5`]],
    ['a lane command that is an empty list', edit(16, '    task: Steps 4-5', '    command: []'), [`17:14: "lanes[1].command" must be ${COMMAND_RULE}, got a list`]],
    ['a lane command with a non-string', edit(16, '    task: Steps 4-5', '    command: [node, 5]'), [`17:14: "lanes[1].command" must be ${COMMAND_RULE}, got a list`]],
    ['a done_when that is a list', edit(16, '    task: Steps 4-5', '    done_when: [npm, test]'), ['17:16: "lanes[1].done_when" must be a non-empty string, got a list']],
    ['a bad duration', append('timeouts: { accept: 10x }'), [`17:21: "timeouts.accept": bad duration "10x": ${DURATION_HELP}`]],
    ['a duration with a space', append('timeouts:', '  stall: 10 m'), [`18:10: "timeouts.stall": bad duration "10 m": ${DURATION_HELP}`]],
    ['a compound duration', append('timeouts:', '  stall: 1h30m'), [`18:10: "timeouts.stall": bad duration "1h30m": ${DURATION_HELP}`]],
    ['a negative duration', append('timeouts:', '  ask: -5'), [`18:8: "timeouts.ask": bad duration -5: ${DURATION_HELP}`]],
    ['a duration over 7 days', append('timeouts:', '  release: 600h'), ['18:12: "timeouts.release": duration "600h" is over the longest swarm waits, 168h (7 days): use at most 168h']],
    ['a zero duration', append('timeouts:', '  release: 0s'), ['18:12: "timeouts.release" must be longer than 0, got "0s"']],
    ['an empty duration', append('timeouts:', '  accept:'), [`18:3: "timeouts.accept": bad duration null: ${DURATION_HELP}`]],
    ['a percentage over 100', append('thresholds: { capacity_low: 120 }'), ['17:29: "thresholds.capacity_low" must be a percentage from 0 to 100, got 120']],
    ['a negative percentage', append('thresholds: { context_pressure: -1 }'), ['17:33: "thresholds.context_pressure" must be a percentage from 0 to 100, got -1']],
    ['a percentage as text', append('thresholds: { capacity_critical: "5%" }'), ['17:34: "thresholds.capacity_critical" must be a percentage from 0 to 100, got "5%"']],
    ['critical not below low', append('thresholds: { capacity_low: 20, capacity_critical: 20 }'), [
      '17:52: thresholds.capacity_critical=20 is not below thresholds.capacity_low=20: the critical threshold must be lower than the low one',
    ]],
    ['a window of 0', append('thresholds: { window: 0 }'), ['17:23: "thresholds.window" must be auto or a positive whole number of tokens, got 0']],
    ['a window as text', append('thresholds: { window: big }'), ['17:23: "thresholds.window" must be auto or a positive whole number of tokens, got "big"']],
    ['a headroom of 0', append('thresholds: { headroom: 0 }'), ['17:25: "thresholds.headroom" must be a positive whole number of tokens, got 0']],
    ['max_generations 0', append('thresholds: { max_generations: 0 }'), ['17:32: "thresholds.max_generations" must be a whole number of at least 1, got 0']],
    ['compact neither off nor auto', append('thresholds: { compact: on }'), ['17:24: "thresholds.compact" must be one of off, auto, got "on"']],
    ['compact as a boolean', append('thresholds: { compact: false }'), ['17:24: "thresholds.compact" must be one of off, auto, got false']],
    ['thresholds as a list', append('thresholds: [1]'), ['17:13: "thresholds" must be a mapping of keys, got a list']],
    ['a notify_command that is a list', append('notify_command: [ntfy]'), ['17:17: "notify_command" must be a non-empty string, got a list']],
    ['a pass_env that is a string', append('pass_env: GH_TOKEN'), ['17:11: "pass_env" must be a list, got "GH_TOKEN"']],
    ['a pass_env entry that is no variable name', append('pass_env: [GH_TOKEN, "MY-KEY", 3]'), [
      '17:22: "pass_env[1]" must be an environment variable name (letters, digits and "_", not starting with a digit), got "MY-KEY"',
      '17:32: "pass_env[2]" must be an environment variable name (letters, digits and "_", not starting with a digit), got 3',
    ]],
    ['a second document', `${BASE}---\nname: other\n`, [
      '17:1: a second YAML document starts here: a swarm.yaml is one document; remove this "---" and what follows, or merge it into the first',
    ]],
    ['a second document after a first ---', `---\n${BASE}---\n`, [
      '18:1: a second YAML document starts here: a swarm.yaml is one document; remove this "---" and what follows, or merge it into the first',
    ]],
  ])('%s', (_what, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it.each([
    ['SWARM_PACKET', 'swarm sets every SWARM_* variable of a pane itself (SPEC 4.1)'],
    ['TMUX', 'TMUX and TMUX_* tell tmux which server and pane it runs in'],
    ['TMUX_TMPDIR', 'TMUX and TMUX_* tell tmux which server and pane it runs in'],
    ['PATH', "swarm puts its own `swarm` first on a pane's PATH"],
    ['TERM', 'the pane host sets TERM; swarm reads the screen it draws'],
    ['NODE_OPTIONS', 'it changes how `swarm notify` and `swarm capacity` run in the pane'],
    ['LD_PRELOAD', 'it changes how every program in the pane runs'],
  ])('a reserved env name, %s, is refused', (name, why) => {
    expect(problems(edit(6, `  - { id: work2, kind: codex, env: { ${name}: /etc/passwd } }`))).toEqual([
      `6:38: "accounts[1].env.${name}" is reserved: ${why}; remove it (an account's env holds only its profile location)`,
    ]);
  });

  it.each([
    ['AGENTKIT_CAPACITY_LOW', 'abc', '17:1: AGENTKIT_CAPACITY_LOW=abc is not a percentage: expected a number from 0 to 100; unset it or set it to a number such as 25'],
    ['AGENTKIT_CAPACITY_CRITICAL', '150', '17:1: AGENTKIT_CAPACITY_CRITICAL=150 is not a percentage: expected a number from 0 to 100; unset it or set it to a number such as 10'],
    ['AGENTKIT_CAPACITY_LOW', '-3', '17:1: AGENTKIT_CAPACITY_LOW=-3 is not a percentage: expected a number from 0 to 100; unset it or set it to a number such as 25'],
    ['AGENTKIT_CAPACITY_CRITICAL', '40', '17:29: AGENTKIT_CAPACITY_CRITICAL=40 is not below thresholds.capacity_low=30: the critical threshold must be lower than the low one'],
  ])('%s=%s is a problem naming the variable', (variable, value, expected) => {
    expect(problems(append('thresholds: { capacity_low: 30 }'), { [variable]: value })).toEqual([expected]);
  });

  it('places an environment problem at 1:1 without a thresholds section', () => {
    expect(problems(BASE, { AGENTKIT_CAPACITY_LOW: '5', AGENTKIT_CAPACITY_CRITICAL: '9' })).toEqual([
      '1:1: AGENTKIT_CAPACITY_CRITICAL=9 is not below AGENTKIT_CAPACITY_LOW=5: the critical threshold must be lower than the low one',
    ]);
  });

  it('collects every problem in one pass, in file order', () => {
    const text = [
      'version: 2', 'name: demo', 'plan: nowhere', 'backend: docker',
      'accounts:', '  - { id: work1, kind: claude }', '  - { id: work1, kind: claud }',
      'lead: { account: work1 }',
      'lanes:', '  - { name: lead, task: x, account: work1 }', '  - { name: lane-b, tsak: y }',
      'timeouts: { accept: soon }',
    ].join('\n');
    expect(problems(text)).toEqual([
      '1:10: "version" must be 1 (the only version swarm reads), got 2',
      '3:7: plan directory "nowhere" not found (looked for /w/nowhere): create it with a PLAN.md, or fix "plan"',
      '4:10: "backend" must be one of auto, tmux, pty, got "docker"',
      '7:11: duplicate account id "work1" (first at line 6): account ids must be unique',
      '7:24: unknown kind "claud": no panes/claud.yaml beside swarm.yaml, and the shipped kinds are claude, codex, gemini, sim, command; did you mean "claude"?',
      `10:13: lane "lead" has the lead's name: give the lane (or lead.name) another name`,
      `10:37: lane "lead" is on the lead's account "work1": the lead's account is never leased to a lane; pick another account or leave "account" out`,
      '11:5: missing "task" in lanes[1]: say what the lane does, e.g. task: "Steps 1-3 of PLAN.md"',
      '11:21: unknown key "tsak" in lanes[1]; did you mean "task"?',
      '11:13: lanes "lead" and "lane-b" share the checkout /w: give each lane its own (use git worktrees)',
      `12:21: "timeouts.accept": bad duration "soon": ${DURATION_HELP}`,
    ].sort(byPosition));
  });
});

describe('parseConfig: accounts of a kind with no launch of its own (launch: null)', () => {
  const HINT = 'give it a command:, e.g. command: "./agent.sh" (a string runs by sh -c, a list is argv)';
  it('refuses a lane on such an account without a command', () => {
    expect(problems(edit(6, '  - { id: work2, kind: command }').replace('    task: Steps 4-5', '    task: Steps 4-5\n    account: work2'))).toEqual([
      `17:14: lane "lane-b" runs on account "work2" of kind "command", which has no launch of its own (launch: null in panes/command.yaml): ${HINT}`,
    ]);
  });

  it('refuses the lead on such an account without a command', () => {
    expect(problems(edit(5, '  - { id: work1, kind: command }'))).toEqual([
      `9:12: the lead runs on account "work1" of kind "command", which has no launch of its own (launch: null in panes/command.yaml): ${HINT}`,
    ]);
  });

  it('refuses a lane without account or command when every account it could get is such a one', () => {
    const text = edit(7, '  - { id: work3, kind: command }').replace('kind: codex', 'kind: command');
    expect(problems(text)).toEqual([
      `11:11: lane "lane-a" has no command: and every account it could run on (work2, work3) is of a kind with launch: null, so it could never start: ${HINT}, or add an account of a kind that launches itself`,
      `14:11: lane "lane-b" has no command: and every account it could run on (work2, work3) is of a kind with launch: null, so it could never start: ${HINT}, or add an account of a kind that launches itself`,
    ]);
  });

  it('takes such accounts in a pool of lanes without commands (they are never picked for those lanes)', () => {
    expect(config(edit(6, '  - { id: work2, kind: command }')).accounts.map((a) => a.kind)).toEqual(['claude', 'command', 'claude']);
  });

  it('takes a lane or lead with a command on such an account', () => {
    const text = edit(5, '  - { id: work1, kind: command }').replace('  account: work1', '  account: work1\n  command: ./lead.sh');
    expect(config(text).lead.command).toBe('./lead.sh');
  });
});

describe('parseConfig: a YAML alias bomb', () => {
  it('is refused quickly, at its first alias', { timeout: 2000 }, () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i += 1) levels.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    const text = append('thresholds:', ...levels.map((l) => `  ${l}`), 'notify_command: *a8');
    expect(problems(text)).toEqual([
      '19:12: too many YAML alias expansions (over 100: aliases of aliases multiply, a "billion laughs"): write the values out, or use fewer aliases',
    ]);
  });

  it('a few aliases are fine', () => {
    expect(config(`${edit(2, 'name: &n demo')}notify_command: *n\n`).notifyCommand).toBe('demo');
  });
});

function byPosition(a: string, b: string): number {
  const [la = 0, ca = 0] = a.split(':').map(Number);
  const [lb = 0, cb = 0] = b.split(':').map(Number);
  return la - lb || ca - cb;
}

describe('after: (SPEC 10.6), each problem at its entry', () => {
  it.each<[string, string, string[]]>([
    ['an unknown lane', edit(16, '    task: Steps 4-5', '    after: [lane-x]'), ['17:13: "after" of lane "lane-b" names "lane-x", which is no lane: the lanes are lane-a, lane-b; did you mean "lane-a"?']],
    ['the lane itself', edit(16, '    task: Steps 4-5', '    after: [lane-a, lane-b]'), ['17:21: lane "lane-b" cannot come after itself: remove "lane-b" from its "after"']],
    ['the lead', edit(16, '    task: Steps 4-5', '    after: [lead]'), ['17:13: "after" of lane "lane-b" names the lead "lead": "after" lists lanes, which the lane waits to be done']],
    ['a lane twice', edit(16, '    task: Steps 4-5', '    after: [lane-a, lane-a]'), ['17:21: lane "lane-b" names "lane-a" twice in "after": list each lane once']],
    ['a cycle', edit(16, '    task: Steps 4-5', '    after: [lane-a]').replace('    task: Steps 1-3', '    task: Steps 1-3\n    after: [lane-b]'),
      ['18:13: "after" makes a cycle: lane-a → lane-b → lane-a; no lane of it could ever start: remove one of these entries']],
    ['a name with a trailing space and CRLF lines', edit(16, '    task: Steps 4-5', '    after: ["lane-a "]').replace(/\n/g, '\r\n'), ['17:13: "lanes[1].after[0]" must be a name of letters, digits, ".", "_" and "-" that starts with a letter or digit, got "lane-a"']],
  ])('%s', (_name, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it('a valid order is kept; no after: is none', () => {
    const c = config(edit(16, '    task: Steps 4-5', '    after: [lane-a]'));
    expect(c.lanes.map((l) => l.after ?? [])).toEqual([[], ['lane-a']]);
  });
});

describe('review: (SPEC 10.6)', () => {
  it('reads review: true, {kind}, {command}, false and max_reviews', () => {
    const c = config(edit(16, '    task: Steps 4-5', '    review: true').replace('    task: Steps 1-3', '    task: Steps 1-3\n    review: { kind: codex, command: [node, review.mjs] }') + 'max_reviews: 2\n');
    expect(c.lanes.map((l) => l.review ?? null)).toEqual([{ kind: 'codex', command: ['node', 'review.mjs'] }, { kind: null, command: null }]);
    expect(c.maxReviews).toBe(2);
    expect(config(BASE).maxReviews).toBe(3);
    expect(config(edit(16, '    task: Steps 4-5', '    review: false')).lanes[1]!.review).toBeUndefined();
  });

  it.each<[string, string, string[]]>([
    ['no account of another vendor than the lane\'s', edit(16, '    task: Steps 4-5', '    account: work2', '    review: true').replace('  - { id: work3, kind: claude, vendor: anthropic }', '  - { id: work3, kind: codex, vendor: openai }'),
      ['18:13: lane "lane-b" is reviewed, but no account of a vendor other than openai (lane-b\'s work2) can review it, the lead\'s (work1) aside: declare one, or remove "review"']],
    ['no account of the kind asked for', edit(16, '    task: Steps 4-5', '    account: work3', '    review: { kind: codex }').replace('  - { id: work2, kind: codex, vendor: openai }', '  - { id: work2, kind: claude, vendor: anthropic }'),
      ['18:13: lane "lane-b" is reviewed, but no account of kind codex of a vendor other than anthropic (lane-b\'s work3) can review it, the lead\'s (work1) aside: declare one, or remove "review"']],
    ['an unknown kind', edit(16, '    task: Steps 4-5', '    review: { kind: codx }'),
      ['17:21: unknown kind "codx" for the reviewer: no panes/codx.yaml beside swarm.yaml, and the shipped kinds are claude, codex, gemini, sim, command; did you mean "codex"?']],
    ['an unknown key', edit(16, '    task: Steps 4-5', '    review: { knd: codex }'), ['17:15: unknown key "knd" in lanes[1].review; did you mean "kind"?']],
    ['not a mapping', edit(16, '    task: Steps 4-5', '    review: yes'), ['17:13: "lanes[1].review" must be a mapping of keys, got "yes"']],
    ['a lane named like a reviewer', edit(14, '  - name: lane-a.review'), ['14:11: lane "lane-a.review": a name ending in ".review" is a reviewer\'s (SPEC 10.6); rename the lane']],
    ['max_reviews 0', append('max_reviews: 0'), ['17:14: "max_reviews" must be a whole number of at least 1, got 0']],
  ])('%s', (_name, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it('a lane on no declared account is reviewable where two vendors are beside the lead', () => {
    expect(problems(edit(16, '    task: Steps 4-5', '    review: true'))).toEqual([]);
    const oneVendor = edit(16, '    task: Steps 4-5', '    review: true').replace('  - { id: work2, kind: codex, vendor: openai }', '  - { id: work2, kind: claude, vendor: anthropic }');
    expect(problems(oneVendor)).toEqual(['17:13: lane "lane-b" is reviewed, but no account of a vendor other than the one the lane runs on can review it, the lead\'s (work1) aside: declare one, or remove "review"']);
  });
});

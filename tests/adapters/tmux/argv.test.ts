import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { PaneSpec } from '../../../src/adapters/host.js';
import {
  agentCommand, attachCommand, bufferName, capturePane, dashboardPaneState, dashboardWindowArgv, deathRecordCommand, killDashboard, parseDashboardPane, formatLiteral, listLiteral, newSession, paneCommand, paneEnvArgs,
  paneLook, parseDeathValue, parsePaneList, parsePaneState, parseSpawned, parseWindows, pickAgentsWindow, sessionSetup,
  setBuffer, shellJoin, shellQuote, spawnTagged, tmuxJoin, tmuxQuote,
} from '../../../src/adapters/tmux/argv.js';

const spec: PaneSpec = {
  lane: 'lane-a', generation: 2, account: 'work2', role: 'lane', cwd: '/repo/lane a',
  argv: ['claude', '--append', "it's"], env: { SWARM_LANE: 'lane-a', ODD: 'a b' }, title: 'lane-a g2 @work2',
};

/** What `sh` makes of a command line: the words it passes to the program. */
const shWords = (line: string): string[] =>
  execFileSync('/bin/sh', ['-c', `for a in ${line}; do printf '%s\\0' "$a"; done`], { encoding: 'utf8' }).split('\0').slice(0, -1);

describe('shellQuote', () => {
  it.each([
    ['', "''"],
    ['plain', 'plain'],
    ['/usr/bin/node', '/usr/bin/node'],
    ['two words', "'two words'"],
    ['   ', "'   '"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
    ['a\nb', "'a\nb'"],
    ['trail ', "'trail '"],
    ['crlf\r\n', "'crlf\r\n'"],
    ['\u001b[31mred', "'\u001b[31mred'"],
    ['UPPER', 'UPPER'],
    ['~/x', "'~/x'"],
    ['*', "'*'"],
  ])('%j → %j', (arg, quoted) => {
    expect(shellQuote(arg)).toBe(quoted);
  });

  it('round-trips through a real sh', () => {
    const argv = ['', 'two words', "it's", '$HOME `x` "q"', 'a\nb', '\\back', '; rm -rf /', '\u001b[1m', 'UPPER  '];
    expect(shWords(shellJoin(argv))).toEqual(argv);
  });
});

describe('tmuxQuote', () => {
  it.each([
    ['', '""'],
    ['%12', '%12'],
    ['@swarm_lane', '@swarm_lane'],
    ['=swarm-demo:', '=swarm-demo:'],
    ['two words', '"two words"'],
    ['   ', '"   "'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['$HOME', '"\\$HOME"'],
    ['~/x', '"\\~/x"'],
    ['back\\slash', '"back\\\\slash"'],
    ['a\nb', '"a\\nb"'],
    ['crlf\r\n', '"crlf\\r\\n"'],
    ['tab\t', '"tab\\t"'],
    ['\u001b[31mred', '"\\033[31mred"'],
    ['#{pane_id}', '"#{pane_id}"'],
    ['{ x }', '"{ x }"'],
    ['UPPER', 'UPPER'],
    ['é ü', '"é ü"'],
  ])('%j → %j', (arg, quoted) => {
    expect(tmuxQuote(arg)).toBe(quoted);
  });

  it('joins a command line', () => {
    expect(tmuxJoin(['set-buffer', '-b', 'swarm-3', '--', 'hello world'])).toBe('set-buffer -b swarm-3 -- "hello world"');
  });
});

describe('builders', () => {
  it('runs the agent as the pane process through /bin/sh exec', () => {
    expect(paneCommand(['node', 'my agent.mjs'])).toEqual(['/bin/sh', '-c', "exec node 'my agent.mjs'"]);
    expect(paneCommand([])).toEqual([]);
  });

  it('starts an agent through env -i with only its names (values come as -e)', () => {
    expect(agentCommand(['claude', "it's"], { SWARM_LANE: 'lane-a', ODD: 'a b' })).toEqual(['/bin/sh', '-c',
      'exec /usr/bin/env -i ${SWARM_LANE+"SWARM_LANE=$SWARM_LANE"} ${ODD+"ODD=$ODD"} ${TERM+"TERM=$TERM"} ${TERM_PROGRAM+"TERM_PROGRAM=$TERM_PROGRAM"} ' +
      '${TERM_PROGRAM_VERSION+"TERM_PROGRAM_VERSION=$TERM_PROGRAM_VERSION"} ${TMUX+"TMUX=$TMUX"} ${TMUX_PANE+"TMUX_PANE=$TMUX_PANE"} claude \'it\'\\\'\'s\'']);
    expect(agentCommand([], { A: '1' })).toEqual([]);
    // env would take a program named like NAME=VALUE for one more assignment.
    expect(agentCommand(['./X=1', '-v'], {})[2]).toMatch(/ \/bin\/sh -c 'exec "\$@"' sh \.\/X=1 -v$/);
  });

  it.each<[string, Record<string, string>, string[], Record<string, string>]>([
    ['the pane environment exactly, whatever else the server had', { KEEP: 'a b"c$d\'e\nf', EMPTY: '' },
      ['/usr/bin/env'], { KEEP: 'a b"c$d\'e\nf', EMPTY: '', TERM: 'tmux-256color', TMUX: '/tmp/s,1,0', TMUX_PANE: '%4' }],
  ])('through a real sh: %s', (_name, env, argv, expected) => {
    const [sh, ...args] = agentCommand([...argv, '-0'], env);
    // What the pane has: the -e values, what tmux set, and what the server's global environment leaked in.
    const pane = { ...env, TERM: 'tmux-256color', TMUX: '/tmp/s,1,0', TMUX_PANE: '%4', MY_TOKEN: 'leak', PATH: process.env.PATH ?? '' };
    const out = execFileSync(sh!, args, { env: pane, encoding: 'utf8' });
    const seen = Object.fromEntries(out.split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    expect(seen).toEqual(expected);
  });

  it('creates a detached session with window 0 named swarm', () => {
    expect(newSession('swarm-demo')).toEqual(['new-session', '-d', '-s', 'swarm-demo', '-n', 'swarm', '-x', '200', '-y', '50',
      '--', '/bin/sh', '-c', 'exec tail -f /dev/null']);
  });

  it('splits and opens windows with cwd, env and the command, named in the same command list, the focus given back', () => {
    const tail = ['-P', '-F', '#{pane_id} #{pane_pid} #{window_id}', '-c', '/repo/lane a', '-e', 'SWARM_LANE=lane-a', '-e', 'ODD=a b',
      '--', ...agentCommand(spec.argv, spec.env)];
    const tag = (w: string) => [';', 'set-option', '-p', '-t', w, '@swarm_lane', 'lane-a', ';', 'set-option', '-p', '-t', w, '@swarm_generation', '2',
      ';', 'set-option', '-p', '-t', w, '@swarm_account', 'work2', ';', 'set-option', '-p', '-t', w, '@swarm_role', 'lane'];
    // The agents' window keeps its own size (200x50), whatever terminal is attached: before a split, after a new window.
    const sized = (w: string) => ['resize-window', '-t', w, '-x', '200', '-y', '50'];
    expect(spawnTagged({ kind: 'split', windowId: '@3' }, spec)).toEqual([...sized('@3'), ';', 'split-window', '-t', '@3', ...tail, ...tag('@3'), ';', 'last-pane', '-t', '@3']);
    expect(spawnTagged({ kind: 'new', session: 'swarm-demo', name: 'agents-2' }, spec)).toEqual([
      'new-window', '-d', '-t', '=swarm-demo:', '-n', 'agents-2', ...tail, ...tag('=swarm-demo:agents-2'), ';', ...sized('=swarm-demo:agents-2'),
    ]);
  });

  it.each([
    ['a command substitution', '/repo/wt-#(touch pwned)', '/repo/wt-##(touch pwned)'],
    ['a format', '/repo/wt-#{pane_id}', '/repo/wt-##{pane_id}'],
    ['a plain #', '/repo/wt-# one', '/repo/wt-## one'],
    ['an escaped ##', '/repo/##', '/repo/####'],
    ['no #', '/repo/lane a', '/repo/lane a'],
  ])('passes -c inert to tmux (it format-expands the folder): %s', (_name, cwd, given) => {
    for (const argv of [spawnTagged({ kind: 'split', windowId: '@3' }, { ...spec, cwd }), spawnTagged({ kind: 'new', session: 'swarm-demo', name: 'agents-2' }, { ...spec, cwd })]) {
      expect(argv[argv.indexOf('-c') + 1]).toBe(given);
    }
  });

  it.each([
    ['plain', 'a b', 'a b'],
    ['a trailing ;', 'task;', 'task\\;'],
    ['a trailing \\;', 'x\\;', 'x\\\\;'],
    ['a ; inside', 'a;b', 'a;b'],
    ['only ;', ';', '\\;'],
  ])('keeps an argument of a command list whole: %s', (_name, arg, given) => {
    expect(listLiteral(arg)).toBe(given);
  });

  it('never ends a command early on a value ending in ;', () => {
    const argv = spawnTagged({ kind: 'split', windowId: '@3' }, { ...spec, env: { SWARM_TASK: 'do it;' }, lane: 'l;' });
    expect(argv.filter((a) => a === ';')).toHaveLength(6);
    expect(argv).toContain('SWARM_TASK=do it\\;');
    expect(argv).toContain('l\\;');
  });

  it('sets the title and layout', () => {
    expect(paneLook('%7', '@2', { ...spec, title: 'lane #1 g2' })).toEqual([
      ['select-pane', '-t', '%7', '-T', 'lane ##1 g2'],
      ['select-layout', '-t', '@2', 'tiled'],
    ]);
  });

  it('sets up the session: history first, remain-on-exit, the border, the death hook', () => {
    const steps = sessionSetup('swarm-demo', { historyLimit: 4000, paneDeathFile: "/tmp/a dir/it's #1.jsonl" });
    expect(steps.map((s) => s.slice(0, -1))).toEqual([
      ['set-option', '-t', 'swarm-demo', 'history-limit'],
      ['set-option', '-g', '-w', 'remain-on-exit'],
      ['set-option', '-g', '-w', 'pane-border-status'],
      ['set-option', '-g', '-w', 'pane-border-format'],
      ['set-hook', '-t', 'swarm-demo', 'pane-died'],
    ]);
    expect(steps[0]?.at(-1)).toBe('4000');
    expect(steps[3]?.at(-1)).toContain('#{@swarm_lane} g#{@swarm_generation} @#{@swarm_account}');
    expect(steps[4]?.at(-1)).toBe(tmuxJoin(['run-shell', '-b', deathRecordCommand("/tmp/a dir/it's #1.jsonl")]));
  });

  it('writes the death record with a literal file name', () => {
    expect(deathRecordCommand("/tmp/a dir/it's #1.jsonl")).toBe(
      `printf '{"kind":"pane_died","pane":"%s","status":%s,"signal":%s,"ts":"%s"}\\n' '#{hook_pane}' ` +
      `'#{?#{==:#{pane_dead_status},},null,#{pane_dead_status}}' '#{?#{==:#{pane_dead_signal},},null,#{pane_dead_signal}}' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> '/tmp/a dir/it'\\''s ##1.jsonl'`);
  });

  it.each([
    [0, '-0'], [200, '-200'], [-5, '-0'], [2.7, '-2'],
  ])('captures with %j lines of history', (history, start) => {
    expect(capturePane('%4', history)).toEqual(['capture-pane', '-p', '-J', '-t', '%4', '-S', start]);
  });

  it('names a paste buffer after the pane and ends options before the data', () => {
    expect(bufferName('%12')).toBe('swarm-12');
    expect(setBuffer('swarm-12', '-rf')).toEqual(['set-buffer', '-b', 'swarm-12', '--', '-rf']);
  });

  it.each([
    ['plain', 'plain'], ['#{x}', '##{x}'], ['', ''], ['##', '####'],
  ])('formatLiteral(%j) → %j', (text, out) => {
    expect(formatLiteral(text)).toBe(out);
  });
});

describe('parsers', () => {
  it.each([
    ['%12 4242 @3', { paneId: '%12', pid: 4242, windowId: '@3' }],
    ['%12 4242 @3\r', { paneId: '%12', pid: 4242, windowId: '@3' }],
    ['  %1  ', null],
    ['', null],
    [undefined, null],
    ['%1 12 @2 extra', null],
  ])('parseSpawned(%j)', (line, expected) => {
    if (expected) expect(parseSpawned(line)).toEqual(expected);
    else expect(() => parseSpawned(line)).toThrow(`tmux printed no pane for the new agent: "${line ?? ''}"`);
  });

  const row = (...fields: string[]): string => fields.join('\t');
  it.each([
    ['empty', [], []],
    ['blank line', [''], []],
    ['whitespace only', ['   '], []],
    ['a pane without swarm identity', [row('%0', '', '', '', '0', '', '100', '')], []],
    ['a live swarm pane', [row('%3', 'lane-a', '1', 'work1', '0', '', '321', '')],
      [{ paneId: '%3', lane: 'lane-a', generation: 1, account: 'work1', dead: false, deadStatus: null, pid: 321 }]],
    ['a dead one, CRLF', [row('%4', 'lane-b', '2', 'work2', '1', '3', '', '') + '\r'],
      [{ paneId: '%4', lane: 'lane-b', generation: 2, account: 'work2', dead: true, deadStatus: 3, pid: null }]],
    ['killed by a signal', [row('%5', 'LEAD', '1', 'w', '1', '', '9', '9')],
      [{ paneId: '%5', lane: 'LEAD', generation: 1, account: 'w', dead: true, deadStatus: null, pid: 9, deadSignal: 9 }]],
    ['a signal of a live pane is no death', [row('%9', 'x', '1', 'w', '0', '', '1', '15')],
      [{ paneId: '%9', lane: 'x', generation: 1, account: 'w', dead: false, deadStatus: null, pid: 1 }]],
    ['the fields of an older tmux format (no signal) are no row', [row('%5', 'LEAD', '1', 'w', '1', '', '9')], []],
    ['trailing spaces in a value kept', [row('%6', 'x ', '1', 'w ', '0', '', '1', '')],
      [{ paneId: '%6', lane: 'x ', generation: 1, account: 'w ', dead: false, deadStatus: null, pid: 1 }]],
    ['an ANSI-coloured line is not a row', ['\u001b[31m%7\tlane\t1\tw\t0\t\t1\t'], []],
    ['too few fields', [row('%8', 'lane')], []],
  ])('parsePaneList: %s', (_name, lines, expected) => {
    expect(parsePaneList(lines)).toEqual(expected);
  });

  it.each([
    ['rows', ['@0\tswarm\t1', '@1\tagents-1\t6\r'], [{ windowId: '@0', name: 'swarm', panes: 1 }, { windowId: '@1', name: 'agents-1', panes: 6 }]],
    ['junk', ['', '  ', 'x\ty\tz', '@2\tagents-2'], []],
  ])('parseWindows: %s', (_name, lines, expected) => {
    expect(parseWindows(lines)).toEqual(expected);
  });

  const w = (windowId: string, name: string, panes: number) => ({ windowId, name, panes });
  it.each([
    ['no agents window yet', [w('@0', 'swarm', 1)], { kind: 'new', name: 'agents-1' }],
    ['room in agents-1', [w('@0', 'swarm', 1), w('@1', 'agents-1', 5)], { kind: 'split', windowId: '@1' }],
    ['agents-1 full', [w('@1', 'agents-1', 6)], { kind: 'new', name: 'agents-2' }],
    ['a gap in an earlier window is filled', [w('@4', 'agents-2', 1), w('@1', 'agents-1', 3)], { kind: 'split', windowId: '@1' }],
    ['numbers, not text order', [w('@1', 'agents-9', 6), w('@2', 'agents-10', 6)], { kind: 'new', name: 'agents-11' }],
    ['other names are not agents windows', [w('@1', 'AGENTS-1', 1), w('@2', 'agents-x', 1)], { kind: 'new', name: 'agents-1' }],
  ])('pickAgentsWindow: %s', (_name, windows, expected) => {
    expect(pickAgentsWindow(windows)).toEqual(expected);
  });

  it('pickAgentsWindow: a window that had no space for a pane counts as full', () => {
    expect(pickAgentsWindow([w('@1', 'agents-1', 2), w('@2', 'agents-2', 1)], 6, ['@1'])).toEqual({ kind: 'split', windowId: '@2' });
    expect(pickAgentsWindow([w('@1', 'agents-1', 2), w('@2', 'agents-2', 1)], 6, ['@1', '@2'])).toEqual({ kind: 'new', name: 'agents-3' });
  });

  it.each([
    ['%3 0 0 5 10', { inMode: false, dead: false, cursor: '5,10' }],
    ['%3 1 0 0 0\r\n', { inMode: true, dead: false, cursor: '0,0' }],
    ['%3 0 1 2 3', { inMode: false, dead: true, cursor: '2,3' }],
    ['%30 0 0 1 1', null],
    [' 0 0 1 1', null],
    ['', null],
    [undefined, null],
  ])('parsePaneState(%j)', (line, expected) => {
    expect(parsePaneState('%3', line)).toEqual(expected);
  });

  it.each([
    ['1:3:', { dead: true, status: 3, signal: null }],
    ['1:0:', { dead: true, status: 0, signal: null }],
    ['1::15', { dead: true, status: null, signal: 15 }],
    ['1::SIGTERM', { dead: true, status: null, signal: null }],
    ['1::', { dead: false, status: null, signal: null }],
    ['0::', { dead: false, status: null, signal: null }],
    [' 1:7: \r', { dead: true, status: 7, signal: null }],
    ['1::9 \r', { dead: true, status: null, signal: 9 }],
    ['1', { dead: false, status: null, signal: null }],
    ['', { dead: false, status: null, signal: null }],
  ])('parseDeathValue(%j)', (value, expected) => {
    expect(parseDeathValue(value)).toEqual(expected);
  });
});

describe('paneEnvArgs', () => {
  it.each<[string, NodeJS.ProcessEnv, string[]]>([
    ['empty', {}, []],
    ['sorted, as -e pairs', { B: '2', A: '1' }, ['-e', 'A=1', '-e', 'B=2']],
    ['values kept verbatim: spaces, newlines, quotes', { MSG: "a b\nc 'd'" }, ['-e', "MSG=a b\nc 'd'"]],
    ['tmux, terminal and CI variables left out', { TMUX: '/tmp/t,1,0', TMUX_PANE: '%1', TERM: 'xterm', TERM_PROGRAM: 'x', CI: 'true', CONTINUOUS_INTEGRATION: '1', COLUMNS: '80', LINES: '24', HOME: '/h' }, ['-e', 'HOME=/h']],
    ['undefined values left out', { A: undefined, B: '' }, ['-e', 'B=']],
  ])('%s', (_name, env, expected) => {
    expect(paneEnvArgs(env)).toEqual(expected);
  });
});

describe('attachCommand', () => {
  it.each<[string, NodeJS.ProcessEnv, string[]]>([
    ['with the terminal\'s TERM', { TERM: 'screen', TMUX: '/tmp/t,1,0' }, ['env', '-u', 'TMUX', '-u', 'TMUX_PANE', 'tmux', '-u', '-L', 'swarm', 'attach-session', '-t', '=swarm-x']],
    ['without one, a TERM', {}, ['env', '-u', 'TMUX', '-u', 'TMUX_PANE', 'TERM=xterm-256color', 'tmux', '-u', '-L', 'swarm', 'attach-session', '-t', '=swarm-x']],
    ['an empty TERM is none', { TERM: '' }, ['env', '-u', 'TMUX', '-u', 'TMUX_PANE', 'TERM=xterm-256color', 'tmux', '-u', '-L', 'swarm', 'attach-session', '-t', '=swarm-x']],
  ])('%s', (_name, env, expected) => {
    expect(attachCommand('swarm', 'swarm-x', env)).toEqual(expected);
  });

  it('through a real env: the client gets no TMUX or TMUX_PANE, a TERM, and the rest as it was', () => {
    const argv = attachCommand('swarm', 'swarm-x', {});
    const [env, ...args] = argv.slice(0, argv.indexOf('tmux'));
    const out = execFileSync(env!, [...args, 'env', '-0'], { env: { TMUX: '/tmp/t,1,0', TMUX_PANE: '%3', KEEP: 'a b', PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
    expect(out.split('\0').filter(Boolean).sort()).toEqual(['KEEP=a b', `PATH=${process.env.PATH ?? ''}`, 'TERM=xterm-256color']);
  });
});

describe('dashboardWindowArgv', () => {
  const cmd = ['/bin/sh', '-c', 'loop'];
  const env = ['-e', 'A=1'];
  it.each<[string, string | null, string[]]>([
    ['no session: a new one, window 0 named swarm at the terminal size', null,
      ['new-session', '-d', '-s', 'swarm-demo', '-n', 'swarm', '-x', '120', '-y', '40', '-c', '/repo', '-e', 'A=1', '--', '/bin/sh', '-c', 'loop']],
    ['a session without the window: a new window named swarm', '',
      ['new-window', '-d', '-t', '=swarm-demo:', '-n', 'swarm', '-c', '/repo', '-e', 'A=1', '--', '/bin/sh', '-c', 'loop']],
    ['the window there (placeholder or dead loop): respawned', '@3',
      ['respawn-window', '-k', '-t', '@3', '-c', '/repo', '-e', 'A=1', '--', '/bin/sh', '-c', 'loop']],
  ])('%s', (_name, window, expected) => {
    expect(dashboardWindowArgv('swarm-demo', window, '/repo', env, cmd, { columns: 120, rows: 40 })).toEqual(expected);
  });

  it.each([null, '', '@3'])('passes the folder inert to tmux (window %j)', (window) => {
    const argv = dashboardWindowArgv('swarm-demo', window, '/repo/#(touch pwned) #{pane_id} #', env, cmd, { columns: 120, rows: 40 });
    expect(argv[argv.indexOf('-c') + 1]).toBe('/repo/##(touch pwned) ##{pane_id} ##');
  });
});

describe('window 0 as `swarm up --detach` watches it', () => {
  it('asks for its pane by the window\'s exact name, and closes the window the same way', () => {
    expect(dashboardPaneState('swarm-demo')).toEqual(['display-message', '-p', '-t', '=swarm-demo:=swarm', '#{pane_dead} #{pane_dead_status}']);
    expect(killDashboard('swarm-demo')).toEqual(['kill-window', '-t', '=swarm-demo:=swarm']);
  });

  it.each<[string[], { dead: boolean; status: number | null }]>([
    [['0 '], { dead: false, status: null }],
    [['1 0'], { dead: true, status: 0 }],
    [['1 5\r'], { dead: true, status: 5 }],
    [['1 '], { dead: true, status: null }],
    [[], { dead: false, status: null }],
  ])('%j → %j', (lines, want) => {
    expect(parseDashboardPane(lines)).toEqual(want);
  });
});

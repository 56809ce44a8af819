import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { claudeSettings, HOOK_EVENTS, shellWord, userStatusLine } from '../../src/kinds/claude/launch.js';
import { codexNotify } from '../../src/kinds/codex/launch.js';
import { userNotify } from '../../src/kinds/codex/toml.js';
import { loadKinds } from '../../src/kinds/index.js';

const KINDS = await loadKinds([]);
/** A kind's own environment, through its Kind. */
const kindEnv = (kind: string, compact: 'off' | 'auto'): Record<string, string> => KINDS(kind).launch.env(compact);

/** What sh makes of a command line: its words, as argv (the real sh, not a model of it). */
function words(command: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellWord', () => {
  it.each([
    ['/opt/swarm/bin/swarm', '/opt/swarm/bin/swarm'],
    ['/home/my dev/swarm', "'/home/my dev/swarm'"],
    ["/it's/#1/$HOME/`x`", "'/it'\\''s/#1/$HOME/`x`'"],
    ['', "''"],
  ])('%j → %s', (word, quoted) => {
    expect(shellWord(word)).toBe(quoted);
    expect(words(quoted)).toEqual([word]);
  });
});

describe('claudeSettings', () => {
  const BIN = "/home/my dev/it's #1/.swarm/bin/swarm";

  it('has swarm\'s status line and one hook command per event, quoted for the shell', () => {
    const settings = JSON.parse(claudeSettings(BIN, null)) as { statusLine: { type: string; command: string }; hooks: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]> };
    expect(settings.statusLine.type).toBe('command');
    expect(words(settings.statusLine.command)).toEqual([BIN, 'statusline']);
    expect(Object.keys(settings.hooks)).toEqual([...HOOK_EVENTS]);
    expect(HOOK_EVENTS).toEqual(['SessionStart', 'Stop', 'StopFailure', 'Notification', 'PermissionRequest', 'PreCompact']);
    for (const event of HOOK_EVENTS) {
      const [group] = settings.hooks[event]!;
      expect(group!.hooks.map((h) => [h.type, words(h.command)])).toEqual([['command', [BIN, 'hook', event]]]);
    }
  });

  it.each([
    ['a plain command', '~/.claude/statusline.sh'],
    ['a pipeline with quotes', `jq -r '.model.display_name' | sed "s/^/[/"`],
    ['a # and a newline', 'echo "#1"\necho two'],
  ])('runs the user\'s status line after its own: %s', (_name, userLine) => {
    const settings = JSON.parse(claudeSettings(BIN, userLine)) as { statusLine: { command: string } };
    expect(words(settings.statusLine.command)).toEqual([BIN, 'statusline', '--then', userLine]);
  });

  it('never sets what answers a screen in the agent\'s place', () => {
    const text = claudeSettings(BIN, 'x');
    expect(text).not.toMatch(/skipDangerousModePermissionPrompt|IS_SANDBOX|dangerously/i);
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(['hooks', 'statusLine']);
  });
});

describe('userStatusLine', () => {
  it.each([
    ['no files', [null, null], null],
    ['no status line', ['{"model":"opus"}'], null],
    ['a command', ['{"statusLine":{"type":"command","command":"~/sl.sh","padding":1}}'], '~/sl.sh'],
    ['without a type', ['{"statusLine":{"command":"sl"}}'], 'sl'],
    ['another type', ['{"statusLine":{"type":"static","command":"sl"}}'], null],
    ['a blank command', ['{"statusLine":{"type":"command","command":"  "}}'], null],
    ['not JSON, then a good one', ['{ nope', '{"statusLine":{"command":"b"}}'], 'b'],
    ['the first that sets one wins', [null, '{"statusLine":{"command":"project"}}', '{"statusLine":{"command":"user"}}'], 'project'],
    ['null JSON', ['null'], null],
  ])('%s', (_name, texts, command) => {
    expect(userStatusLine(texts)).toBe(command);
  });
});

describe('codexNotify', () => {
  const BIN = '/home/my dev/"q"/#1/swarm';

  it('calls swarm\'s hook, the path TOML-quoted', () => {
    const toml = codexNotify(BIN, null);
    expect(toml).toBe('["/home/my dev/\\"q\\"/#1/swarm","hook","codex-notify"]');
    expect(userNotify(`notify = ${toml}`)).toEqual([BIN, 'hook', 'codex-notify']);
  });

  it('passes the user\'s notify as a JSON argv after --then', () => {
    const theirs = ['notify-send', 'Codex "done"', 'é'];
    const argv = userNotify(`notify = ${codexNotify(BIN, theirs)}`);
    expect(argv).toEqual([BIN, 'hook', 'codex-notify', '--then', JSON.stringify(theirs)]);
    expect(JSON.parse(argv![4]!)).toEqual(theirs);
  });

  it('an empty user notify is none', () => {
    expect(codexNotify(BIN, [])).toBe(codexNotify(BIN, null));
  });
});

describe('kindEnv', () => {
  it.each([
    ['claude', 'off', { DISABLE_AUTOUPDATER: '1', DISABLE_AUTO_COMPACT: '1' }],
    ['claude', 'auto', { DISABLE_AUTOUPDATER: '1' }],
    ['codex', 'off', {}],
    ['sim', 'off', {}],
    ['command', 'auto', {}],
  ] as const)('%s with compact %s', (kind, compact, env) => {
    expect(kindEnv(kind, compact)).toEqual(env);
    expect(Object.keys(kindEnv(kind, compact))).not.toContain('IS_SANDBOX');
  });
});

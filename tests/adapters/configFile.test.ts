import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { findKindFile, loadConfig, shippedPanesDir } from '../../src/adapters/configFile.js';
import { KNOWN_KEYS, SHIPPED_KINDS } from '../../src/core/config/config.js';
import { ConfigError, UsageError } from '../../src/errors.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const GOOD = [
  'version: 1',
  'name: t',
  'plan: plan',
  'accounts:',
  '  - { id: a1, kind: sim, vendor: x, env: { SIM_HOME: ~/sim } }',
  '  - { id: a2, kind: mine }',
  'lead: { account: a1 }',
  'lanes:',
  '  - { name: lane-a, checkout: work/a, task: do it }',
  '',
].join('\n');

const MINE = 'kind: mine\nlaunch:\n  command: [mine, "{brief}"]\n  prompt: argument\n';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swarm-config-'));
  mkdirSync(join(dir, 'sub', 'plan'), { recursive: true });
  mkdirSync(join(dir, 'sub', 'work', 'a'), { recursive: true });
  mkdirSync(join(dir, 'sub', 'panes'));
  writeFileSync(join(dir, 'sub', 'panes', 'mine.yaml'), MINE);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('loadConfig', () => {
  it('reads the file as given, relative to cwd, with kinds beside it and shipped', () => {
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), GOOD);
    const config = loadConfig('sub/swarm.yaml', { cwd: dir, env: { HOME: '/home/t' } });
    expect(config.file).toBe(join(dir, 'sub', 'swarm.yaml'));
    expect(config.plan).toBe(join(dir, 'sub', 'plan'));
    expect(config.lanes[0]?.checkout).toBe(join(dir, 'sub', 'work', 'a'));
    expect(config.lead.checkout).toBe(join(dir, 'sub'));
    expect(config.accounts.map((a) => [a.kind, a.env])).toEqual([['sim', { SIM_HOME: '/home/t/sim' }], ['mine', {}]]);
  });

  it('takes a folder to mean the swarm.yaml inside it', () => {
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), GOOD);
    expect(loadConfig('sub', { cwd: dir, env: {} }).name).toBe('t');
  });

  it.each([
    ['CRLF', GOOD.replace(/\n/g, '\r\n')],
    ['a BOM', `\uFEFF${GOOD}`],
  ])('loads a file with %s', (_what, text) => {
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), text);
    expect(loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }).lanes).toHaveLength(1);
  });

  it('applies the environment overrides it is given', () => {
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), GOOD);
    const config = loadConfig('sub/swarm.yaml', { cwd: dir, env: { AGENTKIT_CAPACITY_LOW: '40' } });
    expect(config.thresholds.capacityLow).toBe(40);
  });

  it('refuses a missing file with a usage error (exit 2)', () => {
    const error = thrown(() => loadConfig('nope.yaml', { cwd: dir, env: {} }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as UsageError).message).toBe('swarm.yaml not found: nope.yaml — pass a file, or run in a folder that has one');
  });

  it('prints every problem as FILE:LINE:COL with FILE as given', () => {
    const bad = GOOD.replace('plan: plan', 'plan: plans/x').replace('kind: mine', 'kind: theirs').replace('work/a', 'work/b');
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), bad);
    const error = thrown(() => loadConfig('sub/swarm.yaml', { cwd: dir, env: { AGENTKIT_CAPACITY_CRITICAL: 'x' } }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).problems).toEqual([
      `sub/swarm.yaml:1:1: AGENTKIT_CAPACITY_CRITICAL=x is not a percentage: expected a number from 0 to 100; unset it or set it to a number such as 10`,
      `sub/swarm.yaml:3:7: plan directory "plans/x" not found (looked for ${join(dir, 'sub', 'plans', 'x')}): create it with a PLAN.md, or fix "plan"`,
      'sub/swarm.yaml:6:21: unknown kind "theirs": no panes/theirs.yaml beside swarm.yaml, and the shipped kinds are claude, codex, gemini, sim, command',
      `sub/swarm.yaml:9:31: checkout "work/b" of lane "lane-a" is not a directory (looked for ${join(dir, 'sub', 'work', 'b')}): create it (e.g. git worktree add) or fix "checkout"`,
    ]);
  });

  it('says an empty file is empty', () => {
    writeFileSync(join(dir, 'swarm.yaml'), '');
    expect((thrown(() => loadConfig('swarm.yaml', { cwd: dir, env: {} })) as ConfigError).problems).toEqual([
      'swarm.yaml:1:1: the file is empty: a swarm.yaml needs version: 1, name, plan, accounts, lead and lanes',
    ]);
  });
});

describe('loadConfig: files it will not read', () => {
  it('refuses a swarm.yaml over 1 MiB, and reads one of exactly 1 MiB', () => {
    const pad = (n: number) => `${GOOD}#${'x'.repeat(n - GOOD.length - 2)}\n`;
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), pad(1024 * 1024));
    expect(loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }).name).toBe('t');
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), pad(1024 * 1024 + 1));
    const error = thrown(() => loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('sub/swarm.yaml is 1048577 bytes, over the 1048576 (1 MiB) a swarm.yaml may have: is it the right file?');
  });

  it('refuses a kind file over 1 MiB, naming it', () => {
    writeFileSync(join(dir, 'sub', 'swarm.yaml'), GOOD);
    writeFileSync(join(dir, 'sub', 'panes', 'mine.yaml'), `${MINE}#${'x'.repeat(1024 * 1024)}\n`);
    const big = thrown(() => loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }));
    expect(big).toBeInstanceOf(UsageError);
    expect((big as UsageError).message).toBe(`sub/panes/mine.yaml is 1048645 bytes, over the 1048576 (1 MiB) a kind file may have: is it the right file?`);
  });
});

describe('loadConfig: every kind an account names is checked with the file', () => {
  const SUB = (): string => join(dir, 'sub');
  const load = (kindText: string, config = GOOD): unknown => {
    writeFileSync(join(SUB(), 'swarm.yaml'), config);
    writeFileSync(join(SUB(), 'panes', 'mine.yaml'), kindText);
    return thrown(() => loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }));
  };
  const file = (): string => 'sub/panes/mine.yaml';

  it.each([
    ['an empty file', '', ['1:1: the file is empty: a kind file needs at least kind: and launch:']],
    ['no kind', 'launch: null\n', ['1:1: missing "kind": the kind\'s name, the same as the file\'s base name']],
    ['another kind name', 'kind: yours\n', ['1:7: "kind" is "yours" but the file is mine.yaml: make them the same']],
    ['an unknown key', 'kind: mine\nscreen: {}\n', ['2:1: unknown key "screen"; did you mean "screens"?']],
    ['a bad regular expression', 'kind: mine\nscreens:\n  login: ["not (logged"]\n', [
      '3:11: "screens.login[0]" is not a valid regular expression (Unterminated group): quote it in \'…\' and escape ( ) [ ] ? . with \\',
    ]],
  ])('%s is a problem at KINDFILE:LINE:COL (exit 2)', (_what, text, expected) => {
    const error = load(text);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).problems).toEqual(expected.map((p) => `${file()}:${p}`));
  });

  it("reports the kind's problems together with swarm.yaml's, swarm.yaml first", () => {
    const error = load('kind: mine\nscreen: {}\n', GOOD.replace('name: t', 'name: "a b"'));
    expect((error as ConfigError).problems).toEqual([
      'sub/swarm.yaml:2:7: "name" must be a name of letters, digits, "_" and "-" (no "." or ":": tmux changes those in session names), got "a b"',
      `${file()}:2:1: unknown key "screen"; did you mean "screens"?`,
    ]);
  });

  it('with checkKinds: false (down, attach, logs, status) a broken kind file does not stop the command', () => {
    writeFileSync(join(SUB(), 'swarm.yaml'), GOOD);
    writeFileSync(join(SUB(), 'panes', 'sim.yaml'), 'kind: sim\nidle: busy\n');
    expect(loadConfig('sub/swarm.yaml', { cwd: dir, env: {}, checkKinds: false }).name).toBe('t');
    expect(thrown(() => loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }))).toBeInstanceOf(ConfigError);
  });

  it('checks a shipped kind the config overrides, and leaves unnamed kinds alone', () => {
    writeFileSync(join(SUB(), 'panes', 'codex.yaml'), 'nonsense: [\n');
    writeFileSync(join(SUB(), 'swarm.yaml'), GOOD);
    expect(loadConfig('sub/swarm.yaml', { cwd: dir, env: {} }).name).toBe('t');
    writeFileSync(join(SUB(), 'panes', 'sim.yaml'), 'kind: sim\nidle: busy\n');
    expect((thrown(() => loadConfig('sub/swarm.yaml', { cwd: dir, env: {} })) as ConfigError).problems).toEqual([
      `sub/panes/sim.yaml:2:7: "idle" must be a mapping of keys, got "busy"`,
    ]);
  });
});

describe('kind files', () => {
  it('finds a kind beside the file before the shipped one, and refuses unsafe names', () => {
    writeFileSync(join(dir, 'sub', 'panes', 'sim.yaml'), 'kind: sim\n');
    expect(findKindFile('sim', join(dir, 'sub'))).toBe(join(dir, 'sub', 'panes', 'sim.yaml'));
    expect(findKindFile('sim', dir)).toBe(join(shippedPanesDir(), 'sim.yaml'));
    expect(findKindFile('mine', dir)).toBeNull();
    expect(findKindFile('../sub/panes/mine', join(dir, 'sub', 'panes'))).toBeNull();
  });

  it('ships exactly the kinds the core names', () => {
    expect(shippedPanesDir()).toBe(join(ROOT, 'panes'));
    expect(readdirSync(shippedPanesDir()).sort()).toEqual(SHIPPED_KINDS.map((k) => `${k}.yaml`).sort());
  });

  it.each(SHIPPED_KINDS.map((k) => [k]))('panes/%s.yaml is YAML naming itself, with regexes that compile', (kind) => {
    const doc = parseDocument(readFileSync(join(ROOT, 'panes', `${kind}.yaml`), 'utf8'));
    expect(doc.errors).toEqual([]);
    const data = doc.toJSON() as { kind: string; launch: { prompt: string } | null; screens: Record<string, string[]> };
    expect(data.kind).toBe(kind);
    expect(data.screens.overflow?.length).toBeGreaterThan(0);
    if (data.launch !== null) expect(['argument', 'paste', 'file']).toContain(data.launch.prompt);
    for (const pattern of Object.values(data.screens).flat()) expect(() => new RegExp(pattern, 'i')).not.toThrow();
  });
});

describe('the shipped demo', () => {
  it('validates with the real adapter', () => {
    const config = loadConfig('swarm.yaml', { cwd: ROOT, env: {} });
    expect(config.name).toBe('demo');
    expect(config.plan).toBe(join(ROOT, 'plans', 'demo'));
    expect(config.lanes.map((l) => [l.name, l.checkout])).toEqual(
      ['lane-a', 'lane-b', 'lane-c', 'lane-d'].map((name) => [name, join(ROOT, 'plans', 'demo', 'work', name)]),
    );
    expect(config.accounts.length).toBeGreaterThanOrEqual(5);
    expect(new Set(config.accounts.map((a) => a.vendor)).size).toBe(2);
    expect(config.accounts.every((a) => a.kind === 'sim')).toBe(true);
  });

  it('names its schema on the first line and its contract in PLAN.md', () => {
    expect(readFileSync(join(ROOT, 'swarm.yaml'), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=./schema/swarm.schema.json');
    expect(readFileSync(join(ROOT, 'plans', 'demo', 'PLAN.md'), 'utf8').startsWith('---\ncontract: demo-v1\n---\n')).toBe(true);
  });
});

describe('the JSON Schema', () => {
  interface Schema { properties?: Record<string, Schema & { $ref?: string; description?: string }>; $defs?: Record<string, Schema>; additionalProperties?: unknown; description?: string }
  const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'swarm.schema.json'), 'utf8')) as Schema & { $schema: string };
  const defs = schema.$defs ?? {};

  it.each([
    ['top', schema],
    ['account', defs.account],
    ['lead', defs.lead],
    ['lane', defs.lane],
    ['host', defs.host],
    ['thresholds', defs.thresholds],
    ['timeouts', defs.timeouts],
  ] as const)('%s has exactly the keys the loader knows, each described, nothing else allowed', (section, node) => {
    expect(Object.keys(node?.properties ?? {})).toEqual([...KNOWN_KEYS[section]]);
    expect(node?.additionalProperties).toBe(false);
    for (const [key, property] of Object.entries(node?.properties ?? {})) {
      const target = property.$ref === undefined ? property : defs[property.$ref.replace('#/$defs/', '')];
      expect(property.description ?? target?.description, `${section}.${key}`).toBeTruthy();
    }
  });

  it('is draft 2020-12', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});

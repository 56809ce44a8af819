import { describe, expect, it } from 'vitest';
import { accountId, laneNames, scaffold, swarmName } from '../../../src/core/init/scaffold.js';
import { parseConfig, SHIPPED_KINDS } from '../../../src/core/config/config.js';

/** Every directory exists (the worktrees are made after the file is written), every shipped kind too. */
const parseConfigText = (text: string) => {
  const r = parseConfig(text, '/w/app/swarm.yaml', { isDirectory: () => true, kindExists: (k) => (SHIPPED_KINDS as readonly string[]).includes(k), kindLaunches: (k) => k !== 'command', home: '/home/u', env: {} });
  return { problems: r.ok ? [] : r.problems };
};

describe('swarm init: the scaffold', () => {
  it('names fit SPEC 10.1: the repository name made plain; lanes lane-a…; accounts from profile folders', () => {
    expect(swarmName('my.app v2')).toBe('my-app-v2');
    expect(swarmName('...')).toBe('swarm');
    expect(swarmName('x'.repeat(80))).toHaveLength(64);
    expect(laneNames(3)).toEqual(['lane-a', 'lane-b', 'lane-c']);
    expect(accountId({ kind: 'claude', dir: '~/.claude-work1', isDefault: false })).toBe('claude-work1');
    expect(accountId({ kind: 'codex', dir: '~/.codex', isDefault: true })).toBe('codex');
    expect(accountId({ kind: 'codex', dir: '~/.codex!', isDefault: false })).toBe('codex-');
  });

  it('one account per profile (the defaults without env), the lead on the first, lanes in worktrees; only missing .gitignore lines', () => {
    const s = scaffold({
      repo: 'app', lanes: 2, clis: ['claude'], gitignore: 'node_modules\r\nplans/app/.swarm/  \n',
      profiles: [{ kind: 'claude', dir: '~/.claude', isDefault: true }, { kind: 'claude', dir: '~/.claude-w1', isDefault: false }, { kind: 'codex', dir: '~/.codex-w2', isDefault: false }],
    });
    expect(s.sim).toBe(false);
    const yaml = s.files.find((f) => f.path === 'swarm.yaml')!.text;
    expect(yaml).toContain('  - { id: claude, kind: claude, vendor: anthropic }\n');
    expect(yaml).toContain('CLAUDE_CONFIG_DIR: "~/.claude-w1"');
    expect(yaml).toContain('CODEX_HOME: "~/.codex-w2"');
    expect(yaml).toContain('lead:\n  name: lead\n  account: claude\n');
    expect(s.worktrees).toEqual([{ lane: 'lane-a', path: '../app-lane-a', branch: 'swarm/lane-a' }, { lane: 'lane-b', path: '../app-lane-b', branch: 'swarm/lane-b' }]);
    expect(s.gitignore).toEqual(['plans/app/analysis_results/', 'plans/app/journal.jsonl', 'plans/app/lead.json']);
    expect(s.files.map((f) => f.path)).toEqual(['swarm.yaml', 'plans/app/PLAN.md']);
    expect(s.left[0]).toMatch(/^write the plan/);
  });

  it('one profile: says a second is needed for the lanes; two profiles of one folder name get distinct ids', () => {
    const one = scaffold({ repo: 'a', lanes: 1, clis: [], gitignore: '', profiles: [{ kind: 'codex', dir: '~/.codex', isDefault: true }] });
    expect(one.left[0]).toMatch(/^add a second signed-in profile/);
    const twin = scaffold({ repo: 'a', lanes: 1, clis: [], gitignore: '', profiles: [{ kind: 'claude', dir: '~/.claude-x', isDefault: false }, { kind: 'claude', dir: '/other/.claude-x', isDefault: false }] });
    expect(twin.files[0]!.text).toContain('id: claude-x-2');
  });

  it('no profile: simulated accounts, a sim block per lane and a gate each', () => {
    const s = scaffold({ repo: 'app', lanes: 2, clis: [], gitignore: '', profiles: [] });
    expect(s.sim).toBe(true);
    const yaml = s.files[0]!.text;
    expect(yaml).toContain('kind: sim');
    expect(yaml).toContain(`done_when: "grep -qx 'hello from lane-b' lane-b.txt"`);
    expect(s.files[1]!.text).toContain('```sim\nlane-a:\n  - write: lane-a.txt\n');
    expect(s.left[1]).toBe('run it now: swarm up');
  });

  it('what it writes is a valid swarm.yaml', () => {
    for (const profiles of [[], [{ kind: 'claude' as const, dir: '~/.claude', isDefault: true }, { kind: 'codex' as const, dir: '~/.codex-2', isDefault: false }]]) {
      const text = scaffold({ repo: 'app', lanes: 3, clis: [], gitignore: '', profiles }).files[0]!.text;
      expect(parseConfigText(text).problems).toEqual([]);
    }
  });
});

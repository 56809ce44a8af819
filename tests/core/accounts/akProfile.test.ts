import { describe, expect, it } from 'vitest';
import { resolveAkProfile } from '../../../src/core/accounts/akProfile.js';
import { parseConfig, type ConfigFacts } from '../../../src/core/config/config.js';

const facts = (env: Record<string, string | undefined> = {}): ConfigFacts => ({
  isDirectory: (p) => ['/w', '/w/p'].includes(p), kindExists: (k) => ['claude', 'codex', 'sim'].includes(k), home: '/home/u', env,
});

describe('resolveAkProfile', () => {
  it.each<[string, string, Record<string, string>, string]>([
    ['claude, default AK_HOME', 'claude/work3', {}, 'CLAUDE_CONFIG_DIR=/home/u/.agentkit/profiles/claude/work3'],
    ['codex', 'codex/o1', {}, 'CODEX_HOME=/home/u/.agentkit/profiles/codex/o1'],
    ['AK_HOME set', 'claude/w', { AK_HOME: '/opt/ak' }, 'CLAUDE_CONFIG_DIR=/opt/ak/profiles/claude/w'],
    ['AK_HOME with ~ and spaces around', 'claude/w', { AK_HOME: ' ~/kit ' }, 'CLAUDE_CONFIG_DIR=/home/u/kit/profiles/claude/w'],
    ['AK_HOME empty: the default', 'claude/w', { AK_HOME: '' }, 'CLAUDE_CONFIG_DIR=/home/u/.agentkit/profiles/claude/w'],
  ])('%s', (_name, value, env, expected) => {
    const r = resolveAkProfile(value, value.split('/')[0]!, { home: '/home/u', env });
    expect(r.ok ? `${r.variable}=${r.folder}` : r.message).toBe(expected);
  });

  it.each<[string, string, string, RegExp]>([
    ['no slash', 'work3', 'claude', /must be <cli>\/<name>, e\.g\. claude\/work3/],
    ['too many parts', 'claude/a/b', 'claude', /must be <cli>\/<name>/],
    ['a path escape', 'claude/..', 'claude', /must be <cli>\/<name>/],
    ['another CLI than the kind', 'codex/w', 'claude', /names the codex CLI, but the account's kind is claude: write claude\/w/],
    ['a sim account', 'sim/w', 'sim', /for claude and codex accounts/],
  ])('%s is refused', (_name, value, kind, message) => {
    const r = resolveAkProfile(value, kind, { home: '/home/u', env: {} });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});

describe('parseConfig: ak_profile resolved at load, passed as the profile variable', () => {
  const file = (account: string) => `version: 1\nname: d\nplan: p\naccounts:\n  - { id: a0, kind: sim }\n  - ${account}\nlead: { account: a0 }\nlanes: []\n`;
  it('claude/work3 → CLAUDE_CONFIG_DIR', () => {
    const r = parseConfig(file('{ id: w3, kind: claude, ak_profile: claude/work3 }'), '/w/swarm.yaml', facts({ AK_HOME: '/kit' }));
    expect(r.ok && r.config.accounts[1]).toMatchObject({ akProfile: 'claude/work3', env: { CLAUDE_CONFIG_DIR: '/kit/profiles/claude/work3' } });
  });
  it.each<[string, string]>([
    ['{ id: w3, kind: claude, ak_profile: codex/work3 }', '6:41: "ak_profile": ak_profile "codex/work3" names the codex CLI'],
    ['{ id: w3, kind: claude, env: { CLAUDE_CONFIG_DIR: /x }, ak_profile: claude/w }', '"ak_profile" and env CLAUDE_CONFIG_DIR both name the profile: keep one'],
  ])('%s is a problem with its place', (account, message) => {
    const r = parseConfig(file(account), '/w/swarm.yaml', facts());
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n')).toContain(message);
  });
});

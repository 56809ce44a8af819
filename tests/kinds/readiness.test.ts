import { describe, expect, it } from 'vitest';
import type { ProfileFacts, Readiness } from '../../src/core/accounts/readiness.js';
import { claudeProjects, claudeReadiness } from '../../src/kinds/claude/readiness.js';
import { codexReadiness } from '../../src/kinds/codex/readiness.js';
import { loadKinds } from '../../src/kinds/index.js';

const KINDS = await loadKinds([]);

/** The facts of either kind that checks a profile, in one table. */
interface ReadinessFacts extends ProfileFacts {
  kind: string;
  claudeProjects: Readonly<Record<string, unknown>> | null;
  codexTrust: ReadonlyMap<string, string> | null;
}

/** Each kind's pure rule; a kind without a readiness check is always ready. */
function readiness(f: ReadinessFacts): Readiness {
  if (f.kind === 'claude') return claudeReadiness({ ...f, projects: f.claudeProjects });
  if (f.kind === 'codex') return codexReadiness({ ...f, trust: f.codexTrust });
  expect(KINDS(f.kind).readiness).toBeNull();
  return { ready: true };
}

const base: ReadinessFacts = {
  kind: 'claude', profile: '/p/work1', profileExists: true, signedIn: true,
  claudeProjects: { '/repo': { hasTrustDialogAccepted: true } }, codexTrust: null, checkout: '/repo/wt-a', gitRoot: '/repo',
};
const codex: ReadinessFacts = { ...base, kind: 'codex', claudeProjects: null, codexTrust: new Map([['/repo', 'trusted']]) };

describe('readiness', () => {
  it.each<[string, ReadinessFacts, string | null]>([
    ['claude, all there', base, null],
    ['sim is always ready', { ...base, kind: 'sim', profileExists: false, signedIn: false }, null],
    ['command is always ready', { ...base, kind: 'command', profileExists: false }, null],
    ['profile missing', { ...base, profileExists: false }, 'profile folder /p/work1 is missing'],
    ['claude signed out', { ...base, signedIn: false }, 'signed out (no .credentials.json in /p/work1)'],
    ['claude: no .claude.json', { ...base, claudeProjects: null }, 'the checkout /repo is not trusted on /p/work1'],
    ['claude: trust false', { ...base, claudeProjects: { '/repo': { hasTrustDialogAccepted: false } } }, 'the checkout /repo is not trusted on /p/work1'],
    ['claude: a parent folder trusted', { ...base, claudeProjects: { '/': { hasTrustDialogAccepted: true } } }, null],
    ['claude: the checkout itself trusted (no git root)', { ...base, gitRoot: null, claudeProjects: { '/repo/wt-a': { hasTrustDialogAccepted: true } } }, null],
    ['claude: a child folder is not trust', { ...base, claudeProjects: { '/repo/wt-a/src': { hasTrustDialogAccepted: true } } }, 'the checkout /repo is not trusted on /p/work1'],
    ['codex, all there', codex, null],
    ['codex signed out', { ...codex, signedIn: false }, 'signed out (no auth.json in /p/work1)'],
    ['codex: the checkout trusted', { ...codex, codexTrust: new Map([['/repo/wt-a', 'trusted']]) }, null],
    ['codex: untrusted', { ...codex, codexTrust: new Map([['/repo', 'untrusted']]) }, 'the checkout /repo is not trusted on /p/work1'],
    ['codex: a parent is not trust', { ...codex, codexTrust: new Map([['/', 'trusted']]) }, 'the checkout /repo is not trusted on /p/work1'],
    ['codex: no config.toml', { ...codex, codexTrust: null }, 'the checkout /repo is not trusted on /p/work1'],
  ])('%s', (_name, facts, why) => {
    const r = readiness(facts);
    if (why === null) expect(r).toEqual({ ready: true });
    else {
      expect(r).toMatchObject({ ready: false, why });
      if (!r.ready) expect(r.fix).not.toBe('');
    }
  });
});

describe('claudeProjects', () => {
  it.each<[string, string | null, Record<string, unknown> | null]>([
    ['no file', null, null],
    ['empty', '', null],
    ['not JSON', '{nope', null],
    ['no projects', '{"hasCompletedOnboarding":true}', null],
    ['projects an array', '{"projects":[]}', null],
    ['with a BOM and CRLF', '\uFEFF{\r\n"projects":{"/a":{"hasTrustDialogAccepted":true}}\r\n}', { '/a': { hasTrustDialogAccepted: true } }],
  ])('%s', (_name, text, expected) => {
    expect(claudeProjects(text)).toEqual(expected);
  });
});

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PAUSE } from '../../src/drill/mock/brain.js';
import { resumeDoc } from '../../src/drill/realDocs.js';
import type { RealFacts } from '../../src/drill/realChecks.js';
import { pick, REAL_ROLES, RESUME_SPEC } from '../../src/drill/realSpec.js';
import { tempDir } from '../helpers/swarm.js';

describe('the resume item\'s swarm (SPEC 10.8)', () => {
  it('a Claude Code lane and a Codex lane on accounts of their own kinds, not the main swarm\'s', () => {
    expect(RESUME_SPEC.lanes.map((l) => [l.name, RESUME_SPEC.accounts.find((a) => a.id === l.account)?.kind])).toEqual([
      ['lane-resume-claude', 'claude'], ['lane-resume-codex', 'codex'],
    ]);
    expect(REAL_ROLES.resumed).toEqual(['lane-resume-claude', 'lane-resume-codex']);
    const main = pick([]).spec.accounts.map((a) => a.id);
    for (const a of RESUME_SPEC.accounts) expect(main).not.toContain(a.id);
  });

  it('each step writes what its gate checks, then prints PAUSE as its last line (the turn ends there)', () => {
    const dir = tempDir('swarm-resume-step-');
    try {
      for (const lane of RESUME_SPEC.lanes) {
        const out = execFileSync('sh', ['-c', lane.step], { cwd: dir.dir, encoding: 'utf8' });
        expect(out.trimEnd().split('\n').at(-1)).toBe(PAUSE);
        execFileSync('sh', ['-c', lane.gate], { cwd: dir.dir });
      }
    } finally {
      dir.cleanup();
    }
  });

  it.each([
    [[], ['lane-claude', 'lane-codex', 'lane-limit', 'lane-perm', 'lane-review'], ['lane-resume-claude', 'lane-resume-codex'], REAL_ROLES],
    [['lane-resume-codex'], [], ['lane-resume-codex'], { resumed: ['lane-resume-codex'] }],
    [['lane-claude', 'lane-resume-claude'], ['lane-claude'], ['lane-resume-claude'], { claudeQuota: 'lane-claude', resumed: ['lane-resume-claude'] }],
    [['lane-perm'], ['lane-perm'], null, { permission: 'lane-perm' }],
  ])('--only %j: the main swarm %j, the resume swarm %j', (only, main, resumed, roles) => {
    const got = pick(only);
    expect(got.spec.lanes.map((l) => l.name)).toEqual(main);
    expect(got.resume === null ? null : got.resume.lanes.map((l) => l.name)).toEqual(resumed);
    expect(got.roles).toEqual(roles);
  });
});

describe('resume.md', () => {
  it('each lane\'s command lines and every request of its account, before the kill and after, with what it carried', () => {
    const facts = {
      requests: [
        { vendor: 'codex', account: 'o5', path: '/v1/responses', status: 200, action: { kind: 'say', text: 'Pausing' }, entries: [{ role: 'user', text: 'go' }], protocol: false },
        { vendor: 'claude', account: 'c1', path: '/v1/messages', status: 200, action: { kind: 'say', text: 'main swarm' } },
        { vendor: 'codex', account: 'o5', path: '/v1/responses', status: 200, action: { kind: 'shell', command: 'swarm capacity --self --json' }, entries: [{ role: 'user', text: 'go' }, { role: 'assistant', text: 'Pausing' }, { role: 'user', text: 'resumed' }], previousResponseId: 'resp_1' },
      ],
      resume: {
        journal: [], lanes: [{ name: 'rx', account: 'o5', kind: 'codex' }], laneStates: { rx: 'done' }, told: { rx: 'thread-1' }, notKilled: null, killedAt: 2,
        argv: { rx: { first: 'codex --no-daemon go', resumed: 'codex --no-daemon resume thread-1 resumed' } }, outcomes: ['first run: host lost (exit 1)'], panes: '/p/panes',
      },
    } as unknown as RealFacts;
    const text = resumeDoc(facts, [{ item: 'the tmux server killed: rx resumes its own session', holds: true, evidence: 'analysis_results/drill/resume.md', detail: 'd' }], null);
    expect(text).toContain('- holds: the tmux server killed: rx resumes its own session: d');
    expect(text).toContain('## rx (codex, o5)');
    expect(text).toContain('- session told before the kill: thread-1');
    expect(text).toContain('- resumed pane: `codex --no-daemon resume thread-1 resumed`');
    expect(text).toContain('| 1 | before the kill | 200 | say: Pausing | user 1 | - | - |');
    expect(text).toContain('| 3 | after | 200 | run: swarm capacity --self --json | user 2, assistant 1 | resp_1 | - |');
    expect(text).not.toContain('main swarm');
    expect(resumeDoc({ ...facts, resume: null }, [], 'boom')).toContain('The resume swarm did not run: boom.');
  });
});

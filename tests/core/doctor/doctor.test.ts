import { describe, expect, it } from 'vitest';
import { doctorReport, formatDoctor, type AccountFact, type DoctorFacts } from '../../../src/core/doctor/doctor.js';
import { serverScope, type ServerScope } from '../../../src/core/host/serverScope.js';

const account = (over: Partial<AccountFact> = {}): AccountFact => ({
  id: 'c1', kind: 'claude', profile: '/p/c1', checkouts: [{ checkout: '/r', readiness: { ready: true } }],
  capacitySource: 'status line', bypassAccepted: null, autoUpdaterOff: true, ...over,
});
const facts = (over: Partial<DoctorFacts> = {}): DoctorFacts => ({
  tools: [{ tool: 'tmux', path: '/usr/bin/tmux', version: 'tmux 3.4', seenIn: null, required: true }],
  accounts: [account()],
  approvals: { present: true, problems: [], claudeMode: 'acceptEdits' },
  realKinds: ['claude'], runningAsRoot: false, ...over,
});

describe('doctorReport', () => {
  it.each<[string, DoctorFacts, boolean, string[]]>([
    ['all good', facts(), true, []],
    ['tmux missing', facts({ tools: [{ tool: 'tmux', path: null, version: null, seenIn: null, required: true }] }), false, ['tmux is not on PATH']],
    ['tmux missing but not needed (pty)', facts({ tools: [{ tool: 'tmux', path: null, version: null, seenIn: null, required: false }] }), true, []],
    ['auto-updater on in the pane', facts({ accounts: [account({ autoUpdaterOff: false })] }), false, ["c1: claude's auto-updater is on in its pane: it may reinstall the CLI under a running lane"]],
    ['not ready on one checkout', facts({ accounts: [account({ checkouts: [{ checkout: '/r', readiness: { ready: false, why: 'signed out', fix: 'log in' } }] })] }), false, ['c1 (claude): signed out']],
    ['bypassPermissions as root', facts({ runningAsRoot: true, approvals: { present: true, problems: [], claudeMode: 'bypassPermissions' }, accounts: [account({ bypassAccepted: true })] }), false,
      ['permission_mode bypassPermissions as root: Claude Code refuses --dangerously-skip-permissions under root/sudo and exits']],
    ['sim only, no approvals: nothing to warn about', facts({ realKinds: [], accounts: [account({ kind: 'sim', capacitySource: 'sim', autoUpdaterOff: null })], approvals: { present: false, problems: [], claudeMode: null } }), true, []],
  ])('%s', (_name, given, ok, problems) => {
    const r = doctorReport(given);
    expect(r.ok).toBe(ok);
    expect(r.problems.map((p) => p.what)).toEqual(problems);
    for (const p of r.problems) expect(p.fix).not.toBe('');
  });

  it('auto mode and a real account with no capacity source are warnings, not failures', () => {
    const r = doctorReport(facts({ approvals: { present: true, problems: [], claudeMode: 'auto' }, accounts: [account({ capacitySource: 'none' })] }));
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => w.what)).toEqual([
      'c1 has no capacity source: its lanes never hand off before the limit',
      'permission_mode auto shows an opt-in screen once per profile; swarm cannot tell whether a profile accepted it',
    ]);
  });

  it('a lane that could never hand off is a warning: a declared account needs one other ready account, a pool lane two', () => {
    const pool = (id: string, ready = true) => account({ id, checkouts: [{ checkout: '/a', readiness: ready ? { ready: true } : { ready: false, why: 'x', fix: 'y' } }, { checkout: '/b', readiness: { ready: true } }] });
    const lanes = [{ name: 'a', checkout: '/a', account: 'c2' }, { name: 'b', checkout: '/b', account: null }];
    const warned = (accounts: AccountFact[]) => doctorReport(facts({ accounts, lanes, leadAccount: 'c1' })).warnings.map((w) => w.what);
    expect(warned([pool('c1'), pool('c2'), pool('c3')])).toEqual([]);
    expect(warned([pool('c1'), pool('c2')])).toEqual(['a could never hand off: no other account is ready on /a', 'b could never hand off: only one account (c2) is ready on /b']);
    expect(warned([pool('c1'), pool('c2'), pool('c3', false)])).toEqual(['a could never hand off: no other account is ready on /a']);
    expect(doctorReport(facts({ accounts: [pool('c2')], lanes, leadAccount: 'c1' })).ok).toBe(true);
    // Only the lead's account: the lanes cannot even start (a problem, not a warning).
    const none = doctorReport(facts({ accounts: [pool('c1')], lanes: [{ name: 'b', checkout: '/b', account: null }], leadAccount: 'c1' }));
    expect(none.ok).toBe(false);
    expect(none.problems.map((p) => p.what)).toEqual(["b has no account to start on: every account is the lead's or declared by another lane"]);
  });

  describe('a logout (SPEC 10.8): a warning when it would end the tmux server, never a problem', () => {
    const scope = (over: Partial<ServerScope>): ServerScope => ({ argvPrefix: null, logoutEndsSwarm: false, why: 'x', fix: null, ...over });
    const lingers = serverScope({ systemdRuns: true, lingers: true, systemdRun: '/usr/bin/systemd-run', user: 'ann', unit: 'u' });
    const noLinger = serverScope({ systemdRuns: true, lingers: false, systemdRun: '/usr/bin/systemd-run', user: 'ann', unit: 'u' });
    const noSystemd = serverScope({ systemdRuns: false, lingers: null, systemdRun: null, user: 'ann', unit: 'u' });

    it.each<[string, ServerScope, string | null, { what: string; fix: string }[]]>([
      ['systemd and lingering: an ok line', lingers, 'a logout leaves the swarm running (systemd user scope; user ann lingers)', []],
      ['systemd, no linger: a warning with the fix', noLinger, null, [{
        what: "a logout would end the swarm's tmux server (systemd ends a login session's processes; user ann does not linger)",
        fix: 'loginctl enable-linger ann (swarm never turns it on)',
      }]],
      ['no systemd: an ok line naming the reboot', noSystemd, "no systemd runs here (no /run/systemd/system), so no logout ends the tmux server by itself; the machine's reboot does (swarm up resumes the lanes then)", []],
      ['not known: a warning', scope({ logoutEndsSwarm: null, why: 'not known', fix: 'look' }), null, [{ what: 'not known', fix: 'look' }]],
    ])('%s', (_name, logout, line, warnings) => {
      const r = doctorReport(facts({ logout }));
      expect(r.ok).toBe(true);
      expect(r.problems).toEqual([]);
      expect(r.warnings).toEqual(warnings);
      expect(r.checks.filter((c) => c.line === line)).toEqual(line === null ? [] : [{ ok: true, line }]);
      expect(r.checks).toHaveLength(line === null ? 3 : 4);
    });

    it('formats the warning with its fix, and the swarm can still run through the night', () => {
      const text = formatDoctor(doctorReport(facts({ logout: noLinger })));
      expect(text).toContain("warning: a logout would end the swarm's tmux server (systemd ends a login session's processes; user ann does not linger)\n  fix: loginctl enable-linger ann (swarm never turns it on)\n");
      expect(text.trimEnd().split('\n').at(-1)).toBe('doctor: this swarm can run through the night');
    });
  });

  it('formats one line a check, then problems with their fix', () => {
    const text = formatDoctor(doctorReport(facts({ accounts: [account({ autoUpdaterOff: false })] })));
    expect(text.split('\n')).toEqual([
      'ok   tmux: /usr/bin/tmux (tmux 3.4)',
      'FAIL account c1 (claude): /p/c1: ready; capacity: status line; auto-updater ON',
      'ok   approvals: valid (claude acceptEdits)',
      "problem: c1: claude's auto-updater is on in its pane: it may reinstall the CLI under a running lane",
      "  fix: set DISABLE_AUTOUPDATER=1 in the pane (the kind's launch) or autoUpdates: false in the profile",
      'doctor: 1 problem(s) would stop it before morning',
      '',
    ]);
  });
});

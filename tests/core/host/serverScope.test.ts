import { describe, expect, it } from 'vitest';
import { scopeUnit, serverScope, type ScopeFacts, type ServerScope } from '../../../src/core/host/serverScope.js';

const RUN = '/usr/bin/systemd-run';
const facts = (over: Partial<ScopeFacts>): ScopeFacts => ({ systemdRuns: true, lingers: true, systemdRun: RUN, user: 'ann', unit: 'swarm-swarm-night-1a2b', ...over });
const SCOPE = [RUN, '--user', '--scope', '--quiet', '--collect', '--unit=swarm-swarm-night-1a2b', '--'];

describe('serverScope', () => {
  it.each<[string, Partial<ScopeFacts>, ServerScope]>([
    ['no systemd: tmux plainly, and no logout ends it', { systemdRuns: false, lingers: null, systemdRun: null }, {
      argvPrefix: null, logoutEndsSwarm: false, fix: null,
      why: "no systemd runs here (no /run/systemd/system), so no logout ends the tmux server by itself; the machine's reboot does (swarm up resumes the lanes then)",
    }],
    ['no systemd, though systemd-run is on PATH: still plainly', { systemdRuns: false, lingers: true }, {
      argvPrefix: null, logoutEndsSwarm: false, fix: null,
      why: "no systemd runs here (no /run/systemd/system), so no logout ends the tmux server by itself; the machine's reboot does (swarm up resumes the lanes then)",
    }],
    ['systemd, and the user lingers: a scope of its own', {}, {
      argvPrefix: SCOPE, logoutEndsSwarm: false, fix: null, why: 'a logout leaves the swarm running (systemd user scope; user ann lingers)',
    }],
    ['systemd, the user does not linger: plainly, and a logout ends it', { lingers: false }, {
      argvPrefix: null, logoutEndsSwarm: true, fix: 'loginctl enable-linger ann (swarm never turns it on)',
      why: "a logout would end the swarm's tmux server (systemd ends a login session's processes; user ann does not linger)",
    }],
    ['systemd, lingering not known: a scope (it costs nothing), and not known', { lingers: null }, {
      argvPrefix: SCOPE, logoutEndsSwarm: null,
      fix: 'loginctl show-user ann --property=Linger; if it says no: loginctl enable-linger ann (swarm never turns it on)',
      why: "whether a logout would end the swarm's tmux server is not known (systemd user scope; loginctl did not say whether user ann lingers)",
    }],
    ['systemd and lingering, systemd-run missing: plainly, and a logout ends it', { systemdRun: null }, {
      argvPrefix: null, logoutEndsSwarm: true, fix: 'put systemd-run on PATH (it comes with systemd)',
      why: "a logout would end the swarm's tmux server (systemd ends a login session's processes, and systemd-run is not on PATH to start it in a scope of its own)",
    }],
    ['systemd-run missing and lingering not known', { systemdRun: null, lingers: null }, {
      argvPrefix: null, logoutEndsSwarm: true,
      fix: 'put systemd-run on PATH (it comes with systemd); check loginctl show-user ann --property=Linger, and if it says no: loginctl enable-linger ann (swarm never turns it on)',
      why: "a logout would end the swarm's tmux server (systemd ends a login session's processes, and systemd-run is not on PATH to start it in a scope of its own)",
    }],
    ['no linger and no systemd-run: both fixes', { systemdRun: null, lingers: false }, {
      argvPrefix: null, logoutEndsSwarm: true, fix: 'loginctl enable-linger ann (swarm never turns it on), and put systemd-run on PATH',
      why: "a logout would end the swarm's tmux server (systemd ends a login session's processes; user ann does not linger)",
    }],
  ])('%s', (_name, over, expected) => {
    expect(serverScope(facts(over))).toEqual(expected);
  });

  it('never turns lingering on: no decision runs loginctl enable-linger', () => {
    for (const over of [{}, { lingers: false }, { lingers: null }, { systemdRun: null }] as Partial<ScopeFacts>[]) {
      expect(serverScope(facts(over)).argvPrefix?.join(' ') ?? '').not.toContain('linger');
    }
  });
});

describe('scopeUnit', () => {
  it.each([
    ['swarm-night', '1a2b', 'swarm-swarm-night-1a2b'],
    ['swarm-my_plan', 'ff', 'swarm-swarm-my_plan-ff'],
    ['swarm-a b/c', 'x', 'swarm-swarm-a_b_c-x'],
  ])('%s + %s -> %s', (session, unique, unit) => {
    expect(scopeUnit(session, unique)).toBe(unit);
  });
});

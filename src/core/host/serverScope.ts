/**
 * Whether the swarm's tmux server outlives a logout (SPEC 10.8). Where systemd runs, the processes of
 * a login session end with it (logind's KillUserProcesses); a process in a unit of the user's own
 * systemd manager does not, and that manager outlives the last session only while the user lingers.
 * So the server is started in a user scope of its own (`systemd-run --user --scope`) when systemd runs
 * and the user lingers; swarm never turns lingering on. Pure: the facts in, the decision out
 * (adapters/tmux/serverScope.ts gathers them, doctor says them).
 */

export interface ScopeFacts {
  /** `/run/systemd/system` exists: systemd is the init system (not merely `systemd-run` on PATH). */
  systemdRuns: boolean;
  /** The user lingers (loginctl's Linger, or the linger file); null: neither could tell. */
  lingers: boolean | null;
  /** Where `systemd-run` is on PATH; null: not there. */
  systemdRun: string | null;
  user: string;
  /** The scope's unit name (scopeUnit). */
  unit: string;
}

export interface ServerScope {
  /** What the command that creates the server runs under; null: tmux is started plainly. */
  argvPrefix: string[] | null;
  /** Would a logout end the tmux server? null: cannot tell. */
  logoutEndsSwarm: boolean | null;
  /** One sentence: what happens at a logout, and why. */
  why: string;
  /** What the user can do about it; null when nothing needs doing. */
  fix: string | null;
}

/** `swarm-<session>-<unique>`, in the characters a unit name may hold (others become `_`). */
export function scopeUnit(session: string, unique: string): string {
  return `swarm-${session}-${unique}`.replace(/[^A-Za-z0-9:_.-]/g, '_');
}

export function serverScope(f: ScopeFacts): ServerScope {
  const enable = `loginctl enable-linger ${f.user} (swarm never turns it on)`;
  if (!f.systemdRuns) {
    return {
      argvPrefix: null, logoutEndsSwarm: false, fix: null,
      why: 'no systemd runs here (no /run/systemd/system), so no logout ends the tmux server by itself; the machine\'s reboot does (swarm up resumes the lanes then)',
    };
  }
  const prefix = f.systemdRun === null ? null : [f.systemdRun, '--user', '--scope', '--quiet', '--collect', `--unit=${f.unit}`, '--'];
  if (f.lingers === false) {
    return {
      argvPrefix: null, logoutEndsSwarm: true, fix: f.systemdRun === null ? `${enable}, and put systemd-run on PATH` : enable,
      why: `a logout would end the swarm's tmux server (systemd ends a login session's processes; user ${f.user} does not linger)`,
    };
  }
  if (prefix === null) {
    return {
      argvPrefix: null, logoutEndsSwarm: true,
      fix: f.lingers ? 'put systemd-run on PATH (it comes with systemd)' : `put systemd-run on PATH (it comes with systemd); check loginctl show-user ${f.user} --property=Linger, and if it says no: ${enable}`,
      why: `a logout would end the swarm's tmux server (systemd ends a login session's processes, and systemd-run is not on PATH to start it in a scope of its own)`,
    };
  }
  if (f.lingers === null) {
    // A scope costs nothing when the user does not linger: it ends with the user's manager, as the session would.
    return {
      argvPrefix: prefix, logoutEndsSwarm: null,
      fix: `loginctl show-user ${f.user} --property=Linger; if it says no: ${enable}`,
      why: `whether a logout would end the swarm's tmux server is not known (systemd user scope; loginctl did not say whether user ${f.user} lingers)`,
    };
  }
  return { argvPrefix: prefix, logoutEndsSwarm: false, fix: null, why: `a logout leaves the swarm running (systemd user scope; user ${f.user} lingers)` };
}

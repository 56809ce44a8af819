/**
 * `swarm doctor` for each host a lane runs on (SPEC 10.9): what one ssh round trip (core/host/probe.ts)
 * came back with, judged. Pure: the probe's output, ssh's exit and stderr come in; checks, each
 * problem with what to do, come out. ssh that cannot log in or connect is one problem naming ssh's
 * own last line; a host reached is checked for tmux, node, swarm, git, its lanes' agent CLIs and
 * their checkouts.
 */
import { excerpt } from '../../errors.js';
import { stripAnsi } from '../protocol/protocol.js';
import { checkoutState, parseProbe, type ProbeResult } from '../host/probe.js';
import { INSTALL } from './install.js';

/** What doctor knows of one host a lane uses. */
export interface HostFact {
  name: string;
  /** How ssh reaches it, for a person: `me@gpu1 -p 2222`. */
  shown: string;
  /** Its lanes' checkouts, in the order the probe was given them. */
  checkouts: { lane: string; checkout: string }[];
  /** The agent CLIs its lanes' accounts launch, in the order the probe was given them, with the lanes that need each. */
  clis: { cli: string; lanes: string[] }[];
  /** What the one ssh invocation came to; `timeoutS`: how long it was given. */
  ssh: { code: number | null; stdout: string; stderr: string; timedOut: boolean; timeoutS: number };
}

export interface HostProblem { host: string; lane?: string; tool?: string; what: string; fix: string }

export interface HostVerdict {
  problems: HostProblem[];
  warnings: HostProblem[];
  checks: { ok: boolean; line: string }[];
}

const NODE_MAJOR = 20;

/** Every host's checks, in order. */
export function hostChecks(hosts: readonly HostFact[]): HostVerdict {
  const verdict: HostVerdict = { problems: [], warnings: [], checks: [] };
  for (const host of hosts) checkHost(host, verdict);
  return verdict;
}

function checkHost(h: HostFact, v: HostVerdict): void {
  const say = (ok: boolean, line: string): void => void v.checks.push({ ok, line: `host ${h.name}: ${line}` });
  const problem = (what: string, fix: string, more: { lane?: string; tool?: string } = {}): void => void v.problems.push({ host: h.name, ...more, what: `host ${h.name}: ${what}`, fix });
  const probe = parseProbe(h.ssh.stdout);
  if (!probe.complete) {
    const [what, fix] = unreached(h);
    say(false, what);
    return problem(what, fix);
  }
  say(true, `ssh ${h.shown}: logged in without a prompt`);
  const onPath = `on the PATH a command run by ssh gets there (see: ssh ${h.shown} 'command -v TOOL'; an interactive shell's PATH may differ)`;
  const tool = (name: string, fix: string): string | null => {
    const at = probe.values.get(name) ?? '';
    if (at === '') {
      problem(`${name} not found`, `${fix}, ${onPath.replace('TOOL', name)}`, { tool: name });
      say(false, `${name}: not found`);
      return null;
    }
    say(true, `${name}: ${at} (${probe.values.get(`${name}.version`) || 'version unknown'})`);
    return at;
  };
  tool('tmux', 'install tmux there (e.g. apt-get install tmux): lanes on this host run in a tmux server there');
  if (tool('node', `install Node.js ${NODE_MAJOR} or later there: swarm runs on it`) !== null) nodeVersion(h, probe, problem);
  tool('swarm', 'install swarm there, the same version as here: a lane\'s agent reports through it');
  for (const { cli, lanes } of h.clis) {
    const needs = ` (${lanes.length === 1 ? 'lane' : 'lanes'} ${lanes.join(', ')} may run it)`;
    const at = probe.values.get(`cli.${cli}`) ?? '';
    if (at !== '') say(true, `${cli}: ${at}`);
    else {
      problem(`${cli} not found${needs}`, `${INSTALL[cli] ?? `install ${cli}`} there, ${onPath.replace('TOOL', cli)}`, { tool: cli });
      say(false, `${cli}: not found`);
    }
  }
  const git = (probe.values.get('git') ?? '') !== '';
  if (!git) v.warnings.push({ host: h.name, what: `host ${h.name}: git not found: its checkouts cannot be told to be git worktrees`, fix: 'install git there: a lane\'s work travels by git' });
  h.checkouts.forEach(({ lane, checkout }, i) => {
    const state = checkoutState(probe, i);
    const which = `checkout ${shownPath(checkout)} of ${lane}`;
    if (state === 'missing' || state === null) {
      problem(`${which} is not a folder${state === null ? ' (the probe did not say)' : ''}`, 'create it there (git clone, or git worktree add), or fix the lane\'s checkout: in swarm.yaml (an absolute path on that host)', { lane });
      say(false, `${which}: not a folder`);
    } else if (state === 'folder' && git) {
      v.warnings.push({ host: h.name, lane, what: `host ${h.name}: ${which} is not in a git worktree`, fix: 'make it one there (git clone, or git worktree add): a lane\'s work travels by git' });
      say(true, `${which}: a folder, not a git worktree`);
    } else say(true, `${which}: ${state === 'git' ? 'a git worktree' : 'a folder'}`);
  });
}

/** Why the probe did not run through, and what to do: ssh's own last line said. */
function unreached(h: HostFact): [string, string] {
  const last = lastLine(h.ssh.stderr);
  const said = last === null ? '' : `: ${last}`;
  const check = `ssh ${h.shown} true must exit 0 without asking anything`;
  if (h.ssh.timedOut) return [`ssh gave no answer within ${h.ssh.timeoutS} s${said}`, `check the host is up and reachable; ${check}`];
  if (h.ssh.code === 255 || h.ssh.code === null) {
    if (last !== null && /permission denied|password|passphrase|keyboard-interactive/i.test(last)) {
      return [`ssh asked for a password or a passphrase (BatchMode)${said}`, `add a key the agent can use without a prompt (ssh-agent, or identity:) to the host's authorized_keys; ${check}`];
    }
    if (last !== null && /host key verification failed|host key is known|host identification has changed/i.test(last)) {
      return [`its host key is not known here (BatchMode never asks)${said}`, `connect once yourself (ssh ${h.shown}), check the key and accept it into your known_hosts`];
    }
    return [`ssh could not connect${said || ' (it said nothing)'}`, `check the address, the port and the network; ${check}`];
  }
  const code = h.ssh.code === 0 ? '' : ` (exit ${h.ssh.code})`;
  return [`ssh logged in, but swarm's probe did not run through${code}${said}`, 'make sure the account\'s shell runs commands given by ssh (sh -c …): a startup file that exits, prints a prompt or starts another program stops them'];
}

function nodeVersion(h: HostFact, probe: ProbeResult, problem: (what: string, fix: string, more?: { tool?: string }) => void): void {
  const version = probe.values.get('node.version') ?? '';
  const major = /^v?(\d+)\./.exec(version)?.[1];
  if (major !== undefined && Number(major) < NODE_MAJOR) problem(`node ${version} is older than ${NODE_MAJOR}`, `install Node.js ${NODE_MAJOR} or later there (swarm needs it), first on the PATH ssh commands get`, { tool: 'node' });
}

/** ssh's last non-empty line on stderr, escapes stripped and cut short; null when it said nothing. */
function lastLine(stderr: string): string | null {
  const lines = stripAnsi(stderr.replace(/\r\n?/g, '\n')).split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const last = lines.at(-1);
  return last === undefined ? null : excerpt(last, 200);
}

/** A path as written, or quoted as JSON when it holds a control character (a newline would break the report's lines). */
function shownPath(p: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(p) ? JSON.stringify(p) : p;
}

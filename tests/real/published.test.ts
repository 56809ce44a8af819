/**
 * The published CLIs (issue 9 §10): Claude Code and Codex at the versions of panes/*.yaml `seen_in`,
 * installed by scripts/real-clis.mjs and found on PATH (`npm run test:real`), launched by their kind
 * files as lanes on real tmux, offline, each on an empty profile folder. Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

let t: TestSwarm | null = null;
let profiles: { dir: string; cleanup: () => void } | null = null;
let started: number[] = [];
afterEach(async () => {
  if (process.env.DUMP && t && existsSync(join(t.plan, 'journal.jsonl'))) console.log(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8'));
  await t?.cleanup();
  t = null;
  // Anything of the CLIs' that outlived its pane (there should be none): ended by pid.
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  started = [];
  profiles?.cleanup();
  profiles = null;
});

interface Proc { pid: number; ppid: number; args: string }

function processes(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
}

/** The panes' processes and everything under them. */
function underPanes(socket: string): Proc[] {
  let roots: number[];
  try {
    roots = execFileSync('tmux', ['-L', socket, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
  const all = processes();
  const out = all.filter((p) => roots.includes(p.pid));
  for (let i = 0; i < out.length; i++) out.push(...all.filter((p) => p.ppid === out[i]!.pid && !out.some((o) => o.pid === p.pid)));
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const pgrep = (pattern: string): string => {
  try {
    return execFileSync('pgrep', ['-af', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

const globalPackages = (): string => execFileSync('npm', ['ls', '-g', '--depth=0'], { encoding: 'utf8' });

/** Pids whose environment points at `profile` (a CLI's own children and daemons inherit it). */
function usingProfile(profile: string): number[] {
  return processes()
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/environ`, 'latin1').split('\0').some((kv) => kv.endsWith(`=${profile}`));
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

/** The pane's screen by pane id (e.g. %3), or '' once it is gone. */
function capture(socket: string, pane: string): string {
  try {
    return execFileSync('tmux', ['-L', socket, 'capture-pane', '-p', '-t', pane], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

const paneOf = (s: TestSwarm, lane: string): string => String(s.events('lane_started').find((e) => e.lane === lane)?.paneId ?? '').split('/')[0]!;
const CLI_PROCESS = /(^|\/)(claude|codex)( |$)|@openai\/codex|claude-code/;

describe('the published CLIs, offline, on empty profiles (tmux)', () => {
  it('Codex blocks at sign-in untouched, Claude Code blocks after one generation; no global install, no daemon, nothing left after down', async () => {
    const globalBefore = globalPackages();
    profiles = tempDir('swarm-real-profiles-');
    const claudeHome = join(profiles.dir, 'c1');
    const codexHome = join(profiles.dir, 'o1');
    for (const dir of [claudeHome, codexHome]) mkdirSync(dir);
    const s = (t = makeSwarm({
      accounts: [
        { id: 'l1', vendor: 'local', kind: 'command' },
        { id: 'c1', vendor: 'anthropic', kind: 'claude', env: { CLAUDE_CONFIG_DIR: claudeHome } },
        { id: 'o1', vendor: 'openai', kind: 'codex', env: { CODEX_HOME: codexHome } },
      ],
      lanes: [
        { name: 'lane-claude', account: 'c1', command: null },
        { name: 'lane-codex', account: 'o1', command: null },
      ],
      timeouts: '{ accept: 60s, packet: 5s, stall: 10m, ask: 30s, release: 1s }',
    }));
    // --force: the profiles are empty on purpose (doctor's preflight would refuse the run); what they block on is the test.
    const up = s.up(['--timeout', '90s', '--force']);
    let done = false;
    void up.finally(() => (done = true));
    // While it runs: every process under the panes, and each lane's last screen.
    const seen = new Map<number, Proc>();
    const screens = new Map<string, string>();
    while (!done) {
      for (const p of underPanes(s.socket)) seen.set(p.pid, p);
      for (const lane of ['lane-claude', 'lane-codex']) {
        const text = paneOf(s, lane) === '' ? '' : capture(s.socket, paneOf(s, lane));
        if (text.trim() !== '') screens.set(lane, text);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    const run = await up;
    const cli = [...seen.values()].filter((p) => CLI_PROCESS.test(p.args));
    started = cli.map((p) => p.pid);
    if (process.env.DUMP) console.log(execFileSync('find', [profiles.dir], { encoding: 'utf8' }), run.all, '\n', [...seen.values()].map((p) => `${p.pid} ${p.ppid} ${p.args}`).join('\n'), '\n', [...screens].join('\n----\n'));

    expect(run.exitCode).toBe(1);
    expect(run.all).toContain('lane-codex blocked login');
    expect(run.all).toContain('lane-claude blocked dependency');
    expect(cli.some((p) => /codex --no-daemon/.test(p.args))).toBe(true);

    // Codex: blocked at its sign-in screen, and swarm typed nothing into it (its menu acts on single
    // letters: a `y` or an Enter would have left the welcome menu). No daemon for its CODEX_HOME.
    const codex = s.journal().filter((e) => e.lane === 'lane-codex');
    expect(codex.map((e) => e.event)).toEqual(['lane_started', 'escalation', 'message']);
    expect(codex[1]).toMatchObject({ class: 'login', what: expect.stringContaining('Sign in with ChatGPT') });
    expect(screens.get('lane-codex')).toMatch(/Welcome to Codex[\s\S]*> 1\. Sign in with ChatGPT[\s\S]*Press enter to continue/);
    expect(existsSync(join(codexHome, 'auth.json'))).toBe(false);
    expect(existsSync(join(codexHome, 'packages', 'app-server-daemon'))).toBe(false);
    expect([...seen.values()].filter((p) => p.args.includes('app-server'))).toEqual([]);
    expect(processes().filter((p) => p.args.includes('app-server') && usingProfile(codexHome).includes(p.pid))).toEqual([]);

    // Claude Code: exits 1 at once offline; one generation, a degraded packet, then blocked
    // dependency: the one claude account is the one just lost, so no successor is started (no spinning).
    const claude = s.journal().filter((e) => e.lane === 'lane-claude');
    expect(claude.filter((e) => e.event === 'lane_started')).toHaveLength(1);
    expect(claude.filter((e) => e.event === 'degraded_handoff')).toEqual([expect.objectContaining({ status: 1, reason: 'lane_lost' })]);
    expect(claude.filter((e) => e.event === 'escalation')).toEqual([expect.objectContaining({ class: 'dependency', source: 'engine' })]);
    expect(s.events('lease_acquired').filter((e) => e.lane === 'lane-claude').length).toBeLessThanOrEqual(1);
    // Its own error lines did show in the pane (what the escalation should quote: see the report).
    expect(screens.get('lane-claude') ?? '').toContain('Unable to connect to Anthropic services');

    // No global npm install, and no npm under the panes.
    expect([...seen.values()].filter((p) => /(^|\/)npm(-cli)?(\.js)?( |$)/.test(p.args))).toEqual([]);
    expect(globalPackages()).toBe(globalBefore);

    // swarm down: no process of either CLI left, none on either profile.
    expect((await s.run(['down', s.file])).code).toBe(0);
    await waitFor(() => (started.every((pid) => !alive(pid)) ? true : null), { timeout: 15_000, what: `the CLIs' processes ${started.join(', ')} gone after swarm down` });
    expect(usingProfile(claudeHome)).toEqual([]);
    expect(usingProfile(codexHome)).toEqual([]);
    expect(pgrep(claudeHome)).toBe('');
    expect(pgrep(codexHome)).toBe('');
  });

  it('Claude Code on a second, signed-in and trusted profile: one successor, then blocked dependency as a crash loop (no spinning)', async () => {
    profiles = tempDir('swarm-real-profiles-');
    const [c1, c2] = [join(profiles.dir, 'c1'), join(profiles.dir, 'c2')];
    for (const dir of [c1, c2]) mkdirSync(dir);
    // c2 passes swarm's readiness check (credentials file, checkout trusted) but is offline all the same.
    writeFileSync(join(c2, '.credentials.json'), '{}');
    const s = (t = makeSwarm({
      accounts: [
        { id: 'l1', vendor: 'local', kind: 'command' },
        { id: 'c1', vendor: 'anthropic', kind: 'claude', env: { CLAUDE_CONFIG_DIR: c1 } },
        { id: 'c2', vendor: 'anthropic', kind: 'claude', env: { CLAUDE_CONFIG_DIR: c2 } },
      ],
      lanes: [{ name: 'lane-claude', account: 'c1', command: null }],
      timeouts: '{ accept: 60s, packet: 5s, stall: 10m, ask: 30s, release: 1s }',
    }));
    writeFileSync(join(c2, '.claude.json'), JSON.stringify({ projects: { [s.root]: { hasTrustDialogAccepted: true } } }));
    const run = await s.up(['--timeout', '90s', '--force']); // c1 is signed out on purpose: --force past the preflight
    expect(run.exitCode).toBe(1);
    expect(run.all).toContain('lane-claude blocked dependency');
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-claude')).toHaveLength(1);
    expect(s.events('successor_spawned')).toEqual([expect.objectContaining({ account: 'c2', for_generation: 2 })]);
    expect(s.events('lease_released').filter((e) => e.account === 'c2')).toEqual([expect.objectContaining({ why: 'the successor exited before accepting (status 1)' })]);
    const escalations = s.events('escalation');
    expect(escalations).toEqual([expect.objectContaining({ class: 'dependency', what: expect.stringContaining('for the second time in a row (exit status 1)') })]);
    // The escalation quotes Claude Code's own words, not the blank lines and tmux's "Pane is dead" below them.
    expect(String(escalations[0]!.what)).toMatch(/last lines of the pane:\n.*Unable to connect to Anthropic services/s);
    expect(String(escalations[0]!.what)).not.toContain('Pane is dead');
    expect((await s.run(['down', s.file])).code).toBe(0);
    expect(usingProfile(c1)).toEqual([]);
    expect(usingProfile(c2)).toEqual([]);
  });
});


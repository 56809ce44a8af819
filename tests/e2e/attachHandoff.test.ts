/**
 * `swarm up` and `swarm attach` on a terminal run as the `swarm` program (bin/swarm.cjs executed
 * itself, as npm links it, not `node bin/swarm.cjs`): the terminal goes to the tmux client with no
 * node process waiting behind it. bin/swarm.cjs's shell runs the client node handed it, then node
 * again for what follows the detach, with the words and exit codes of before. On a real
 * pseudo-terminal (node-pty) read through a headless xterm; the private tmux server is killed
 * afterwards, always, and the engine in window 0 seen gone before the files go.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import xterm from '@xterm/headless';
import type { IPty } from 'node-pty';
import { pidAlive } from '../../src/adapters/lock.js';
import { CLI } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { endWindowZero, enginePid } from '../helpers/windowZero.js';

const NODE = realpathSync(process.execPath);

let t: TestSwarm | null = null;
const ptys: IPty[] = [];

afterEach(async () => {
  for (const p of ptys.splice(0)) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  if (t) await endWindowZero(t);
  t = null;
});

/**
 * `swarm <args>` run as the program bin/swarm.cjs on a 120×40 pty; `screen()` is what a person sees
 * now. With a `TMUX` of another server, as when started from inside another tmux session.
 */
async function asProgram(s: TestSwarm, args: string[], extraEnv: Record<string, string> = {}) {
  const { spawn } = await import('node-pty');
  const term = new xterm.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  const child = spawn(CLI, args, { name: 'xterm-256color', cols: 120, rows: 40, cwd: s.root, env: { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', TMUX: '/tmp/another-tmux,1,0', ...extraEnv } });
  ptys.push(child);
  let raw = '';
  let exitCode: number | null = null;
  child.onData((data) => {
    raw += data;
    term.write(data);
  });
  child.onExit((e) => {
    exitCode = e.exitCode;
  });
  const screen = (): string[] => Array.from({ length: term.rows }, (_, y) => term.buffer.active.getLine(y)?.translateToString(true) ?? '');
  const waitScreen = async (test: (lines: string[]) => boolean, what: string): Promise<string[]> => {
    try {
      return await waitFor(() => (test(screen()) ? screen() : null), { timeout: 45_000, interval: 100, what });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${screen().join('\n')}`);
    }
  };
  const exited = (timeout = 15_000) => waitFor(() => (exitCode === null ? null : { code: exitCode, raw }), { timeout, what: `swarm ${args[0]} to exit` });
  return { child, waitScreen, exited };
}

interface Proc {
  pid: number;
  ppid: number;
  /** Its program. */
  exe: string;
  args: string;
}

/** One process as /proc tells it. */
function proc(pid: number): Proc {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  let exe = '';
  try {
    exe = realpathSync(`/proc/${pid}/exe`);
  } catch {
    // a process of another user, or gone
  }
  return { pid, ppid, exe, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() };
}

/**
 * The terminal's tmux client of the swarm's socket (`attach-session`; not the engine's control-mode
 * one, `-C`), then its parents up to `top` (the pty's process).
 */
function clientChain(s: TestSwarm, top: number): Proc[] {
  const isClient = (pid: number): boolean => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.includes(s.socket) && argv.includes('attach-session') && !argv.includes('-C');
    } catch {
      return false;
    }
  };
  const client = readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number).find(isClient);
  if (client === undefined) throw new Error(`no tmux client of socket ${s.socket}`);
  const chain = [proc(client)];
  while (chain.at(-1)!.pid !== top && chain.at(-1)!.ppid > 1) chain.push(proc(chain.at(-1)!.ppid));
  return chain;
}

/** The dashboard line of a lane: cursor, state mark, name. */
const row = (lines: string[], lane: string): string => lines.find((l) => new RegExp(`^. \\S ${lane} `).test(l)) ?? '';
const DETACHED = 'swarm e2e: detached — the swarm keeps running in tmux session swarm-e2e; `swarm attach` re-opens the dashboard, `swarm down` stops it';

describe('swarm run as a program hands the terminal to tmux attach', () => {
  it('no node waits behind the client; q detaches with the same words and exit 0; swarm attach alike, Ctrl-C detaching', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    const up = await asProgram(s, ['up', s.file]);
    await up.waitScreen((l) => /^swarm e2e /.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard');
    // The client's parent is the process on the terminal (bin/swarm.cjs's shell), and no node is among them.
    const chain = clientChain(s, up.child.pid);
    expect(chain.at(-1)!.pid).toBe(up.child.pid);
    expect(chain, JSON.stringify(chain)).toHaveLength(2);
    expect(chain.filter((p) => p.exe === NODE)).toEqual([]);
    // What the launcher passes node is not passed on to window 0's engine (nor, through it, to agents).
    const engine = enginePid(s)!;
    expect(readFileSync(`/proc/${engine}/environ`, 'utf8').split('\0').filter((v) => v.startsWith('SWARM_ATTACH'))).toEqual([]);

    up.child.write('q');
    const { code, raw } = await up.exited();
    expect(code).toBe(0);
    expect(raw).toContain(DETACHED);
    expect(pidAlive(engine)).toBe(true);

    const attached = await asProgram(s, ['attach', s.file]);
    await attached.waitScreen((l) => /^swarm e2e /.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard through swarm attach');
    const again = clientChain(s, attached.child.pid);
    expect(again, JSON.stringify(again)).toHaveLength(2);
    expect(again.filter((p) => p.exe === NODE)).toEqual([]);
    attached.child.write('\u0003');
    expect((await attached.exited()).code).toBe(0);
    expect(enginePid(s)).toBe(engine);
  });

  it('--until-done: the plan done, swarm up says so and exits 0 after the client', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
    const { waitScreen, exited } = await asProgram(s, ['up', s.file, '--until-done']);
    await waitScreen((l) => /^1 lane: 1 done · plan done$/.test(l[1] ?? ''), 'plan done on the dashboard');
    const { code, raw } = await exited(30_000);
    expect(code).toBe(0);
    expect(raw).toContain('swarm e2e: plan done');
  });

  it('a client that cannot take the terminal: the same words, exit 1, the swarm running on', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    // A tmux on PATH whose terminal client fails as tmux's own does without a terminal it can use.
    const bin = join(s.root, 'bin');
    mkdirSync(bin);
    const realTmux = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'tmux'), `#!/bin/sh\ncase " $* " in *" -C "*) ;; *" attach-session "*) echo 'open terminal failed: not a terminal' >&2; exit 1 ;; esac\nexec '${realTmux}' "$@"\n`);
    chmodSync(join(bin, 'tmux'), 0o755);
    const { exited } = await asProgram(s, ['up', s.file], { PATH: `${bin}:${s.env.PATH}` });
    const { code, raw } = await exited(30_000);
    expect(code).toBe(1);
    expect(raw).toContain(`swarm e2e: could not attach this terminal; the swarm runs on — try \`tmux -L ${s.socket} attach -t swarm-e2e\``);
    // The swarm runs on: window 0's engine holds the plan and has started the lead and lane-a.
    await s.waitEvent('lane_started', 2);
    expect(pidAlive(enginePid(s)!)).toBe(true);
  });

  it('with the pty backend the dashboard runs under the shell; Ctrl-C still reaches the engine, which says why it stopped, exit 1', async () => {
    const s = (t = makeSwarm({ backend: 'pty', lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    const { child, waitScreen, exited } = await asProgram(s, ['up', s.file]);
    await waitScreen((l) => /· pty swarm-e2e · up \d+s$/.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard in this terminal');
    child.write('q');
    await waitScreen((l) => l.some((line) => line.startsWith('swarm e2e: dashboard closed; the engine runs on here')), 'the dashboard closed');
    child.write('\u0003');
    const { code, raw } = await exited();
    expect(code).toBe(1);
    expect(raw).toContain('swarm e2e: stopped by SIGINT');
  });
});

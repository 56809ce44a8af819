/**
 * The dashboard end to end: `swarm up` on a real pseudo-terminal (node-pty) attaches to window 0 of
 * the swarm's tmux session, and what tmux draws is fed to a headless xterm that the test reads cell
 * by cell. The child runs without `CI` (under it Ink draws nothing until it unmounts) and with a
 * `TMUX` of another server, as when started from inside another tmux session. The private tmux
 * server is killed afterwards, always, and the engine in window 0 is seen gone before the files go.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import xterm from '@xterm/headless';
import type { IPty } from 'node-pty';
import { pidAlive } from '../../src/adapters/lock.js';
import { CLI } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';
import { endWindowZero, enginePid } from '../helpers/windowZero.js';

const COLS = 120;
const ROWS = 40;

let t: TestSwarm | null = null;
const ptys: IPty[] = [];
/** Private tmux servers a test started besides the swarm's own. */
const servers: string[] = [];

afterEach(async () => {
  for (const p of ptys.splice(0)) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const socket of servers.splice(0)) {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
  if (t) await endWindowZero(t);
  t = null;
});

/**
 * Run `swarm <args>` on a 120×40 pty (`argv` replaces `node cli.js <args>` when given); `screen()`
 * is what a person would see now.
 */
async function onTerminal(s: TestSwarm, args: string[], extraEnv: Record<string, string> = {}, argv?: string[]) {
  const { spawn } = await import('node-pty');
  const term = new xterm.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  const env: Record<string, string> = { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', TMUX: '/tmp/another-tmux,1,0', ...extraEnv };
  const [file, ...rest] = argv ?? [process.execPath, CLI, ...args];
  const child = spawn(file!, rest, { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: s.root, env });
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
  const screen = (): string[] => {
    const lines: string[] = [];
    for (let y = 0; y < term.rows; y += 1) lines.push(term.buffer.active.getLine(y)?.translateToString(true) ?? '');
    return lines;
  };
  const waitScreen = async (test: (lines: string[]) => boolean, what: string, timeout = 45_000): Promise<string[]> => {
    try {
      return await waitFor(() => (test(screen()) ? screen() : null), { timeout, interval: 100, what });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${screen().join('\n')}`);
    }
  };
  const exited = (timeout = 15_000) => waitFor(() => (exitCode === null ? null : { code: exitCode, raw }), { timeout, what: `swarm ${args[0]} to exit` });
  return { child, screen, waitScreen, exited };
}

/** The dashboard line of a lane: cursor, state mark, name. */
const row = (lines: string[], lane: string): string => lines.find((l) => new RegExp(`^. \\S ${lane} `).test(l)) ?? '';

describe('swarm up on a terminal', () => {
  it('shows the dashboard in tmux window 0: header, lanes, capacity lines, events, a handoff reaching accepted', async () => {
    const s = (t = makeSwarm({
      lanes: [
        { name: 'lane-a', agent: { AGENT_G1: 'ready,handoff', AGENT_G2: 'ready,sleep20000' } },
        { name: 'lane-b', agent: { AGENT_G1: 'ready,sleep20000' } },
      ],
    }));
    const { waitScreen } = await onTerminal(s, ['up', s.file]);
    // Wait for the successor's own first report too (accepted first shows with the spent agent's last line).
    const lines = await waitScreen((l) => /accepted \d+s +plan ready$/.test(row(l, 'lane-a')) && /capacity=ok 80%/.test(row(l, 'lane-b')), 'lane-a accepted on screen');
    expect(lines[0]).toMatch(/^swarm e2e · plan plans\/p · lead lead@1 a1 \w+ · tmux swarm-e2e · up \d+s$/);
    expect(lines[1]).toBe('2 lanes: 2 working');
    expect(lines[2]).toMatch(/^ {4}LANE {3}GEN ACCOUNT +STATE +CAPACITY +CONTEXT +HANDOFF +LAST$/);
    expect(row(lines, 'lane-a')).toMatch(/^› ● lane-a g2 +(o1\/openai|o2\/openai) +working +capacity=ok 80% @o\d +░{6} +- accepted \d+s +plan ready$/);
    expect(row(lines, 'lane-b')).toMatch(/^ {2}● lane-b g1 +\w+\/anthropic +working +capacity=ok 80% @\w+ +░{6} +- - +plan ready$/);
    expect(lines).toContain('EVENTS');
    expect(lines.some((l) => /^\d\d:\d\d:\d\d lane-a g1 handoff_reported packet=plans\/p\/analysis_results\/handoff\/lane-a-g1-/.test(l))).toBe(true);
    expect(lines.some((l) => /^\d\d:\d\d:\d\d lane-a g2 packet_accepted /.test(l))).toBe(true);
    // Never a frame as tall as the terminal: the footer, then tmux's status line as the last row.
    expect(lines[ROWS - 1]).toContain('0:swarm*');
    expect(lines.filter((l) => l.startsWith('↑↓ select'))).toHaveLength(1);
    expect(s.events('packet_accepted')).toHaveLength(1);
    // Under the table, the selected lane's pane (lane-a: its successor's, g2, now the lane's) as it printed; then the legend.
    const shown = await waitScreen((l) => l.includes('PANE lane-a g2 · its last lines, read only') && l.some((x) => /^ {2}lane-a g2 \w/.test(x)), 'lane-a g2\'s lines in the preview');
    const pane = shown.indexOf('PANE lane-a g2 · its last lines, read only');
    expect(shown[pane - 1]).toMatch(/^ {2}● lane-b /);
    expect(shown.slice(pane + 1).filter((l) => l.startsWith('  ')).every((l) => l.startsWith('  lane-a g2 '))).toBe(true);
    expect(shown[shown.findIndex((l) => l.startsWith('↑↓ select')) - 1]).toMatch(/^near: capacity low, hand-off soon · attention: /);
  });

  it('works from inside another tmux session: the dashboard nested in its pane', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    const outer = `${s.socket}-outer`;
    servers.push(outer);
    // The terminal shows a tmux session (another server) whose shell runs `swarm up`.
    const { waitScreen } = await onTerminal(s, [], { TMUX: '' }, ['tmux', '-u', '-L', outer, '-f', '/dev/null', 'new-session', '-s', 'outer', '--', process.execPath, CLI, 'up', s.file]);
    const lines = await waitScreen((l) => /^swarm e2e /.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard inside the outer session');
    expect(row(lines, 'lane-a')).toMatch(/^› ● lane-a g1 +\S+ +working +capacity=ok 80% @\S+/);
    // Two status lines: the swarm's session, then the outer one.
    expect(lines[ROWS - 2]).toContain('0:swarm*');
    expect(lines[ROWS - 1]).toMatch(/^\[outer\]/);
  });

  it('q detaches and leaves the swarm running; swarm up again only re-attaches to the same engine', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    const first = await onTerminal(s, ['up', s.file]);
    await first.waitScreen((l) => /capacity=ok 80%/.test(row(l, 'lane-a')), 'lane-a on screen');
    const engine = enginePid(s);
    expect(engine).not.toBeNull();
    // Enter: the terminal shows lane-a's pane (its border names it); prefix 0 comes back.
    first.child.write('\r');
    await first.waitScreen((l) => l.some((line) => / lane-a g1 @\w+ /.test(line)) && l.some((line) => line.includes('lane-a g1 sleep30000')), "lane-a's pane");
    first.child.write('\u00020');
    await first.waitScreen((l) => /^swarm e2e /.test(l[0] ?? ''), 'the dashboard again after prefix 0');
    first.child.write('q');
    const { code, raw } = await first.exited();
    expect(code).toBe(0);
    expect(raw).toContain('swarm e2e: detached — the swarm keeps running in tmux session swarm-e2e; `swarm attach` re-opens the dashboard, `swarm down` stops it');
    expect(pidAlive(engine!)).toBe(true);

    const again = await onTerminal(s, ['up', s.file]);
    await again.waitScreen((l) => /capacity=ok 80%/.test(row(l, 'lane-a')) && /^swarm e2e /.test(l[0] ?? ''), 'the dashboard again');
    expect(enginePid(s)).toBe(engine);
    expect(s.events('lead_claimed')).toHaveLength(1);
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
    again.child.write('q');
    expect((await again.exited()).code).toBe(0);

    // `swarm attach` opens at the dashboard whichever window the session was left on.
    execFileSync('tmux', ['-L', s.socket, 'select-window', '-t', '=swarm-e2e:=agents-1']);
    const attached = await onTerminal(s, ['attach', s.file]);
    await attached.waitScreen((l) => /^swarm e2e /.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard through swarm attach');
  });

  it('an engine killed in window 0 is restarted, re-adopts the panes and the dashboard comes back', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    const { waitScreen } = await onTerminal(s, ['up', s.file]);
    await waitScreen((l) => /capacity=ok 80%/.test(row(l, 'lane-a')), 'lane-a on screen');
    const engine = enginePid(s)!;
    process.kill(engine, 'SIGKILL');
    const next = await waitFor(() => {
      const pid = enginePid(s);
      return pid !== null && pid !== engine && pidAlive(pid) ? pid : null;
    }, { timeout: 20_000, what: 'a new engine holding the lock' });
    expect(next).not.toBe(engine);
    await s.waitEvent('readopted');
    const lines = await waitScreen((l) => /^swarm e2e /.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard after the restart');
    expect(row(lines, 'lane-a')).toMatch(/^› ● lane-a g1 /);
    expect(s.events('lane_started').filter((e) => e.lane === 'lane-a')).toHaveLength(1);
    expect(s.events('lead_claimed')).toHaveLength(1);
  });

  it('--until-done on a terminal: the plan done, the terminal is detached and swarm up exits 0', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
    const { waitScreen, exited } = await onTerminal(s, ['up', s.file, '--until-done']);
    await waitScreen((l) => /^1 lane: 1 done · plan done$/.test(l[1] ?? ''), 'plan done on the dashboard');
    const { code, raw } = await exited(30_000);
    expect(code).toBe(0);
    expect(raw).toContain('swarm e2e: plan done');
    expect(s.events('plan_done')).toHaveLength(1);
  });

  it('with the pty backend the dashboard runs in this terminal; q closes it, the engine runs on', async () => {
    const s = (t = makeSwarm({ backend: 'pty', lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    const { child, waitScreen, exited } = await onTerminal(s, ['up', s.file]);
    await waitScreen((l) => /· pty swarm-e2e · up \d+s$/.test(l[0] ?? '') && /capacity=ok 80%/.test(row(l, 'lane-a')), 'the dashboard in this terminal');
    child.write('q');
    await waitScreen((l) => l.some((line) => line.startsWith('swarm e2e: dashboard closed; the engine runs on here')), 'the dashboard closed');
    expect(enginePid(s)).toBe(child.pid);
    child.write('\u0003');
    const { code, raw } = await exited();
    expect(code).toBe(1);
    expect(raw).toContain('swarm e2e: stopped by SIGINT');
  });

  it('with CI set, swarm up on a terminal runs headless, says so, and writes no escape codes', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a' }] }));
    const { exited } = await onTerminal(s, ['up', s.file], { CI: 'true' });
    const { code, raw } = await exited(60_000);
    expect(code).toBe(0);
    const lines = raw.split('\r\n');
    expect(lines[0]).toBe('swarm: CI is set, so the headless log is shown (the dashboard draws nothing under CI)');
    expect(lines).toContain('swarm e2e: plan done');
    expect(lines.some((l) => /^\d\d:\d\d:\d\d lane-a g1 lane_result /.test(l))).toBe(true);
    expect(raw).not.toContain('\u001b');
  });
});

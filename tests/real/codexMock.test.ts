/**
 * The real Codex 0.171.0 (on PATH: `npm run test:real`) against the mock's Responses API
 * (src/drill/mock/codex.ts) mounted on a tiny server of this test's own, in a private tmux server,
 * a temp git checkout and a temp CODEX_HOME (and HOME), always `--no-daemon`. Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseKind, type KindSpec } from '../../src/core/config/kindFile.js';
import { launchArgv } from '../../src/core/launch/launch.js';
import { isIdle, matchScreen } from '../../src/core/screens/screens.js';
import { handleCodex } from '../../src/drill/mock/codex.js';
import type { MockBrain, MockConversation, MockDeps, MockRateReading } from '../../src/drill/mock/types.js';
import { initRepo, tempDir } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

interface Proc { pid: number; ppid: number; args: string }

const processes = (): Proc[] =>
  execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids whose environment points at `dir` (Codex's children and any daemon inherit CODEX_HOME). */
const usingDir = (dir: string): number[] =>
  processes()
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/environ`, 'latin1').split('\0').some((kv) => kv.endsWith(`=${dir}`));
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);

interface Mock { port: number; seen: MockConversation[]; records: Parameters<MockDeps['record']>[0][]; readings: MockRateReading[]; server: Server }

async function startMock(brain: MockBrain, reading: (n: number) => MockRateReading): Promise<Mock> {
  const mock: Mock = { port: 0, seen: [], records: [], readings: [], server: createServer() };
  const deps: MockDeps = {
    brain: (turn) => (mock.seen.push(turn.conversation), brain(turn)),
    rates: () => {
      const r = reading(mock.readings.length);
      mock.readings.push(r);
      return r;
    },
    record: (entry) => mock.records.push(entry),
  };
  mock.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.url?.startsWith('/v1/responses')) void handleCodex(req, text === '' ? undefined : JSON.parse(text), res, deps);
      else {
        mock.records.push({ vendor: 'codex', account: '', path: `${req.method} ${req.url} (unrouted)`, status: 404 });
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => mock.server.listen(0, '127.0.0.1', resolve));
  mock.port = (mock.server.address() as AddressInfo).port;
  return mock;
}

interface Lane { socket: string; repo: string; home: string; pane: string; seen: Map<number, Proc> }

let cleanups: (() => void | Promise<void>)[] = [];
let lanePids: number[] = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn();
  cleanups = [];
  // Anything Codex left (there should be none; the tests fail on it): ended by pid, ours only.
  for (const pid of lanePids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  lanePids = [];
});

const tmux = (socket: string, ...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const capture = (lane: Lane): string => {
  try {
    return tmux(lane.socket, 'capture-pane', '-p', '-t', lane.pane);
  } catch {
    return '';
  }
};

/** Codex in a pane of a private tmux server, on a checkout and CODEX_HOME of its own, signed in to the mock. */
function startCodex(mock: Mock, approval: 'never' | 'on-request', prompt: string): Lane {
  const tmp = tempDir('swarm-codexmock-');
  cleanups.push(tmp.cleanup);
  const [repo, home, userHome] = [join(tmp.dir, 'repo'), join(tmp.dir, 'codex-home'), join(tmp.dir, 'home')];
  for (const dir of [repo, home, userHome]) mkdirSync(dir);
  writeFileSync(join(repo, 'README.md'), 'mock lane\n');
  initRepo(repo);
  writeFileSync(join(home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'mock-o1' }));
  writeFileSync(join(home, 'config.toml'), `openai_base_url = "http://127.0.0.1:${mock.port}/v1"\n\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`);
  const socket = `swarm-codexmock-${process.pid}-${Date.now()}`;
  cleanups.push(() => {
    try {
      tmux(socket, 'kill-server');
    } catch {
      // already gone
    }
  });
  const env = [`CODEX_HOME=${home}`, `HOME=${userHome}`, `PATH=${process.env.PATH ?? ''}`, 'TERM=tmux-256color'];
  // Launched as swarm launches a Codex lane (panes/codex.yaml), with the prompt as its brief and no notify.
  const argv = launchArgv(codexKind(), {
    command: null, promptFile: '', prompt, brief: prompt, sessionId: '', settings: '', systemPromptFile: '', swarmBin: '', nodeBin: '',
    approvals: { argv: ['-a', approval, '-s', 'workspace-write'], promptAfterDashDash: false },
    notify: '[]',
  });
  const pane = tmux(socket, 'new-session', '-d', '-P', '-F', '#{pane_id}', '-x', '160', '-y', '50', '-c', repo, '--', 'env', '-i', ...env, ...argv).trim();
  return { socket, repo, home, pane, seen: new Map() };
}

/** The pane's process and everything under it, remembered in `lane.seen` (and for afterEach). */
function watch(lane: Lane): void {
  let roots: number[];
  try {
    roots = tmux(lane.socket, 'list-panes', '-a', '-F', '#{pane_pid}').split('\n').filter(Boolean).map(Number);
  } catch {
    return;
  }
  const all = processes();
  const out = all.filter((p) => roots.includes(p.pid));
  for (let i = 0; i < out.length; i++) out.push(...all.filter((p) => p.ppid === out[i]!.pid && !out.some((o) => o.pid === p.pid)));
  for (const p of out) lane.seen.set(p.pid, p);
  lanePids = [...new Set([...lanePids, ...out.map((p) => p.pid)])];
}

async function screenShowing(lane: Lane, pattern: RegExp, what: string): Promise<string> {
  return waitFor(() => (watch(lane), pattern.test(capture(lane)) ? capture(lane) : null), { timeout: 60_000, interval: 200, what: `${what} (screen: ${capture(lane)})` });
}

function rollout(home: string): Record<string, unknown>[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/^rollout-.*\.jsonl$/.test(entry.name)) files.push(join(dir, entry.name));
    }
  };
  if (existsSync(join(home, 'sessions'))) walk(join(home, 'sessions'));
  return files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
}
const events = (home: string, type: string): Record<string, unknown>[] =>
  rollout(home).filter((l) => l.type === 'event_msg' && (l.payload as { type?: string }).type === type).map((l) => l.payload as Record<string, unknown>);

/** Kill the pane and see every process it had end by itself: no codex, no daemon on the CODEX_HOME. */
async function killPaneLeavesNothing(lane: Lane): Promise<void> {
  watch(lane);
  const pids = [...lane.seen.keys()];
  expect([...lane.seen.values()].some((p) => /codex --no-daemon/.test(p.args))).toBe(true);
  expect([...lane.seen.values()].filter((p) => p.args.includes('app-server'))).toEqual([]);
  tmux(lane.socket, 'kill-pane', '-t', lane.pane);
  await waitFor(() => pids.every((pid) => !alive(pid)), { timeout: 15_000, what: `the pane's processes ${pids.join(', ')} gone` });
  expect(usingDir(lane.home)).toEqual([]);
  expect(existsSync(join(lane.home, 'packages', 'app-server-daemon'))).toBe(false);
}

/** panes/codex.yaml as swarm reads it: its screens must name what the real Codex shows. */
function codexKind(): KindSpec {
  const result = parseKind(readFileSync(new URL('../../panes/codex.yaml', import.meta.url), 'utf8'));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.kind;
}
/** DUMP=1 prints the screens seen; DUMP=<folder> writes each to <folder>/<what>.txt (fixtures). */
const dump = (what: string, screen: string): void => {
  const to = process.env.DUMP;
  if (to === undefined || to === '') return;
  if (to === '1') console.log(`---- ${what}\n${screen}`);
  else writeFileSync(join(to, `${what.replaceAll(' ', '-')}.txt`), screen);
};

const now = Math.floor(Date.now() / 1000);
const rising = (n: number): MockRateReading => ({ fiveHourUsed: 20 + 15 * n, weekUsed: 5 + n, fiveHourResetsAt: now + 3_600, weekResetsAt: now + 86_400, rejected: false });

describe('Codex 0.171.0 against the mock Responses API (tmux)', () => {
  it('runs the brain\'s command through its own exec tool, writes the headers\' rate limits into its rollout, and leaves no process once its pane is killed', async () => {
    const mock = await startMock(({ conversation }) =>
      conversation.entries.some((e) => e.role === 'tool_result') ? { kind: 'say', text: 'done' } : { kind: 'shell', command: 'echo hi > marker.txt' }, rising);
    cleanups.push(() => new Promise((resolve) => mock.server.close(() => resolve())));
    const lane = startCodex(mock, 'never', 'make the marker');
    const done = await screenShowing(lane, /• done[\s\S]*Worked for/, 'the turn to end with "done"');
    dump('done', done);
    expect(matchScreen(codexKind(), done)).toBeNull();
    expect(isIdle(codexKind(), done)).toBe(true);

    expect(readFileSync(join(lane.repo, 'marker.txt'), 'utf8')).toBe('hi\n');
    // What the brain saw: the prompt as the user's, Codex's prompt as system, the call and its result.
    const last = mock.seen.at(-1)!;
    expect(last.system).toContain('You are Codex');
    expect(last.system).toContain('<environment_context>');
    expect(last.entries.filter((e) => e.role === 'user')).toEqual([{ role: 'user', text: 'make the marker' }]);
    expect(last.entries.filter((e) => e.role !== 'user')).toEqual([
      { role: 'tool_call', id: expect.stringMatching(/^call_/), command: 'echo hi > marker.txt' },
      { role: 'tool_result', id: (last.entries.find((e) => e.role === 'tool_call') as { id: string }).id, output: expect.any(String), isError: false },
    ]);
    // Two model requests for the turn (one reading each); the title side request asked neither the brain nor the script.
    expect(mock.readings).toHaveLength(2);
    expect(mock.records.filter((r) => r.status === 200 && r.path === '/v1/responses').map((r) => r.action?.kind)).toEqual(['shell', 'say']);
    // One WebSocket attempt per thread (the lane's and the title's), declined with 426: no reconnecting.
    expect(mock.records.filter((r) => r.action === undefined && r.status !== 429).length).toBeLessThanOrEqual(2);
    expect(mock.records.filter((r) => r.path.includes('unrouted'))).toEqual([]);

    // The rollout's token_count carries the last reading exactly as the headers said it.
    const counts = events(lane.home, 'token_count');
    expect(counts.length).toBeGreaterThanOrEqual(2);
    const limits = counts.at(-1)!.rate_limits;
    expect(limits).toMatchObject({
      limit_id: 'codex',
      primary: { used_percent: 35, window_minutes: 300, resets_at: now + 3_600 },
      secondary: { used_percent: 6, window_minutes: 10_080, resets_at: now + 86_400 },
    });
    expect(events(lane.home, 'task_complete').at(-1)).toMatchObject({ last_agent_message: 'done' });

    await killPaneLeavesNothing(lane);
  });

  it('near the limit (92% used, allowed): the turn ends at the composer, with no model-switch menu over it', async () => {
    const mock = await startMock(({ conversation }) =>
      conversation.entries.some((e) => e.role === 'tool_result') ? { kind: 'say', text: 'done' } : { kind: 'shell', command: 'echo hi > marker.txt' }, (n) => ({ ...rising(n), fiveHourUsed: 92 }));
    cleanups.push(() => new Promise((resolve) => mock.server.close(() => resolve())));
    const lane = startCodex(mock, 'never', 'make the marker');
    const done = await screenShowing(lane, /• done[\s\S]*Worked for/, 'the turn to end with "done"');
    // Codex's own nudge shows as a line; the "Approaching rate limits / Switch to …" menu (digit keys) must not.
    await waitFor(() => (/› Ask Codex to do anything/.test(capture(lane)) || /Approaching rate limits/.test(capture(lane)) ? true : null), { what: 'the composer or the menu' });
    const screen = capture(lane);
    dump('near the limit', screen);
    expect(done).toContain('Heads up, you have less than 10% of your 5h limit left.');
    expect(screen).not.toContain('Approaching rate limits');
    expect(isIdle(codexKind(), screen)).toBe(true);

    await killPaneLeavesNothing(lane);
  });

  it('a rejected reading: the 429 usage_limit_reached shows as Codex\'s usage-limit error, on screen and in the rollout', async () => {
    const mock = await startMock(() => ({ kind: 'say', text: 'never said' }), () => ({ ...rising(0), fiveHourUsed: 100, rejected: true }));
    cleanups.push(() => new Promise((resolve) => mock.server.close(() => resolve())));
    const lane = startCodex(mock, 'never', 'make the marker');
    const screen = await screenShowing(lane, /hit your usage limit/, 'the usage-limit error');
    dump('usage limit', screen);
    expect(matchScreen(codexKind(), screen)?.screen).toBe('usage_limit');

    // A reset after midnight carries its date first ("Dec 2nd, 2026 12:06 AM"): seen at 23:06.
    expect(screen).toMatch(/■ You’ve hit your usage limit\. Visit https:\/\/chatgpt\.com\/settings\/usage to purchase more credits or try again at (?:[A-Z][a-z]{2} \d{1,2}(?:st|nd|rd|th), \d{4} )?\d{1,2}:\d\d [AP]M\./);
    expect(mock.seen).toEqual([]);
    expect(mock.records.filter((r) => r.status === 429)).toHaveLength(1);
    await waitFor(() => events(lane.home, 'task_complete').length > 0, { what: 'task_complete in the rollout' });
    expect(events(lane.home, 'task_complete').at(-1)).toMatchObject({
      last_agent_message: null,
      error: { message: expect.stringMatching(/^You’ve hit your usage limit\./), codex_error_info: 'usage_limit_exceeded' },
    });
    expect(events(lane.home, 'token_count').at(-1)).toMatchObject({ info: null, rate_limits: { primary: { used_percent: 100 } } });

    await killPaneLeavesNothing(lane);
  });

  it('on-request, a command asking to leave the sandbox: Codex shows its approval prompt and runs nothing until a key comes', async () => {
    const outside = join('/var/tmp', `swarm-codexmock-${process.pid}-${Date.now()}`);
    cleanups.push(() => {
      if (existsSync(outside)) execFileSync('rm', ['-f', outside]);
    });
    const mock = await startMock(({ conversation }) =>
      conversation.entries.some((e) => e.role === 'tool_result') ? { kind: 'say', text: 'done' } : { kind: 'shell', command: `touch ${outside}`, escalate: 'Write the probe outside the workspace' }, rising);
    cleanups.push(() => new Promise((resolve) => mock.server.close(() => resolve())));
    const lane = startCodex(mock, 'on-request', 'write the probe');
    const screen = await screenShowing(lane, /Press enter to confirm or esc to cancel/, 'the approval prompt');
    dump('approval', screen);
    expect(matchScreen(codexKind(), screen)).toMatchObject({ screen: 'permission', text: 'Would you like to run the following command?' });
    expect(isIdle(codexKind(), screen)).toBe(false);

    for (const line of [
      'Would you like to run the following command?',
      'Reason: Write the probe outside the workspace',
      `$ touch ${outside}`,
      '› 1. Yes, proceed (y)',
      `2. Yes, and don't ask again for commands that start with \`touch ${outside}\` (p)`,
      '3. No, and tell Codex what to do differently (esc)',
      'Press enter to confirm or esc to cancel',
    ]) expect(screen).toContain(line);
    expect(existsSync(outside)).toBe(false);
    expect(mock.seen).toHaveLength(1);

    await killPaneLeavesNothing(lane);
  });
});

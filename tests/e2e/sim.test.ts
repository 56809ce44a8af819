/**
 * The simulated agent (`swarm sim`) end to end, without the engine: the sim runs as a child process
 * with a pane's SWARM_* environment in a temporary git repository; the test plays swarm's part where
 * one is needed (appending to mailboxes and typing the pointer line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendMailbox, pointerLine } from '../../src/adapters/mailbox.js';
import { packetFileName, readPacketFile, writePacketFile } from '../../src/adapters/packetFile.js';
import { gitState } from '../../src/adapters/git.js';
import { degradedPacket, type Packet, parsePacket, serializePacket } from '../../src/core/packet/packet.js';
import { validatePacket } from '../../src/core/packet/check.js';
import { mailboxPath } from '../../src/core/plan/paths.js';
import type { Sender } from '../../src/core/protocol/mailbox.js';
import { BUSY } from '../../src/sim/screen.js';
import { CLI, PANE, spoolRecords, git, testPlan, writeTree, type TestPlan, claimAsUp } from '../helpers/swarm.js';
import { waitFor } from '../helpers/waitFor.js';

const PLAN = `---
contract: c-1
---
# Plan

\`\`\`sim
lane-a:
  - write: greeting.txt
    text: "hello from lane-a\\n"
  - run: cat greeting.txt
  - gate: grep -qx 'hello from lane-a' greeting.txt
lane-c:
  - ask: lane-a
    text: what is your file called?
  - write: summary.md
    text: |
      # Demo summary
      - lane-a: {answer:lane-a}
  - gate: grep -q '^# Demo summary' summary.md
\`\`\`
`;
const GATE_A = "grep -qx 'hello from lane-a' greeting.txt";

interface Sim {
  child: ChildProcess;
  out: () => string;
  type: (line: string) => void;
  exited: Promise<number | null>;
}

let t: TestPlan;
let sims: Sim[] = [];

beforeEach(() => {
  t = testPlan();
  writeTree(t.root, { 'plans/p1/PLAN.md': PLAN, 'lanes.d/lane-a/.keep': '', 'lanes.d/lane-c/.keep': '' });
  git(t.root, 'add', '-A');
  git(t.root, 'commit', '-q', '-m', 'plan');
});
afterEach(() => {
  for (const s of sims) {
    try {
      process.kill(-s.child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  sims = [];
  t.cleanup();
});

// The dot keeps the temp folder's random name from running into a 32-character "random-looking"
// string in where.checkout, which the packet's secret check would refuse.
const checkout = (lane: string) => join(t.root, 'lanes.d', lane);

/** The pane's environment for `lane` (generation 1 unless given), fast steps. */
function envOf(lane: string, extra: Record<string, string> = {}): Record<string, string> {
  return { SWARM_KIND: 'sim', SWARM_MAILBOX: mailboxPath(t.plan, lane), SIM_STEP_MS: '0', SIM_ASK_MS: '20000', ...t.agentEnv(lane), ...extra };
}

function start(lane: string, extra: Record<string, string> = {}, cwd = checkout(lane)): Sim {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...envOf(lane, extra) };
  // Under a stand-in pane recorded for the agent its environment names (SPEC 10.3: who it is comes from its pane).
  const agent = { plan: t.plan, lane: env.SWARM_LANE!, role: env.SWARM_ROLE === 'lead' ? 'lead' : 'lane', generation: Number(env.SWARM_GENERATION ?? '1'), account: env.SWARM_ACCOUNT!, run: 1 };
  // A process group of its own: the test ends the stand-in pane and the agent under it together.
  const child = spawn(process.execPath, [PANE, JSON.stringify(agent), process.execPath, CLI, 'sim'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const sim = { child, out: () => out, type: (line: string) => void child.stdin!.write(`${line}\n`), exited };
  sims.push(sim);
  return sim;
}

interface Message { from: string; to: string; generation: number; text: string }
const inbox = (kind = 'message'): Record<string, unknown>[] => spoolRecords(t.plan).filter((r) => r.kind === kind);
const messages = (from?: string): Message[] => (inbox() as unknown as Message[]).filter((m) => from === undefined || m.from === from);
const waitMessage = (pred: (m: Message) => boolean, what: string) => waitFor(() => messages().find(pred), { timeout: 40_000, what });

/** Swarm's part: put a message in an agent's mailbox and type the pointer line into its pane. */
function deliver(to: string, from: string, text: string, sim?: Sim): void {
  const sender: Sender = from === 'swarm' ? { kind: 'swarm' } : { kind: 'lane', name: from, generation: 1 };
  const path = appendMailbox(t.plan, to, { from: sender, text, at: new Date() });
  sim?.type(pointerLine(1, path));
}

/** The terminal's view of a sim's output: `\r` + erase-line wipes the line being written. */
function screen(output: string): string[] {
  const lines: string[] = [''];
  for (const c of output.replaceAll('\r\u001b[2K', '\u0000')) {
    if (c === '\n') lines.push('');
    else if (c === '\u0000') lines[lines.length - 1] = '';
    else lines[lines.length - 1] += c;
  }
  return lines.filter((l) => l !== '');
}

function packetAt(path: string): Packet {
  const parsed = parsePacket(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  return parsed.packet;
}

const handoffPath = (m: Message) => /^handoff (\S+)/.exec(m.text)?.[1] ?? '';

describe('a simulated lane', () => {
  it('works its steps, reports plan ready and done with its capacity line, then idles without exiting', async () => {
    const sim = start('lane-a');
    await waitMessage((m) => m.text.startsWith('done'), 'done');
    expect(messages('lane-a').map((m) => [m.to, m.text])).toEqual([
      ['lead', 'plan ready\ncapacity=ok 100% @acct-lane-a context=0%'],
      ['lead', 'done\ncapacity=ok 88% @acct-lane-a context=9%'],
    ]);
    expect(readFileSync(join(checkout('lane-a'), 'greeting.txt'), 'utf8')).toBe('hello from lane-a\n');
    const readings = inbox('capacity');
    expect(readings.length).toBe(4);
    expect(readings.every((r) => r.source === 'probe')).toBe(true);
    expect(readings.map((r) => r.remaining_pct)).toEqual([100, 96, 92, 88]);
    await waitFor(() => screen(sim.out()).at(-1) === '[sim] ready', { what: 'the ready line' });
    expect(screen(sim.out()).join('\n')).not.toContain(BUSY);
    expect(sim.out()).toContain(BUSY);
    expect(sim.child.exitCode).toBeNull();
  });

  it('capped to critical, it hands off at once with a valid 0600 packet and stops without exiting', async () => {
    const sim = start('lane-a', { AGENTKIT_CAPACITY_CAP: '@acct-lane-a=8' });
    const report = await waitMessage((m) => m.text.startsWith('handoff '), 'handoff');
    const path = handoffPath(report);
    expect(report.text).toBe(`handoff ${path}\ncapacity=critical 8% @acct-lane-a context=0%`);
    expect(messages('lane-a').map((m) => m.text.split('\n')[0])).toEqual(['plan ready', `handoff ${path}`]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const { facts, text } = readPacketFile(t.plan, path);
    const g = gitState(checkout('lane-a'), t.plan);
    expect(validatePacket(text, facts, { plan: 'p1', lane: 'lane-a', contract: 'c-1', branch: g.branch, head: g.head, uncommitted: g.uncommitted }, {})).toEqual([]);
    const packet = packetAt(path);
    expect(packet).toMatchObject({
      reason: 'capacity_critical',
      step: 1,
      done: [],
      next: ['step 1: write greeting.txt', 'step 2: run cat greeting.txt', `step 3: gate ${GATE_A}`],
      unverified: [{ what: 'step 3 gate', gate: GATE_A }],
      author: { lane: 'lane-a', account: 'acct-lane-a', generation: 1 },
    });
    expect(existsSync(join(checkout('lane-a'), 'greeting.txt'))).toBe(false);
    await waitFor(() => sim.out().includes('[sim] stopped: handed off'), { what: 'the stopped line' });
    expect(sim.child.exitCode).toBeNull();
  });

  it('at low capacity it finishes the step in hand, hands off, and a successor continues from next', async () => {
    start('lane-a', { SIM_QUOTA: '20' });
    const report = await waitMessage((m) => m.text.startsWith('handoff '), 'handoff');
    const path = handoffPath(report);
    expect(packetAt(path)).toMatchObject({
      reason: 'capacity_low',
      done: ['step 1: write greeting.txt'],
      next: ['step 2: run cat greeting.txt', `step 3: gate ${GATE_A}`],
      unverified: [{ what: 'step 3 gate', gate: GATE_A }],
    });
    expect(report.text.split('\n')[1]).toBe('capacity=low 16% @acct-lane-a context=3%');

    const g2 = start('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'acct-2', SWARM_PACKET: path });
    await waitMessage((m) => m.generation === 2 && m.text.startsWith('done'), 'done from g2');
    expect(messages('lane-a').filter((m) => m.generation === 2).map((m) => m.text)).toEqual(['done\ncapacity=ok 92% @acct-2 context=6%']);
    expect(existsSync(`${path}.accepted.json`)).toBe(true);
    expect(inbox('accept')).toMatchObject([{ from: 'lane-a', generation: 2, packet: path }]);
    const out = g2.child.stdout ? g2.out() : '';
    expect(out).toContain(`[sim] accepted ${path}`);
    expect(out).toContain(`[sim] rerun gate passed: ${GATE_A}`);
    expect(out).not.toContain('step 1: write');
    expect(out).toContain('step 2: run cat greeting.txt');
  });

  it('a successor whose checkout moved on reports blocked decision with the mismatch, and idles', async () => {
    start('lane-a', { AGENTKIT_CAPACITY_CAP: '@acct-lane-a=5' });
    const path = handoffPath(await waitMessage((m) => m.text.startsWith('handoff '), 'handoff'));
    writeFileSync(join(checkout('lane-a'), 'stray.txt'), 'x');
    const g2 = start('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'acct-2', SWARM_PACKET: path });
    const blocked = await waitMessage((m) => m.generation === 2, 'a report from g2');
    expect(blocked.text).toMatch(/^blocked decision packet not accepted \(exit 3\): .*lanes\.d\/lane-a\/stray\.txt.*\ncapacity=ok 100% @acct-2 context=0%$/s);
    expect(existsSync(`${path}.accepted.json`)).toBe(false);
    await waitFor(() => screen(g2.out()).at(-1) === '[sim] ready', { what: 'idle' });
    expect(g2.child.exitCode).toBeNull();
  });

  it('given a degraded packet, a successor finds its place from the checkout', async () => {
    const g1 = start('lane-a', { SIM_CRASH_AT: '2' });
    expect(await g1.exited).toBe(1);
    const g = gitState(checkout('lane-a'), t.plan);
    const packet = degradedPacket({
      plan: 'p1', contract: 'c-1', task: 'lane-a steps', reason: 'lane_lost', lead: null, epoch: 1,
      where: { repo: g.repo, checkout: checkout('lane-a'), branch: g.branch, head: g.head, pushed: g.pushed, uncommitted: g.uncommitted },
      author: { lane: 'lane-a', account: 'acct-lane-a', generation: 1 },
    });
    const path = writePacketFile(t.plan, packetFileName('lane-a', 1, new Date()).replace(/\.yaml$/, '-degraded.yaml'), serializePacket(packet));
    const g2 = start('lane-a', { SWARM_GENERATION: '2', SWARM_ACCOUNT: 'acct-2', SWARM_PACKET: path });
    await waitMessage((m) => m.generation === 2 && m.text.startsWith('done'), 'done from g2');
    expect(g2.out()).toContain('[sim] the packet does not say where work stood; the checkout does: continuing with step 2');
    expect(g2.out()).not.toContain('step 1: write');
    expect(g2.out()).toContain(`[sim] gate passed: ${GATE_A}`);
  });

  it('told by swarm to hand off now, it does so at its next work boundary', async () => {
    const sim = start('lane-a', { SIM_STEP_MS: '1500' });
    await waitFor(() => sim.out().includes('step 1: write greeting.txt'), { what: 'step 1 under way' });
    deliver('lane-a', 'swarm', 'swarm: hand off now. Write your packet with `swarm packet write --reason R --doing TEXT --next STEP`', sim);
    const report = await waitMessage((m) => m.text.startsWith('handoff '), 'handoff');
    const packet = packetAt(handoffPath(report));
    expect(packet.reason).toBe('capacity_critical');
    expect(packet.done).toEqual(['step 1: write greeting.txt']);
    expect(packet.next).toEqual(['step 2: run cat greeting.txt', `step 3: gate ${GATE_A}`]);
    expect(sim.out()).toContain('[sim] swarm says hand off now');
  });
});

describe('lanes ask each other', () => {
  it('lane-c asks lane-a what its file is called and writes the answer into summary.md', async () => {
    const a = start('lane-a');
    await waitMessage((m) => m.from === 'lane-a' && m.text.startsWith('done'), 'lane-a done');
    const c = start('lane-c');
    const ask = await waitMessage((m) => m.from === 'lane-c' && m.to === 'lane-a', 'the ask');
    expect(ask.text).toBe('ask what is your file called?');
    deliver('lane-a', 'lane-c', ask.text, a);
    const answer = await waitMessage((m) => m.from === 'lane-a' && m.to === 'lane-c', 'the answer');
    expect(answer.text).toBe('answer greeting.txt');
    deliver('lane-c', 'lane-a', answer.text, c);
    await waitMessage((m) => m.from === 'lane-c' && m.text.startsWith('done'), 'lane-c done');
    expect(readFileSync(join(checkout('lane-c'), 'summary.md'), 'utf8')).toBe('# Demo summary\n- lane-a: greeting.txt\n');
    expect(c.out()).toContain('[sim] lane-a answered: greeting.txt');
  });
});

describe('fault knobs', () => {
  it('SIM_CRASH_AT exits 1 before that step', async () => {
    const sim = start('lane-a', { SIM_CRASH_AT: '2' });
    expect(await sim.exited).toBe(1);
    expect(existsSync(join(checkout('lane-a'), 'greeting.txt'))).toBe(true);
    expect(messages('lane-a').map((m) => m.text.split('\n')[0])).toEqual(['plan ready']);
    expect(sim.out()).toContain('[sim] SIM_CRASH_AT=2: crashing before step 2');
  });

  it('SIM_CRASH_AT does not apply to a successor unless SIM_FAULT_ALL=1', async () => {
    const sim = start('lane-a', { SIM_CRASH_AT: '1', SWARM_GENERATION: '2' });
    await waitMessage((m) => m.text.startsWith('done'), 'done');
    expect(sim.child.exitCode).toBeNull();
    const again = start('lane-c', { SIM_CRASH_AT: '1', SWARM_GENERATION: '2', SIM_FAULT_ALL: '1' });
    expect(await again.exited).toBe(1);
  });

  it('SIM_PERMISSION_AT shows the permission screen, waits, and only logs what is typed', async () => {
    const sim = start('lane-a', { SIM_PERMISSION_AT: '1' });
    await waitFor(() => sim.out().includes('❯ 1. Yes'), { what: 'the permission screen' });
    sim.type('1');
    sim.type(pointerLine(1, mailboxPath(t.plan, 'lane-a')));
    const keys = join(t.plan, '.swarm', 'sim', 'keys-lane-a-g1.log');
    await waitFor(() => existsSync(keys) && readFileSync(keys, 'utf8').includes('new message'), { what: 'the keys log' });
    expect(readFileSync(keys, 'utf8').split('\n').slice(1)).toEqual(['1', pointerLine(1, mailboxPath(t.plan, 'lane-a')), '']);
    const shown = screen(sim.out());
    expect(shown.join('\n')).toContain('[sim] Do you want to proceed?');
    expect(shown.join('\n')).not.toContain(BUSY);
    expect(existsSync(join(checkout('lane-a'), 'greeting.txt'))).toBe(false);
    expect(messages('lane-a').map((m) => m.text.split('\n')[0])).toEqual(['plan ready']);
    expect(sim.child.exitCode).toBeNull();
  });

  it('SIM_USAGE_LIMIT_AT shows the usage-limit screen and stops working, with no report', async () => {
    const sim = start('lane-a', { SIM_USAGE_LIMIT_AT: '2' });
    await waitFor(() => sim.out().includes("[sim] You've hit your session limit · resets 3:45pm"), { what: 'the usage-limit screen' });
    expect(screen(sim.out()).at(-1)).toBe("[sim] You've hit your session limit · resets 3:45pm");
    expect(existsSync(join(checkout('lane-a'), 'greeting.txt'))).toBe(true);
    expect(messages('lane-a').map((m) => m.text.split('\n')[0])).toEqual(['plan ready']);
    expect(JSON.parse(readFileSync(join(t.plan, '.swarm', 'sim', 'run-1', 'acct-lane-a.json'), 'utf8'))).toMatchObject({ remaining_pct: 0 }); // the run its pane was recorded in
    expect(sim.child.exitCode).toBeNull();
  });

  it('SIM_BAD_PACKET leaves the packet 0644; told it was rejected, it writes a good one and reports again', async () => {
    const sim = start('lane-a', { SIM_BAD_PACKET: '1', AGENTKIT_CAPACITY_CAP: '@acct-lane-a=8' });
    const first = handoffPath(await waitMessage((m) => m.text.startsWith('handoff '), 'handoff'));
    expect(statSync(first).mode & 0o777).toBe(0o644);
    deliver('lane-a', 'swarm', `swarm: your packet ${first} was rejected:\n- mode is 0644, expected 0600\nFix it and report \`handoff <packet path>\` again.`, sim);
    const second = handoffPath(await waitMessage((m) => m.text.startsWith('handoff ') && !m.text.includes(first), 'a second handoff'));
    expect(second).not.toBe(first);
    expect(statSync(second).mode & 0o777).toBe(0o600);
  });

  it('SIM_IGNORE_HANDOFF keeps working past critical and reports nothing after its steps', async () => {
    const sim = start('lane-a', { SIM_IGNORE_HANDOFF: '1', AGENTKIT_CAPACITY_CAP: '@acct-lane-a=8' });
    await waitFor(() => sim.out().includes('[sim] all steps done (SIM_IGNORE_HANDOFF: no report)'), { what: 'the last step' });
    expect(readFileSync(join(checkout('lane-a'), 'greeting.txt'), 'utf8')).toBe('hello from lane-a\n');
    expect(messages('lane-a').map((m) => m.text.split('\n')[0])).toEqual(['plan ready']);
    expect(inbox('capacity').every((r) => r.decision === 'handoff_now')).toBe(true);
    expect(sim.child.exitCode).toBeNull();
  });
});

describe('the simulated lead', () => {
  const table = () => readFileSync(join(t.plan, '.swarm', 'sim', 'lead-table.md'), 'utf8');
  const leadRecord = () => JSON.parse(readFileSync(join(t.plan, 'lead.json'), 'utf8')) as { lead: string; epoch: number; released?: boolean };

  beforeEach(async () => {
    const claimed = claimAsUp(t.plan, { succession: ['lead-b', 'lane-a'] });
    expect(claimed.code).toBe(0);
  });

  it('keeps the lane table from reports and releases the plan when swarm says every lane is done', async () => {
    const lead = start('lead', {}, t.root);
    await waitFor(() => screen(lead.out()).at(-1) === '[sim] ready', { what: 'the lead idle' });
    deliver('lead', 'lane-a', 'plan ready\ncapacity=ok 90% @s1', lead);
    await waitFor(() => existsSync(join(t.plan, '.swarm', 'sim', 'lead-table.md')) && table().includes('| lane-a | plan ready | capacity=ok 90% @s1 |'), { what: 'the row' });
    deliver('lead', 'swarm', 'Every lane is done. Release the plan: `swarm lead release`.', lead);
    await waitFor(() => leadRecord().released === true, { what: 'the release' });
    expect(messages('lead')).toEqual([]);
    expect(lead.child.exitCode).toBeNull();
  });

  it('at critical it writes a lead packet and hands over; the successor accepts it and carries the table on', async () => {
    const lead = start('lead', { SIM_QUOTA: '14' }, t.root);
    await waitFor(() => screen(lead.out()).at(-1) === '[sim] ready', { what: 'the lead idle' });
    deliver('lead', 'lane-a', 'plan ready\ncapacity=ok 90% @s1', lead);
    const path = await waitFor(() => /handed the lead to lead-b \((\/\S+\.yaml)\)/.exec(lead.out())?.[1], { what: 'the handover' });
    expect(leadRecord()).toMatchObject({ lead: 'lead-b', epoch: 2 });
    const packet = packetAt(path);
    expect(packet.reason).toBe('lead_handover');
    expect(packet.next[0]).toMatch(/^lane lane-a: plan ready \| capacity=ok 90% @s1 \| /);

    // As the engine starts it: the lead lane's next generation, under the successor's name.
    const next = start('lead-b', { SWARM_EPOCH: '2', SWARM_GENERATION: '2', SWARM_PACKET: path }, t.root);
    await waitFor(() => next.out().includes(`[sim] accepted ${path}`), { what: 'the accept' });
    await waitFor(() => table().startsWith('# Lead table: lead-b g2 @acct-lead-b, epoch 2') && table().includes('| lane-a | plan ready |'), { what: 'the carried table' });
    deliver('lead-b', 'swarm', 'Every lane is done. Release the plan: `swarm lead release`.', next);
    await waitFor(() => leadRecord().released === true, { what: 'the release by lead-b' });
  });
});

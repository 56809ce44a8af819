/**
 * Every fixture of tests/fixtures/claude and tests/fixtures/codex fed through the agents' commands,
 * as the real CLIs would call them: `swarm statusline` (stdin), `swarm hook <Event>` (stdin),
 * `swarm hook codex-notify '<json>'` (last argument), then `swarm capacity --self --json`.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pointerLine } from '../../src/core/protocol/mailbox.js';
import { mailboxPath } from '../../src/core/plan/paths.js';
import { ROOT, swarm, testPlan, type TestPlan, spoolRecords } from '../helpers/swarm.js';

let t: TestPlan;
beforeEach(() => {
  t = testPlan();
});
afterEach(() => t.cleanup());

const FIXTURES = join(ROOT, 'tests', 'fixtures');
const text = (kind: string, name: string): string => readFileSync(join(FIXTURES, kind, name), 'utf8');
const inbox = (): Record<string, unknown>[] => spoolRecords(t.plan);
const capacity = async (env: Record<string, string>) => {
  const run = await swarm(['capacity', '--self', '--json'], { env: t.agentEnv('lane-a', env) });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
};

describe('swarm statusline: every status-line fixture', () => {
  it.each([
    ['statusline-after-reply.json', 'lane-a g1 @acct-lane-a · capacity ok 36.5% · context 42%', { state: 'ok', remaining_pct: 36.5, context_pct: 42, source: 'probe', cached: true, decision: 'continue' }],
    ['statusline-1m.json', 'lane-a g1 @acct-lane-a · capacity ok 92% · context 41.2%', { state: 'ok', remaining_pct: 92, source: 'probe', cached: true }],
    ['statusline-weekly-binding.json', 'lane-a g1 @acct-lane-a · capacity critical 9% · context 42% · hand off now', { state: 'critical', remaining_pct: 9, resets_at: '2026-12-05T19:46:40.000Z', decision: 'handoff_now' }],
    ['statusline-before-first-reply.json', 'lane-a g1 @acct-lane-a · capacity unknown', { state: 'unknown', source: 'none', decision: 'continue' }],
    ['statusline-api-key.json', 'lane-a g1 @acct-lane-a · capacity unknown · context 42%', { state: 'unknown', source: 'none' }],
  ])('%s → one line, the reading for `swarm capacity`, one capacity record', async (name, line, seen) => {
    const run = await swarm(['statusline'], { env: t.agentEnv('lane-a'), input: text('claude', name) });
    expect(run).toEqual({ code: 0, stdout: line, stderr: '' });
    expect(await capacity({})).toMatchObject(seen);
    // Told to the engine once, not at every message: the same status line again adds no record.
    await swarm(['statusline'], { env: t.agentEnv('lane-a'), input: text('claude', name) });
    const fromStatusLine = inbox().filter((r) => r.kind === 'capacity').length - 1; // minus `swarm capacity`'s own
    expect(fromStatusLine).toBe(1);
  });

  it('keeps the tokens in context and the reported window with the reading (SPEC 10.7: the context lines)', async () => {
    await swarm(['statusline'], { env: t.agentEnv('lane-a'), input: text('claude', 'statusline-after-reply.json') });
    const cached = JSON.parse(readFileSync(join(t.plan, '.swarm', 'capacity', 'acct-lane-a.json'), 'utf8')) as Record<string, unknown>;
    expect(cached).toMatchObject({ context_tokens: 12 + 2280 + 81918, window: 200_000 });
  });

  it('--then runs the user\'s own status line with the same stdin, after swarm\'s line', async () => {
    const run = await swarm(['statusline', '--then', 'printf "mine: "; head -c 12'], { env: t.agentEnv('lane-a'), input: text('claude', 'statusline-after-reply.json') });
    expect(run.stdout).toBe('lane-a g1 @acct-lane-a · capacity ok 36.5% · context 42%\nmine: {\n  "session');
  });

  it.each([
    ['not JSON', 'nope', {}],
    ['empty', '', {}],
    ['outside a swarm', text('claude', 'statusline-after-reply.json'), { SWARM_PLAN: '' }],
  ])('never breaks the agent (%s): exit 0, nothing on stdout, the reason journalled', async (_name, input, env) => {
    const run = await swarm(['statusline'], { env: t.agentEnv('lane-a', env), input });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    if (!('SWARM_PLAN' in env)) expect(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8')).toContain('"event":"signal_error"');
  });
});

/** [fixture, the inbox record's meaning (null: none), what the hook prints]. */
const HOOKS: [string, string | null][] = [
  ['hook-session-start.json', 'session'], ['hook-session-resume.json', 'session'], ['hook-session-end.json', null],
  ['hook-stop.json', 'turn_end'], ['hook-stop-active.json', 'turn_end'], ['hook-user-prompt-submit.json', null],
  ['hook-stopfailure-rate-limit.json', 'usage_limit'], ['hook-stopfailure-billing-error.json', 'payment'],
  ['hook-stopfailure-authentication-failed.json', 'login'], ['hook-stopfailure-oauth-org-not-allowed.json', 'login'],
  ['hook-stopfailure-invalid-request-overflow.json', 'overflow'], ['hook-stopfailure-overloaded.json', null],
  ['hook-stopfailure-server-error.json', null], ['hook-stopfailure-max-output-tokens.json', null],
  ['hook-permission-request.json', 'permission'], ['hook-notification-permission.json', 'permission'],
  ['hook-notification-idle.json', null], ['hook-precompact-auto.json', 'handoff_now'], ['hook-precompact-manual.json', null],
  ['hook-postcompact.json', null],
];

describe('swarm hook <Event>: every hook fixture', () => {
  it.each(HOOKS)('%s → %s', async (name, meaning) => {
    const input = text('claude', name);
    const event = (JSON.parse(input) as { hook_event_name: string }).hook_event_name;
    const run = await swarm(['hook', event], { env: t.agentEnv('lane-a'), input });
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' }); // no message waits: a Stop lets Claude stop
    const hooks = inbox().filter((r) => r.kind === 'hook');
    expect(hooks.map((r) => r.meaning)).toEqual(meaning === null ? [] : [meaning]);
    if (meaning !== null) expect(hooks[0]).toMatchObject({ from: 'lane-a', account: 'acct-lane-a', generation: 1, event });
  });

  it('a usage limit carries the reset of the account\'s last reading', async () => {
    await swarm(['statusline'], { env: t.agentEnv('lane-a'), input: text('claude', 'statusline-weekly-binding.json') });
    await swarm(['hook', 'StopFailure'], { env: t.agentEnv('lane-a'), input: text('claude', 'hook-stopfailure-rate-limit.json') });
    expect(inbox().find((r) => r.kind === 'hook')).toMatchObject({ meaning: 'usage_limit', resets_at: '2026-12-05T19:46:40.000Z' });
  });

  it('Stop blocks once with the pointer line for messages not yet pointed at, never when stop_hook_active', async () => {
    const dir = join(t.plan, '.swarm', 'pointed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'lane-a.json'), '{"delivered":3,"typed":1}\n');
    const env = t.agentEnv('lane-a', { SWARM_MAILBOX: mailboxPath(t.plan, 'lane-a') });
    const active = await swarm(['hook', 'Stop'], { env, input: text('claude', 'hook-stop-active.json') });
    expect(active.stdout).toBe('');
    const first = await swarm(['hook', 'Stop'], { env, input: text('claude', 'hook-stop.json') });
    expect(JSON.parse(first.stdout)).toEqual({ decision: 'block', reason: pointerLine(2, mailboxPath(t.plan, 'lane-a')) });
    const again = await swarm(['hook', 'Stop'], { env, input: text('claude', 'hook-stop.json') });
    expect(again.stdout).toBe('');
    expect(readFileSync(join(dir, 'lane-a.stop.json'), 'utf8')).toBe('{"pointed":3}\n');
  });

  it('SessionStart records the lane\'s session, whose transcript the claude probe then reads', async () => {
    const transcript = join(t.root, 'transcript.jsonl');
    copyFileSync(join(FIXTURES, 'claude', 'transcript-main.jsonl'), transcript);
    const start = JSON.parse(text('claude', 'hook-session-start.json')) as Record<string, unknown>;
    await swarm(['hook', 'SessionStart'], { env: t.agentEnv('lane-a'), input: JSON.stringify({ ...start, transcript_path: transcript }) });
    expect(await capacity({ SWARM_KIND: 'claude' })).toMatchObject({ state: 'unknown', source: 'probe', cached: false });
    expect((await capacity({ SWARM_KIND: 'claude' })).context_pct).not.toBeNull();
  });

  it.each([
    ['transcript-rate-limit.jsonl', { state: 'critical', remaining_pct: 0, decision: 'handoff_now' }],
    ['transcript-limit-passed.jsonl', { state: 'unknown', remaining_pct: null }],
    ['transcript-compacted.jsonl', { state: 'unknown', context_pct: null }],
    ['transcript-auth.jsonl', { state: 'unknown', remaining_pct: null }],
  ])('claude probe: %s', async (name, seen) => {
    const dir = join(t.root, 'profile');
    mkdirSync(join(dir, 'projects', '-work-wt-demo'), { recursive: true });
    copyFileSync(join(FIXTURES, 'claude', name), join(dir, 'projects', '-work-wt-demo', 'sid-1.jsonl'));
    expect(await capacity({ SWARM_KIND: 'claude', CLAUDE_CONFIG_DIR: dir, SWARM_SESSION_ID: 'sid-1' })).toMatchObject({ source: 'probe', ...seen });
  });

  it('an unknown event or bad JSON never breaks the agent', async () => {
    for (const [event, input] of [['Nope', '{}'], ['Stop', 'not json'], ['Stop', '']] as const) {
      const run = await swarm(['hook', event], { env: t.agentEnv('lane-a'), input });
      expect(run).toMatchObject({ code: 0, stdout: '' });
    }
    expect(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.includes('signal_error'))).toHaveLength(3);
  });
});

const THREAD = '019a9776-0a34-7842-8627-112b63d66e90';

describe('swarm hook codex-notify: every rollout and notify fixture', () => {
  const home = (rollout: string): string => {
    const dir = join(t.root, 'codex-home');
    mkdirSync(join(dir, 'sessions', '2026', '11', '30'), { recursive: true });
    copyFileSync(join(FIXTURES, 'codex', rollout), join(dir, 'sessions', '2026', '11', '30', `rollout-2026-11-30T07-00-00-${THREAD}.jsonl`));
    return dir;
  };

  it.each([
    ['rollout-current.jsonl', { state: 'ok', remaining_pct: 57.5, context_pct: 40.7, decision: 'continue' }, []],
    ['rollout-flat.jsonl', { state: 'ok', remaining_pct: 36, context_pct: 20 }, []],
    ['rollout-null-limits.jsonl', { state: 'unknown', remaining_pct: null, context_pct: 5 }, []],
    ['rollout-resets-in-seconds.jsonl', { state: 'low', remaining_pct: 19, resets_at: '2026-11-30T08:00:08.000Z', decision: 'handoff_soon' }, []],
    ['rollout-usage-limit.jsonl', { state: 'critical', remaining_pct: 0, decision: 'handoff_now' }, ['usage_limit']],
  ])('%s: the title thread ignored, the lane\'s turn end and verdict reported once', async (rollout, seen, limits) => {
    const env = t.agentEnv('lane-a', { SWARM_KIND: 'codex', CODEX_HOME: home(rollout) });
    for (const notice of ['notify-title.json', 'notify-lane.json', 'notify-lane.json']) {
      const run = await swarm(['hook', 'codex-notify', text('codex', notice)], { env });
      expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    const hooks = inbox().filter((r) => r.kind === 'hook');
    expect(hooks.map((r) => r.meaning)).toEqual([...limits, 'turn_end', 'turn_end']);
    expect(inbox().filter((r) => r.kind === 'capacity')).toEqual([expect.objectContaining({ source: 'probe', ...seen })]);
    expect(await capacity({ SWARM_KIND: 'codex', CODEX_HOME: home(rollout) })).toMatchObject({ source: 'probe', cached: false, ...seen });
  });

  it('--then runs the user\'s own notify program with the same JSON as its last argument', async () => {
    const out = join(t.root, 'then.txt');
    const argv = JSON.stringify(['/bin/sh', '-c', `printf '%s' "$1" > ${out}`, 'sh']);
    const json = text('codex', 'notify-lane.json');
    const run = await swarm(['hook', 'codex-notify', '--then', argv, json], { env: t.agentEnv('lane-a', { CODEX_HOME: home('rollout-current.jsonl') }) });
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(json);
  });
});

describe('swarm hook: the event names the kind whose CLI calls it', () => {
  it.each([
    ['an event no kind calls', ['hook', 'Teardown'], /unknown hook event \\"Teardown\\": expected one of SessionStart, .*, codex-notify/],
    ['no event', ['hook'], /unknown hook event \\"\\": expected one of/],
  ])('%s: exit 0, nothing printed, the reason journalled with every kind\'s events', async (_name, args, said) => {
    const run = await swarm(args, { env: t.agentEnv('lane-a'), input: '{}' });
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(t.plan, 'journal.jsonl'), 'utf8')).toMatch(said);
    expect(inbox()).toEqual([]);
  });

  it('a Claude Code event in any case reads its JSON from stdin; arguments after it are not Codex\'s --then', async () => {
    const run = await swarm(['hook', 'stop', '--then', '["/bin/false"]'], { env: t.agentEnv('lane-a'), input: text('claude', 'hook-stop.json') });
    expect(run.code).toBe(0);
    expect(inbox().filter((r) => r.kind === 'hook').map((r) => r.meaning)).toEqual(['turn_end']);
  });
});

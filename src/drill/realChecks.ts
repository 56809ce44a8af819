/**
 * What `swarm drill --real` proves, judged from the run's record: the journal, the packets
 * and their acceptance records, the lanes' end states, and what the mock model server was asked.
 * Pure: facts in, items out.
 */
import type { JournalEntry } from '../core/protocol/journal.js';
import type { DrillFacts, DrillItem } from './checks.js';
import { EVIDENCE_DIR } from './checks.js';
import { PAUSED } from './mock/brain.js';
import type { MockRecord } from './mock/types.js';

export type MockRequest = MockRecord;

export interface RealFacts extends DrillFacts {
  /** Each lane's state as the run ended. */
  laneStates: Record<string, string>;
  /** The kind (claude|codex) of each account. */
  kinds: Record<string, string>;
  requests: MockRequest[];
  /** Accounts marked limited at the end (state.json `limited`). */
  limited: string[];
  /** The resume item's swarm (null: not run). Its requests are in `requests`, on its own accounts. */
  resume: ResumeFacts | null;
}

/** What the resume item's swarm did (drill/realResume.ts): a first run, its tmux server killed, `swarm up` again. */
export interface ResumeFacts {
  /** Its journal, both runs. */
  journal: JournalEntry[];
  /** Each lane's account and kind. */
  lanes: { name: string; account: string; kind: 'claude' | 'codex' }[];
  /** Each lane's state as the second run ended. */
  laneStates: Record<string, string>;
  /** The session each lane had told when its server was killed (state.json `sessions`), null when none. */
  told: Record<string, string | null>;
  /** Why the server was not killed (the lanes never paused in time), or null. */
  notKilled: string | null;
  /** The index in `requests` of the first request after the kill. */
  killedAt: number;
  /** Each lane's pane command line (`/proc/<pid>/cmdline`, space-joined) at its first start and resumed; null when not read. */
  argv: Record<string, { first: string | null; resumed: string | null }>;
  /** How each run ended. */
  outcomes: string[];
  /** Where its panes' screens were kept. */
  panes: string;
}

/** Which lane plays which item. */
export interface RealRoles {
  claudeQuota?: string;
  codexQuota?: string;
  rateLimited?: string;
  permission?: string;
  /** A Claude lane reviewed by a Codex reviewer (SPEC 10.6). */
  reviewed?: string;
  /** The lanes of the resume item's swarm (SPEC 10.8): each resumes its own session after its tmux server is killed. */
  resumed?: string[];
}

const at = (name: string) => `${EVIDENCE_DIR}/${name}`;
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const of = (f: DrillFacts, event: string, lane: string) => f.journal.filter((e) => e.event === event && e.lane === lane);

function gatePassed(f: DrillFacts, lane: string, minGeneration: number): JournalEntry | undefined {
  return of(f, 'lane_result', lane).find((e) => e.result === 'done' && e.passed === true && Number(e.generation ?? 0) >= minGeneration);
}

/**
 * A lane handed off at its quota, its successor on the other vendor accepted and passed the gate. The
 * Codex lane runs sandboxed (workspace-write): its packet was written to its spool and published by
 * swarm (`packet_published`), which shows its commands ran in the sandbox and were known by their spool.
 */
function quotaItem(f: RealFacts, lane: string, from: 'claude' | 'codex'): DrillItem {
  const to = from === 'claude' ? 'codex' : 'claude';
  const packet = f.packets.find((p) => p.author?.lane === lane && p.author.generation === 1);
  const successor = packet?.accepted ?? null;
  const gate = gatePassed(f, lane, 2);
  const sandboxed = from !== 'codex' || of(f, 'packet_published', lane).some((e) => e.packet === packet?.path);
  const holds = packet !== undefined && !packet.degraded && /^capacity_/.test(packet.reason ?? '') && f.kinds[packet.author!.account] === from &&
    successor !== null && f.kinds[successor.account] === to && gate !== undefined && f.laneStates[lane] === 'done' && sandboxed;
  const detail = packet === undefined
    ? `${lane} wrote no packet at g1 (${f.laneStates[lane] ?? 'not started'})`
    : `${packet.reason ?? '?'} packet by ${packet.author!.account} (${f.kinds[packet.author!.account] ?? '?'}${from === 'codex' ? (sandboxed ? ', sandboxed: published from its spool' : ', NOT published from a sandbox spool') : ''}), accepted by ${successor ? `${successor.account} (${f.kinds[successor.account] ?? '?'}) g${successor.generation}` : 'nobody'}; gate ${gate ? 'passed' : 'not passed'}; lane ${f.laneStates[lane] ?? '?'}`;
  return { item: `${from} quota: ${lane} hands off to ${to}, done`, holds, evidence: at('packets.md'), detail };
}

function limitItem(f: RealFacts, lane: string): DrillItem {
  const packet = f.packets.find((p) => p.author?.lane === lane && p.degraded && p.reason === 'usage_limit');
  const account = packet?.author?.account ?? '';
  const rejected = f.requests.some((r) => r.account === account && r.status === 429);
  const holds = packet !== undefined && rejected && f.limited.includes(account);
  const detail = packet === undefined
    ? `no degraded usage_limit packet for ${lane} (${f.laneStates[lane] ?? '?'})`
    : `degraded packet for ${account}; mock answered 429: ${rejected ? 'yes' : 'no'}; limited: ${f.limited.join(', ') || 'none'}; lane ${f.laneStates[lane] ?? '?'}`;
  return { item: `a 429 puts ${lane} through the hard-limit path`, holds, evidence: at('packets.md'), detail };
}

/** Blocked on a permission request; the blocked tool never ran (no result of it reached the mock); others done. */
function permissionItem(f: RealFacts, lane: string, others: string[]): DrillItem {
  const escalation = of(f, 'escalation', lane).find((e) => e.class === 'permission');
  const account = str(of(f, 'lane_started', lane)[0]?.account);
  const asked = f.requests.filter((r) => r.account === account && r.action?.kind === 'shell').at(-1);
  const after = asked ? f.requests.filter((r) => r.account === account).indexOf(asked) === f.requests.filter((r) => r.account === account).length - 1 : false;
  const othersDone = others.every((l) => f.laneStates[l] === 'done');
  const holds = escalation !== undefined && f.laneStates[lane] === 'blocked' && after && othersDone;
  const detail = `${escalation ? `escalation: ${str(escalation.what).slice(0, 120)}` : 'no permission escalation'}; lane ${f.laneStates[lane] ?? '?'}; ` +
    `last request asked to run ${asked?.action?.kind === 'shell' ? `\`${asked.action.command}\`` : 'nothing'} and ${after ? 'no answer came back (not run)' : 'the mock saw its result'}; other lanes ${othersDone ? 'done' : others.map((l) => `${l} ${f.laneStates[l] ?? '?'}`).join(', ')}`;
  return { item: `a permission request blocks ${lane}, no key; others finish`, holds, evidence: at('summary.md'), detail };
}

/**
 * A Claude lane reviewed by Codex (SPEC 10.6): its gate passed into a review; a reviewer on a Codex
 * account read the diff (its `git -C … diff` reached the mock as a tool call) and said approved; the
 * lane is done after that, and the reviewer's account went back.
 */
function reviewItem(f: RealFacts, lane: string): DrillItem {
  const verdicts = of(f, 'review_verdict', lane).filter((e) => e.why === undefined);
  const approved = verdicts.find((e) => e.verdict === 'approved');
  const account = str(approved?.account);
  const laneAccount = str(of(f, 'lane_started', lane)[0]?.account);
  const read = f.requests.some((r) => r.account === account && r.action?.kind === 'shell' && /^git -C \S+ diff /.test(r.action.command));
  const said = f.requests.some((r) => r.account === account && r.action?.kind === 'shell' && r.action.command === 'swarm notify lead approved');
  const done = of(f, 'lane_result', lane).find((e) => e.result === 'done' && e.passed === true);
  const after = approved !== undefined && done !== undefined && f.journal.indexOf(done) > f.journal.indexOf(approved);
  const released = of(f, 'lease_released', lane).some((e) => e.account === account && e.reviewer !== undefined);
  const holds = approved !== undefined && f.kinds[account] === 'codex' && f.kinds[laneAccount] === 'claude' && read && said && after && released && f.laneStates[lane] === 'done';
  const detail = approved === undefined
    ? `no approval for ${lane} (${verdicts.map((v) => str(v.verdict)).join(', ') || 'no verdict'}; lane ${f.laneStates[lane] ?? '?'})`
    : `${lane} on ${laneAccount} (${f.kinds[laneAccount] ?? '?'}) approved by ${str(approved.reviewer)} g${str(approved.reviewer_generation)} on ${account} (${f.kinds[account] ?? '?'}); ` +
      `the reviewer read the diff: ${read ? 'yes' : 'no'}, said approved: ${said ? 'yes' : 'no'}; done after it: ${after ? 'yes' : 'no'}; its lease released: ${released ? 'yes' : 'no'}`;
  return { item: `a codex reviewer approves claude ${lane}, done after`, holds, evidence: at('summary.md'), detail };
}

/** The tool calls of a request's entries, in order. */
const toolCalls = (r: MockRequest | undefined): string[] => (r?.entries ?? []).flatMap((e) => (e.role === 'tool_call' ? [e.command] : []));

/** `inner` is a subsequence of `outer`. */
function within(inner: readonly string[], outer: readonly string[]): boolean {
  let i = 0;
  for (const x of outer) if (i < inner.length && x === inner[i]) i++;
  return i === inner.length;
}

/** A pane's command line resumed `session`: Claude Code `--resume <id>`, Codex `resume <id>` (quotes left out). */
export function resumedBy(argv: string | null, kind: 'claude' | 'codex', session: string): boolean {
  if (argv === null || session === '') return false;
  const words = argv.replace(/'/g, '').split(/\s+/);
  const at = words.indexOf(session);
  return at > 0 && words[at - 1] === (kind === 'claude' ? '--resume' : 'resume');
}

/**
 * The tmux server killed mid-run (SPEC 10.8): `swarm up` again started the lane's own session again —
 * `session_resumed` on the same account, same generation, the session it had told; its pane's command
 * line the kind's resume argv with that id — and the resumed CLI's next request to the mock carried the
 * earlier conversation (every tool call the lane's last turn before the kill had made, and the reply that
 * ended it: the mock answers each request from what it carries, nothing else) and, where its system
 * prompt carried swarm's protocol brief before (Claude Code), still does. It then went on from there:
 * the step not run again, done at g1, no successor.
 */
function resumeItem(f: RealFacts, lane: string): DrillItem {
  const r = f.resume;
  const who = r?.lanes.find((l) => l.name === lane);
  const item = `the tmux server killed: ${lane} resumes its own session`;
  const evidence = at('resume.md');
  if (r === null || who === undefined) return { item, holds: false, evidence, detail: 'the resume swarm did not run' };
  if (r.notKilled !== null) return { item, holds: false, evidence, detail: `the server was not killed: ${r.notKilled}` };
  const { account, kind } = who;
  const session = r.told[lane] ?? '';
  const resumed = r.journal.find((e) => e.event === 'session_resumed' && e.lane === lane);
  const same = resumed !== undefined && resumed.account === account && Number(resumed.generation) === 1 && session !== '' && resumed.session_id === session;
  const argv = r.argv[lane] ?? { first: null, resumed: null };
  const byArgv = resumedBy(argv.resumed, kind, session) && !resumedBy(argv.first, kind, session);
  const turns = f.requests.map((q, i) => ({ q, i })).filter(({ q }) => q.account === account && q.entries !== undefined);
  const before = turns.filter(({ i }) => i < r.killedAt).map(({ q }) => q);
  const paused = before.findLast((q) => q.action?.kind === 'say' && q.action.text === PAUSED);
  const next = turns.find(({ i }) => i >= r.killedAt)?.q;
  const earlier = toolCalls(paused);
  const carried = next !== undefined && earlier.length > 0 && within(earlier, toolCalls(next)) &&
    (next.entries ?? []).some((e) => e.role === 'assistant' && e.text.includes(PAUSED));
  // swarm's protocol brief, in its system prompt before the kill (Claude Code's), is there after it too.
  const protocolKept = paused?.protocol !== true || next?.protocol === true;
  // The step is the call whose output ended the turn: the last one before the pause.
  const step = earlier.at(-1);
  const again = step !== undefined && f.requests.slice(r.killedAt).some((q) => q.account === account && q.action?.kind === 'shell' && q.action.command === step);
  const done = r.journal.some((e) => e.event === 'lane_result' && e.lane === lane && e.result === 'done' && e.passed === true && Number(e.generation ?? 0) === 1);
  const successor = r.journal.some((e) => (e.event === 'degraded_handoff' || e.event === 'resume_failed' || e.event === 'not_resumed') && e.lane === lane);
  const holds = same && byArgv && carried && protocolKept && !again && done && !successor && r.laneStates[lane] === 'done';
  const detail = [
    resumed === undefined ? 'no session_resumed' : `session_resumed ${str(resumed.session_id).slice(0, 8)}… on ${str(resumed.account)} g${str(resumed.generation)}${same ? '' : ` (told ${session.slice(0, 8) || 'none'}… on ${account} g1: NOT the same)`}`,
    `pane ${byArgv ? `ran ${kind === 'claude' ? '--resume' : 'resume'} <id>` : `did NOT run the resume argv (${(argv.resumed ?? 'unread').slice(0, 80)})`}`,
    next === undefined
      ? 'no request after the kill'
      : `next request carried ${next.entries?.length ?? 0} entries${next.previousResponseId ? ` and previous_response_id` : ''}: the earlier ${earlier.length} tool call(s) and reply ${carried ? 'yes' : 'NO'}`,
    ...(paused?.protocol === true ? [`swarm's protocol in its system prompt ${protocolKept ? 'kept' : 'LOST'}`] : []),
    again ? 'the step ran again' : 'the step not run again',
    `lane ${r.laneStates[lane] ?? '?'}${done ? ' at g1' : ''}${successor ? ', fell back to a successor' : ''}`,
  ].join('; ');
  return { item, holds, evidence, detail };
}

export function realItems(f: RealFacts, roles: RealRoles): DrillItem[] {
  const items: DrillItem[] = [];
  if (roles.claudeQuota) items.push(quotaItem(f, roles.claudeQuota, 'claude'));
  if (roles.codexQuota) items.push(quotaItem(f, roles.codexQuota, 'codex'));
  if (roles.rateLimited) items.push(limitItem(f, roles.rateLimited));
  if (roles.permission) items.push(permissionItem(f, roles.permission, f.lanes.filter((l) => l !== roles.permission)));
  if (roles.reviewed) items.push(reviewItem(f, roles.reviewed));
  for (const lane of roles.resumed ?? []) items.push(resumeItem(f, lane));
  return items;
}

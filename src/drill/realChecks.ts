/**
 * What `swarm drill --real` proves, judged from the run's record: the journal, the packets
 * and their acceptance records, the lanes' end states, and what the mock model server was asked.
 * Pure: facts in, items out.
 */
import type { JournalEntry } from '../core/protocol/journal.js';
import type { DrillFacts, DrillItem } from './checks.js';
import { EVIDENCE_DIR } from './checks.js';
import type { MockAction } from './mock/types.js';

export interface MockRequest { vendor: 'claude' | 'codex'; account: string; path: string; action?: MockAction; status: number }

export interface RealFacts extends DrillFacts {
  /** Each lane's state as the run ended. */
  laneStates: Record<string, string>;
  /** The kind (claude|codex) of each account. */
  kinds: Record<string, string>;
  requests: MockRequest[];
  /** Accounts marked limited at the end (state.json `limited`). */
  limited: string[];
}

/** Which lane plays which item. */
export interface RealRoles {
  claudeQuota?: string;
  codexQuota?: string;
  rateLimited?: string;
  permission?: string;
  /** A Claude lane reviewed by a Codex reviewer (SPEC 10.6). */
  reviewed?: string;
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

export function realItems(f: RealFacts, roles: RealRoles): DrillItem[] {
  const items: DrillItem[] = [];
  if (roles.claudeQuota) items.push(quotaItem(f, roles.claudeQuota, 'claude'));
  if (roles.codexQuota) items.push(quotaItem(f, roles.codexQuota, 'codex'));
  if (roles.rateLimited) items.push(limitItem(f, roles.rateLimited));
  if (roles.permission) items.push(permissionItem(f, roles.permission, f.lanes.filter((l) => l !== roles.permission)));
  if (roles.reviewed) items.push(reviewItem(f, roles.reviewed));
  return items;
}

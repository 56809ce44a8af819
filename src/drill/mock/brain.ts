/**
 * The scripted agent behind the mock server (`swarm drill --real`): from the conversation so far it decides the
 * next tool call, running swarm's protocol the way src/sim/agent.ts does, but through the real CLI's
 * own shell tool. Pure: the same conversation gives the same action. Vendor-neutral.
 *
 * A lane's turn, in order (each line one tool call; a step already run is not run again):
 *   cat <prompt file>                   read the task: its `step: \`…\`` and `gate: \`…\`` commands
 *   swarm accept                        a successor only (its first prompt says so; the packet is $SWARM_PACKET)
 *   swarm capacity --self --json        the first work boundary
 *   <step>                              the task's command
 *   swarm capacity --self --json        the second work boundary
 *   <gate>                              the task's gate, when it names one
 *   swarm notify lead 'done …'          with the capacity line of the last reading
 * A reviewer (its task begins `Review <lane>'s work`) instead reads the diff its task names and says
 * `swarm notify lead approved`.
 * Whenever the last capacity reading says `handoff_now` (or a mailbox notice does), it writes its
 * packet (`swarm packet write`, the step and gate still ahead as next/unverified), reports
 * `handoff <path>` and ends its turn. A later message (swarm's mailbox line) after the end is read
 * with `cat <mailbox>` once, then the turn ends again. Paths are written out, never `$VARIABLES`:
 * Claude Code asks permission for a command that expands one, whatever the approvals.
 *
 * A command whose output ends with the line `PAUSE` ends the turn right after it (a `say`): the resume
 * item of `swarm drill --real` kills the swarm's tmux server there, mid-task, and the resumed session
 * goes on from what its conversation shows was done (a step already run is not run again).
 *
 * A reading behind the reply that asked for it (more left than the quota the CLI was last sent, or
 * none) is asked again, up to `REASKS` times in a row: the CLI hands its headers to swarm on its own
 * schedule (Claude Code's status line runs debounced, after the reply), and on a loaded machine the
 * tool call can win that race. The drill checks swarm's reading of the quota, not that race; a reading
 * that never catches up still runs out the re-asks and the item fails.
 */
import type { MockAction, MockBrain, MockConversation } from './types.js';

export const ACCEPT = 'swarm accept';
export const CAPACITY = 'swarm capacity --self --json';

export interface Capacity { account: string; state: string; pct: number | null; decision: string }

interface Call { command: string; output: string | null }

/** The last line of a step's output that ends the turn after it (see above). */
export const PAUSE = 'swarm-drill: end this turn here';
/** What the brain says as it ends that turn. */
export const PAUSED = 'Pausing here, as the step asked; the task goes on in the next turn.';

/** How many times in a row a reading behind the CLI's last reply is asked again. */
export const REASKS = 10;

/** The reading shows more left than `sentUsed` % used allows (or none): the CLI's last headers have not reached swarm yet. */
export function behind(cap: Capacity | null, sentUsed: number): boolean {
  return cap === null || cap.pct === null || cap.pct > 100 - sentUsed + 0.5;
}

/** Single-quoted for a POSIX shell (left bare when it needs no quoting). */
export const quote = (s: string): string => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The prompt file the first prompt names ("Read your prompt file <path> (…"), or null. */
export function promptFileOf(text: string): string | null {
  return /read your prompt file (\S+)/i.exec(text)?.[1] ?? null;
}

/** The mailbox swarm's pointer line names ("swarm: N new message(s) in <path> (…"), or null. */
export function mailboxOf(text: string): string | null {
  return /new messages? in (\S+)/.exec(text)?.[1] ?? null;
}

function calls(c: MockConversation): Call[] {
  const results = new Map<string, string>();
  for (const e of c.entries) if (e.role === 'tool_result') results.set(e.id, e.output);
  return c.entries.flatMap((e) => (e.role === 'tool_call' ? [{ command: e.command, output: results.get(e.id) ?? null }] : []));
}

/** `step: \`cmd\`` / `gate: \`cmd\`` in the task text (case-insensitive), or null. */
export function taskCommand(text: string, name: 'step' | 'gate'): string | null {
  const match = new RegExp(`\\b${name}:\\s*\`([^\`]+)\``, 'i').exec(text);
  return match ? match[1]!.trim() : null;
}

/** The JSON `swarm capacity --self --json` printed (its last `{…}` line), or null. */
export function parseCapacity(output: string): Capacity | null {
  const line = output.replace(/\r/g, '').split('\n').reverse().find((l) => l.trim().startsWith('{'));
  if (!line) return null;
  try {
    const j = JSON.parse(line.trim()) as Record<string, unknown>;
    const pct = typeof j.remaining_pct === 'number' ? j.remaining_pct : null;
    return { account: String(j.account ?? ''), state: String(j.state ?? 'unknown'), pct, decision: String(j.decision ?? 'continue') };
  } catch {
    return null;
  }
}

export const capacityLine = (c: Capacity | null, account: string): string =>
  c === null ? `capacity=unknown @${account}` : `capacity=${c.state}${c.pct === null ? '' : ` ${c.pct}%`} @${c.account || account}`;

function handoff(done: Call[], step: string | null, gate: string | null, cap: Capacity | null, account: string): MockAction {
  const packet = done.find((c) => c.command.startsWith('swarm packet write'));
  if (!packet) {
    const ran = step !== null && done.some((c) => c.command === step);
    const reason = cap?.decision === 'handoff_now' && cap.state === 'low' ? 'capacity_low' : 'capacity_critical';
    const args = ['swarm packet write', `--reason ${reason}`, `--doing ${quote(ran ? `ran the step: ${step}` : 'read the task')}`];
    if (!ran && step !== null) args.push(`--next ${quote(`run the step: ${step}`)}`);
    args.push(`--next ${quote(gate === null ? 'report done' : `rerun the gate: ${gate}`)}`);
    if (ran && step !== null) args.push(`--done ${quote(`ran: ${step}`)}`);
    if (gate !== null) args.push(`--unverified ${quote(`gate=${gate}`)}`);
    return { kind: 'shell', command: args.join(' ') };
  }
  const path = (packet.output ?? '').trim().split('\n').filter((l) => l.trim() !== '').at(-1)?.trim() ?? '';
  if (path === '' || !done.some((c) => c.command.startsWith('swarm notify lead'))) {
    return { kind: 'shell', command: `swarm notify lead ${quote(`handoff ${path} ${capacityLine(cap, account)}`)}` };
  }
  return { kind: 'say', text: 'Handed off: a successor continues this lane. Stopping here.' };
}

/**
 * A reviewer's turn (SPEC 10.6; its task begins `Review <lane>'s work`): read the diff with the first
 * `git -C … diff|log …` line its task gives, say `approved` to the lead, end its turn. It writes nothing.
 */
function review(prompt: string, done: Call[]): MockAction | null {
  if (!/^Review \S+'s work \(review round \d+\)/m.test(prompt)) return null;
  const read = /^\s+(git -C \S+ (?:diff|log) [^\n]+)$/m.exec(prompt)?.[1]?.trim() ?? null;
  if (read !== null && !done.some((c) => c.command === read)) return { kind: 'shell', command: read };
  const verdict = 'swarm notify lead approved';
  if (!done.some((c) => c.command === verdict)) return { kind: 'shell', command: verdict };
  return { kind: 'say', text: 'Reviewed: approved.' };
}

export const scriptedBrain: MockBrain = ({ account, conversation, sentUsed }) => {
  const done = calls(conversation);
  // Claude Code puts context blocks (system reminders) beside the first prompt: look through every user text.
  const said = conversation.entries.flatMap((e) => (e.role === 'user' ? [e.text] : [])).join('\n');
  const successor = said.includes('a successor in swarm');
  const file = promptFileOf(said);
  const PROMPT = file === null ? null : `cat ${quote(file)}`;
  const prompt = done.find((c) => c.command === PROMPT)?.output ?? '';
  const step = taskCommand(prompt, 'step');
  const gate = taskCommand(prompt, 'gate');
  const caps = done.filter((c) => c.command === CAPACITY);
  const cap = caps.length > 0 ? parseCapacity(caps.at(-1)!.output ?? '') : null;
  const last = conversation.entries.at(-1);
  if (last?.role === 'tool_result' && last.output.replace(/\r/g, '').trimEnd().split('\n').at(-1)?.trim() === PAUSE) return { kind: 'say', text: PAUSED };
  const mailbox = last?.role === 'user' ? mailboxOf(last.text) : null;
  const MAILBOX = mailbox === null ? null : `cat ${quote(mailbox)}`;
  const mail = done.filter((c) => c.command.startsWith('cat ') && c.command !== PROMPT).map((c) => c.output ?? '').join('\n');
  const ran = (command: string | null) => command === null || done.some((c) => c.command === command);
  const ended = done.some((c) => /^swarm notify lead '?(done|handoff)/.test(c.command));
  if (ended || done.some((c) => c.command.startsWith('swarm packet write'))) {
    if (!ended) return handoff(done, step, gate, cap, account);
    return MAILBOX !== null ? { kind: 'shell', command: MAILBOX } : { kind: 'say', text: 'Nothing more to do in this lane.' };
  }
  if (cap?.decision === 'handoff_now' || /handoff_now|hand off now/.test(mail)) return handoff(done, step, gate, cap, account);
  if (MAILBOX !== null) return { kind: 'shell', command: MAILBOX };
  const trailing = done.length - 1 - done.findLastIndex((c) => c.command !== CAPACITY);
  if (trailing > 0 && trailing <= REASKS && sentUsed != null && behind(cap, sentUsed)) return { kind: 'shell', command: CAPACITY };
  if (PROMPT === null) return { kind: 'say', text: 'No prompt file named: nothing to do.' };
  if (!ran(PROMPT)) return { kind: 'shell', command: PROMPT };
  const reviewing = review(prompt, done);
  if (reviewing !== null) return reviewing;
  if (successor && !ran(ACCEPT)) return { kind: 'shell', command: ACCEPT };
  if (caps.length === 0) return { kind: 'shell', command: CAPACITY };
  if (!ran(step)) return { kind: 'shell', command: step! };
  const afterStep = step === null ? caps.length >= 2 : done.slice(done.findIndex((c) => c.command === step) + 1).some((c) => c.command === CAPACITY);
  if (!afterStep) return { kind: 'shell', command: CAPACITY };
  if (!ran(gate)) return { kind: 'shell', command: gate! };
  return { kind: 'shell', command: `swarm notify lead ${quote(`done ${capacityLine(cap, account)}`)}` };
};

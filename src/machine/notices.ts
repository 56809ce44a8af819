/**
 * What swarm types into a lane's pane: the texts of the lane machine's notify effects. Pure.
 */
import { spokenDuration } from '../core/config/duration.js';
import type { LaneState } from './types.js';

/** `capacity low 20%, context 30%`: what the lane's last reading said. */
const reading = (lane: Pick<LaneState, 'capacityState' | 'remainingPct' | 'contextPct'>): string =>
  `capacity ${lane.capacityState}${lane.remainingPct === null ? '' : ` ${lane.remainingPct}%`}${lane.contextPct === null ? '' : `, context ${lane.contextPct}%`}`;

/** What the write-your-packet notice asks for besides (SPEC 10.7): each dead end, so no successor pays for it twice. */
const DEAD_ENDS = '— with a `--deadend "what you tried: why it failed"` for each approach that did not work —';

/**
 * By role (SPEC 10.5): a lane at `low` finishes its step and hands off; the lead at `low` names its
 * successor and prepares its lead packet while it keeps leading, and at `critical` hands over with
 * `swarm lead handover` (a lane reports `handoff <path>`).
 */
export const notices = {
  near: (lane: Pick<LaneState, 'role' | 'capacityState' | 'remainingPct' | 'contextPct'>): string =>
    lane.role === 'lead'
      ? `swarm: you, the lead, are running low (${reading(lane)}). Keep leading, and prepare to hand over: name your ` +
        'successor (`swarm lead show` lists the succession) and write your lead packet with ' +
        '`swarm packet write --reason lead_handover --doing TEXT --next STEP` (each lane, every open ask, the release order). ' +
        'At critical swarm tells you to hand over.'
      : `swarm: you are running low (${reading(lane)}). Finish your current step, then hand off: ` +
        'write your packet with `swarm packet write` and report `handoff <packet path>`.',
  write: (ms: number, role: LaneState['role'] = 'lane'): string =>
    role === 'lead'
      ? 'swarm: hand over the lead now. Write your lead packet with `swarm packet write --reason lead_handover --doing TEXT --next STEP` ' +
        `${DEAD_ENDS} and run \`swarm lead handover <successor> --packet <path>\` within ${spokenDuration(ms)}, or swarm writes a degraded packet ` +
        'and your successor takes the lead over.'
      : 'swarm: hand off now. Write your packet with `swarm packet write --reason R --doing TEXT --next STEP` ' +
        `${DEAD_ENDS} and report \`handoff <packet path>\` within ${spokenDuration(ms)}, or swarm writes a degraded packet for you.`,
  /** `left`: ms until swarm writes the degraded packet instead (none left: it does so now). */
  rejected: (packet: string, reasons: string[], left: number): string =>
    `swarm: your packet ${packet} was rejected:\n${reasons.map((r) => `- ${r}`).join('\n')}\n` +
    (left > 0
      ? `Fix it and report \`handoff <packet path>\` again within ${spokenDuration(left)}, or swarm writes a degraded packet for you.`
      : 'Your time to hand off is up: swarm writes a degraded packet for you now.'),
  nudge: (ms: number): string =>
    `swarm: no output and no report for ${spokenDuration(ms)}. If you are stuck, report \`blocked <class> <what you need>\`; ` +
    'otherwise carry on and report at your next work boundary.',
  gateFailed: (command: string, output: string): string =>
    `swarm: your \`done\` gate \`${command}\` failed, so the lane is still working. Its output (last part):\n${tail(output, 2000)}`,
};

/** The last `max` characters of a text, marked as cut when cut. */
export function tail(text: string, max: number): string {
  const trimmed = text.trimEnd();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(trimmed.length - max + 1)}`;
}

/**
 * What swarm types into a lane's pane: the texts of the lane machine's notify effects. Pure.
 */
import { spokenDuration } from '../core/config/duration.js';
import type { LaneState } from './types.js';

export const notices = {
  near: (lane: Pick<LaneState, 'capacityState' | 'remainingPct' | 'contextPct'>): string =>
    `swarm: you are running low (capacity ${lane.capacityState}${lane.remainingPct === null ? '' : ` ${lane.remainingPct}%`}` +
    `${lane.contextPct === null ? '' : `, context ${lane.contextPct}%`}). Finish your current step, then hand off: ` +
    'write your packet with `swarm packet write` and report `handoff <packet path>`.',
  write: (ms: number): string =>
    'swarm: hand off now. Write your packet with `swarm packet write --reason R --doing TEXT --next STEP` ' +
    `and report \`handoff <packet path>\` within ${spokenDuration(ms)}, or swarm writes a degraded packet for you.`,
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

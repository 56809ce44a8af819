/**
 * Two lines: the swarm, its plan, the lead (`name@epoch`, account, state), the tmux session and the
 * uptime; then the lane counts by state, the run's spend (SPEC 10.7), what part of the lanes is in view, and the outcome.
 */
import { Box } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { useFrame } from '../context.js';
import { charCount, cut, laneCounts, planName, uptime } from '../format.js';
import { Line } from './Line.js';

export interface HeaderProps {
  width: number;
  color: boolean;
  /** ` · lanes 1–20 of 64` when the lanes scroll. */
  scroll: string;
}

export function Header({ width, color, scroll }: HeaderProps) {
  const v = useFrame(useShallow((f) => ({
    name: f.view.name, plan: f.view.plan, session: f.view.session, backend: f.view.backend,
    lead: f.view.lead, startedAt: f.view.startedAt, outcome: f.view.outcome, spent: f.view.spent ?? null,
  })));
  const up = useFrame((f) => uptime(f.view.startedAt, f.now));
  const counts = useFrame((f) => laneCounts(f.view.lanes));
  const lead = `lead ${v.lead.name}@${v.lead.epoch} ${v.lead.account ?? '-'} ${v.lead.state}`;
  const title = `swarm ${v.name}`;
  const rest = ` · plan ${planName(v.plan)} · ${lead} · ${v.backend} ${v.session} · up ${up}`;
  const outcome = v.outcome === null ? '' : v.outcome.code === 0 ? ' · plan done' : ` · stopped short: ${v.outcome.why}`;
  const line2 = `${counts}${v.spent === null ? '' : ` · spent ${v.spent}`}${scroll}`;
  return (
    <Box flexDirection="column">
      <Line runs={[{ text: cut(title, width), bold: true }, { text: cut(rest, width - charCount(title)) }]} width={width} color={color} />
      <Line runs={[{ text: cut(line2, width) }, { text: cut(outcome, width - charCount(line2)), tone: v.outcome?.code === 0 ? 'green' : 'red' }]} width={width} color={color} />
    </Box>
  );
}

/** The last journal events, one grep-able line each, as the headless log prints them. */
import { dirname } from 'node:path';
import { Box } from 'ink';
import { formatEntry, type JournalEntry } from '../../core/protocol/journal.js';
import { useFrame } from '../context.js';
import { cut } from '../format.js';
import { Line } from './Line.js';

export interface EventsProps {
  width: number;
  color: boolean;
  /** How many events fit. */
  count: number;
  /** Paths are shown relative to this folder; default the plan's parent. */
  relativeTo?: string;
}

/** The events worth a line: the engine's `ignored` notes stay in the journal. */
export function shownEvents(events: readonly JournalEntry[]): JournalEntry[] {
  return events.filter((e) => e.event !== 'ignored');
}

export function Events({ width, color, count, relativeTo }: EventsProps) {
  const events = useFrame((f) => f.view.events);
  const plan = useFrame((f) => f.view.plan);
  const shown = count > 0 ? shownEvents(events).slice(-count) : [];
  return (
    <Box flexDirection="column">
      <Line runs={[{ text: cut('EVENTS', width), dim: true }]} width={width} color={color} />
      {shown.map((entry, i) => (
        <Line key={`${entry.ts}-${i}`} runs={[{ text: cut(formatEntry(entry, { relativeTo: relativeTo ?? dirname(plan) }), width), tone: entry.type === 'intervention' ? 'yellow' : null }]} width={width} color={color} />
      ))}
    </Box>
  );
}

/** The last journal events, one grep-able line each, as the headless log prints them. */
import { dirname } from 'node:path';
import { Box, Text } from 'ink';
import { formatEntry, type JournalEntry } from '../../core/journal.js';
import { useFrame } from '../context.js';
import { cut } from '../format.js';
import { Tinted } from './Tinted.js';

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
      <Text wrap="truncate" dimColor>{cut('EVENTS', width)}</Text>
      {shown.map((entry, i) => (
        <Text key={`${entry.ts}-${i}`} wrap="truncate">
          <Tinted tone={entry.type === 'intervention' ? 'yellow' : null} color={color}>{cut(formatEntry(entry, { relativeTo: relativeTo ?? dirname(plan) }), width)}</Tinted>
        </Text>
      ))}
    </Box>
  );
}

/**
 * A text Ink measures as its ASCII stand-in (ui/inkOutput.ts `asciiStandIn`: the same cells) and
 * draws as itself, swapped in at the output stage, after Ink has measured. Ink measures every text
 * of every frame; for the long lines of the lane table that is the difference between its fast and
 * its slow string-width path. The caller puts it only where the stand-in fits whole: a text Ink had
 * to wrap or cut is not swapped back.
 */
import { Text, Transform } from 'ink';

export interface SwappedProps {
  standIn: string;
  /** What is drawn, escape codes and all. */
  text: string;
}

export function Swapped({ standIn, text }: SwappedProps) {
  return (
    <Transform transform={(line) => (line === standIn ? text : line)}>
      <Text>{standIn}</Text>
    </Transform>
  );
}

/** Text in a tone, or in the terminal's own colour when colour is off (`NO_COLOR`). */
import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { Tone } from '../format.js';

export interface TintedProps {
  tone: Tone;
  color: boolean;
  bold?: boolean;
  children: ReactNode;
}

export function Tinted({ tone, color, bold = false, children }: TintedProps) {
  return (
    <Text bold={bold} {...(color && tone ? { color: tone } : {})}>
      {children}
    </Text>
  );
}

/**
 * Any command (`command:` of a lane or account): panes/command.yaml says all there is. Its capacity
 * comes from `ak` or the lane's own capacity lines; it is always ready.
 */
import { plainKind, type Kind } from '../kind.js';

export const command: Kind = plainKind('command');

/**
 * The simulated agent (src/sim/), as the engine reaches it: its account's state file is its probe;
 * it has no profile and is always ready.
 */
import { plainKind, type Kind } from '../kind.js';
import { simProbe } from './probe.js';

export const sim: Kind = { ...plainKind('sim'), signals: { probe: simProbe, source: 'sim', ak: false } };

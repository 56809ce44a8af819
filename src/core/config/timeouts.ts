/** The default timeouts (SPEC 2), apart from the loader so the light bundles (`swarm notify`) read them without YAML. */
import type { Timeouts } from './types.js';

export const DEFAULT_TIMEOUTS: Timeouts = { accept: 600_000, packet: 600_000, stall: 1_800_000, ask: 1_800_000, release: 600_000 };

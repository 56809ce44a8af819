/**
 * Every test process leases from a machine lease folder of its own (SPEC 10.4,
 * `$SWARM_STATE_DIR/leases`), never from the developer's `~/.local/state/swarm`: the swarms a test
 * starts inherit it. A test that needs its own folder sets SWARM_STATE_DIR in the swarm's environment.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.SWARM_STATE_DIR ??= mkdtempSync(join(tmpdir(), 'swarm-state-'));

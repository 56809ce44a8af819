/**
 * The `swarm` command's own file, bin/swarm.cjs, found from this module: dist/runtime/ and the
 * `swarm up` bundle's dist/up/ are equally deep, so the path holds from both. Kept at this depth on
 * purpose: a module in a deeper folder would compute a different path from dist/ than from dist/up/.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SWARM_BIN = resolve(fileURLToPath(new URL('../../bin/swarm.cjs', import.meta.url)));

/** Every state write under `root`'s src/runtime/ outside engine.ts, as `file:line:col: what`. */
export function checkStateWrites(root: string): string[];

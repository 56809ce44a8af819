/** Types of unused-exports.mjs for its test. */
export const KEPT: ReadonlyMap<string, string>;
export function unusedExports(root: string): { where: string; dead: boolean }[];

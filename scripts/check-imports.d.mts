/** Types of check-imports.mjs for its test. */
export const ALLOWED: readonly (readonly [string, string])[];
export function checkImports(root: string, allowed?: readonly (readonly [string, string])[]): string[];

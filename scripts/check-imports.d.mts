/** Types of check-imports.mjs for its test. */
type Imports = readonly (readonly [string, string])[];
export const ALLOWED: Imports;
export const KIND_IMPORTS: Imports;
export function checkImports(root: string, allowed?: Imports, kindImports?: Imports): string[];

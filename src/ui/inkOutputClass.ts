/**
 * The module of Ink's Output class, which Ink does not export: found beside Ink's entry point. In the
 * bundle of `swarm up` (scripts/bundle-up.mjs) this file is replaced by a static import of the file the
 * bundled Ink uses, so ui/inkOutput.ts patches the copy that draws the frames.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The default export of ink/build/output.js (its shape is checked by ui/inkOutput.ts). */
export async function loadInkOutput(): Promise<unknown> {
  const entry = createRequire(import.meta.url).resolve('ink');
  return ((await import(pathToFileURL(join(dirname(entry), 'output.js')).href)) as { default: unknown }).default;
}

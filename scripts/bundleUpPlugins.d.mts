// Types for scripts/bundleUpPlugins.mjs, as tests/scripts/bundleUpPlugins.test.ts uses it.
import type { Plugin } from 'esbuild';

export function packageDirs(root: string): { inkDir: string; yogaDir: string; stringWidthFile: string };
export function inkOutputClass(root: string, inkDir: string): Plugin;
export function yogaWasm(yogaDir: string, outdir: string): Plugin;
export function lazyEmojiPattern(source: string): string | null;
export function stringWidthLazyEmoji(stringWidthFile: string): Plugin;

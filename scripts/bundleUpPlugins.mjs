// The esbuild plugins of scripts/bundle-up.mjs: what the bundle of `swarm up` changes in the packages it
// holds, each to start sooner or to keep working bundled. Each checks the package is shaped as it
// expects and otherwise leaves it as it is (slower, never broken), saying so.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const warn = (text) => console.warn(`bundle-up: ${text}`);

/** Ink's, yoga's and string-width's folders, as the package at `root` resolves them. */
export function packageDirs(root) {
  const inkDir = dirname(createRequire(join(root, 'package.json')).resolve('ink'));
  return {
    inkDir,
    // yoga-layout/dist/src, as Ink resolves it.
    yogaDir: dirname(createRequire(join(inkDir, 'index.js')).resolve('yoga-layout')),
    stringWidthFile: createRequire(join(root, 'package.json')).resolve('string-width'),
  };
}

/**
 * Ink does not export its Output class, which src/ui/inkOutput.ts patches; src/ui/inkOutputClass.ts
 * finds it beside Ink's entry point at run time, which in the bundle would load a second copy of Ink's
 * file from node_modules and patch that. Here the same lookup is a static import of the file the
 * bundled Ink uses, so the patch reaches the dashboard's frames. Ink's devtools (and
 * react-devtools-core, not installed), loaded only when DEV=true, are left out.
 */
export function inkOutputClass(root, inkDir) {
  return {
    name: 'ink-output-class',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]ui[\\/]inkOutputClass\.ts$/ }, () => ({
        contents: `import Output from ${JSON.stringify(join(inkDir, 'output.js'))};\nexport async function loadInkOutput() { return Output; }\n`,
        loader: 'js',
        resolveDir: root,
      }));
      b.onResolve({ filter: /[\\/]devtools\.js$/ }, (a) => (a.importer.startsWith(inkDir) ? { path: a.path, namespace: 'ink-devtools' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'ink-devtools' }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
}

/**
 * Yoga (Ink's layout engine) ships its WebAssembly as a base64 data: URL that Emscripten's loader
 * fetches, and the first fetch() loads Node's whole HTTP client (undici, http, http2, …): ~50 ms of
 * a start, more on a busy machine. The bundle holds the wasm as `outdir`/yoga.wasm beside it and
 * hands its bytes to the loader (Emscripten's `wasmBinary`), so nothing is fetched.
 */
export function yogaWasm(yogaDir, outdir) {
  const binary = join(yogaDir, '..', 'binaries', 'yoga-wasm-base64-esm.js');
  const dataUrl = /H="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;
  return {
    name: 'yoga-wasm-file',
    setup(b) {
      const text = readFileSync(binary, 'utf8');
      const entry = readFileSync(join(yogaDir, 'index.js'), 'utf8');
      const found = dataUrl.exec(text);
      if (!found || !entry.includes('await loadYoga()')) {
        warn('yoga-layout is not shaped as expected; its wasm stays a data: URL (fetched at start)');
        return;
      }
      mkdirSync(outdir, { recursive: true });
      writeFileSync(join(outdir, 'yoga.wasm'), Buffer.from(found[1], 'base64'));
      b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, () => ({
        contents: text.replace(dataUrl, 'H="data:application/octet-stream;base64,"'), loader: 'js',
      }));
      b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, () => ({
        contents: `import { readFileSync as __readWasm } from 'node:fs';\n${entry.replace('await loadYoga()', "await loadYoga({ wasmBinary: __readWasm(new URL('./yoga.wasm', import.meta.url)) })")}`,
        loader: 'js',
        resolveDir: yogaDir,
      }));
    },
  };
}

const RGI_EMOJI = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';

/**
 * string-width's source with its RGI emoji pattern built on first use, and tried only on a text
 * holding a code point with the Emoji property (every RGI emoji sequence holds one: a keycap's digit,
 * a flag's regional indicators, a tag sequence's black flag, and so on), or null when the source is not
 * shaped as expected. Building that pattern (`/^\p{RGI_Emoji}$/v`, thousands of sequences) took ~50 ms
 * of every start, and the dashboard's first frame has no emoji to try it on.
 */
export function lazyEmojiPattern(source) {
  const uses = source.split('rgiEmojiRegex').length - 1;
  const tests = source.split('rgiEmojiRegex.test(').length - 1;
  if (!source.includes(RGI_EMOJI) || uses !== tests + 1) return null;
  const lazy = [
    'const emojiProperty = /\\p{Emoji}/u;',
    'let rgiEmoji;',
    'const rgiEmojiRegex = { test: (text) => emojiProperty.test(text) && (rgiEmoji ??= /^\\p{RGI_Emoji}$/v).test(text) };',
  ].join('\n');
  return source.replace(RGI_EMOJI, () => lazy);
}

/** lazyEmojiPattern on the string-width the bundle holds (that file only: wrap-ansi's own copy has no such pattern). */
export function stringWidthLazyEmoji(stringWidthFile) {
  return {
    name: 'string-width-lazy-emoji',
    setup(b) {
      const changed = lazyEmojiPattern(readFileSync(stringWidthFile, 'utf8'));
      if (changed === null) {
        warn(`${stringWidthFile} is not shaped as expected; its emoji pattern is built at start`);
        return;
      }
      b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, (a) => (a.path === stringWidthFile ? { contents: changed, loader: 'js' } : undefined));
    },
  };
}

#!/usr/bin/env node
// `swarm up` from a bundle (issue 12 §6: `swarm up` to the first dashboard frame ≤ 1 s). Both of its
// processes run it — the `swarm up` on the terminal and the engine+dashboard in window 0 — and loading
// dist/ file by file (~90 modules with React, Ink and their ~40 packages) cost most of the wait.
// dist/up/cli.js is src/cli.ts bundled with every package but node-pty (native) as ES modules (Ink's
// layout engine, yoga, has a top-level await), minified, React's production build chosen at build
// time; every dynamic import is its own chunk, so the terminal's `swarm up` never loads the engine,
// React or Ink, which only window 0's engine needs. bin/swarm.cjs runs `swarm up` from here when it
// exists. import.meta.url stays meaningful: dist/up/ is as deep as dist/runtime/, so the paths the
// code computes from it (bin/swarm.cjs, panes/) resolve as they do from dist/.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'up');
const requireHere = createRequire(join(root, 'package.json'));
const inkDir = dirname(requireHere.resolve('ink'));
// yoga-layout/dist/src, as Ink resolves it.
const yogaDir = dirname(createRequire(join(inkDir, 'index.js')).resolve('yoga-layout'));

/**
 * Ink does not export its Output class, which src/ui/inkOutput.ts patches; src/ui/inkOutputClass.ts
 * finds it beside Ink's entry point at run time, which in the bundle would load a second copy of Ink's
 * file from node_modules and patch that. Here the same lookup is a static import of the file the
 * bundled Ink uses, so the patch reaches the dashboard's frames.
 */
const inkOutputClass = {
  name: 'ink-output-class',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]ui[\\/]inkOutputClass\.ts$/ }, () => ({
      contents: `import Output from ${JSON.stringify(join(inkDir, 'output.js'))};\nexport async function loadInkOutput() { return Output; }\n`,
      loader: 'js',
      resolveDir: root,
    }));
    // Ink loads its devtools (and react-devtools-core, not installed) only when DEV=true: left out.
    b.onResolve({ filter: /[\\/]devtools\.js$/ }, (a) => (a.importer.startsWith(inkDir) ? { path: a.path, namespace: 'ink-devtools' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'ink-devtools' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Yoga (Ink's layout engine) ships its WebAssembly as a base64 data: URL that Emscripten's loader
 * fetches, and the first fetch() loads Node's whole HTTP client (undici, http, http2, …): ~50 ms of
 * a start, more on a busy machine. The bundle holds the wasm as dist/up/yoga.wasm beside it and hands
 * its bytes to the loader (Emscripten's `wasmBinary`), so nothing is fetched. When yoga's files are
 * not shaped as expected it is left as it is (slower, not broken) and the build says so.
 */
function yogaWasm(outdir) {
  const binary = join(yogaDir, '..', 'binaries', 'yoga-wasm-base64-esm.js');
  const dataUrl = /H="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;
  return {
    name: 'yoga-wasm-file',
    setup(b) {
      const text = readFileSync(binary, 'utf8');
      const entry = readFileSync(join(yogaDir, 'index.js'), 'utf8');
      const found = dataUrl.exec(text);
      if (!found || !entry.includes('await loadYoga()')) {
        console.warn('bundle-up: yoga-layout is not shaped as expected; its wasm stays a data: URL (fetched at start)');
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

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [{ in: join(root, 'src', 'cli.ts'), out: 'cli' }],
  outdir: out,
  bundle: true,
  splitting: true,
  chunkNames: '[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['node-pty'],
  sourcemap: true,
  minify: true,
  // React's and its reconciler's production builds (the development ones render several times slower).
  define: { 'process.env.NODE_ENV': '"production"' },
  // The CommonJS packages in the bundle (React among them) call require().
  banner: { js: "import { createRequire as __swarmRequire } from 'node:module'; const require = __swarmRequire(import.meta.url);" },
  plugins: [inkOutputClass, yogaWasm(out)],
  logLevel: 'warning',
});

#!/usr/bin/env node
// `swarm up` from a bundle (issue 12 §6: `swarm up` to the first dashboard frame ≤ 1 s). Both of its
// processes run it — the `swarm up` on the terminal and the engine+dashboard in window 0 — and loading
// dist/ file by file (~90 modules with React, Ink and their ~40 packages) cost most of the wait.
// dist/up/cli.js is src/cli.ts bundled with every package but node-pty (native) as ES modules (Ink's
// layout engine, yoga, has a top-level await), minified, React's production build chosen at build
// time; every dynamic import is its own chunk, so the terminal's `swarm up` never loads the engine,
// React or Ink, which only window 0's engine needs. bin/swarm.cjs runs `swarm up` from here when it
// exists. import.meta.url stays meaningful: dist/up/ is as deep as dist/runtime/, so the paths the
// code computes from it (bin/swarm.cjs, panes/) resolve as they do from dist/. What the bundle changes in
// the packages it holds is in scripts/bundleUpPlugins.mjs.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { inkOutputClass, packageDirs, stringWidthLazyEmoji, yogaWasm } from './bundleUpPlugins.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'up');
const { inkDir, yogaDir, stringWidthFile } = packageDirs(root);

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
  plugins: [inkOutputClass(root, inkDir), yogaWasm(yogaDir, out), stringWidthLazyEmoji(stringWidthFile)],
  logLevel: 'warning',
});

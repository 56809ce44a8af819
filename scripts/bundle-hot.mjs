#!/usr/bin/env node
// The agents' fast path (src/hot.ts: `swarm notify`, `capacity`, `statusline`, `hook`) bundled into one CommonJS file,
// so a cold start reads one file and never starts the ES module loader (npm run bench measures it).
// Packages stay external. import.meta.url is mapped to this file's URL, so computed dynamic imports
// (the YAML loader, kept out of the bundle) resolve from dist/hot/ as they would from dist/adapters/.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  entryPoints: [join(root, 'src/hot.ts')],
  outfile: join(root, 'dist/hot/agent.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  // Minified: the bundle doubled with statusline and hook, and a cold start pays for every byte it
  // parses (npm run bench: ~4 ms of notify's ~52). The source map beside it keeps stacks readable
  // with node --enable-source-maps.
  minify: true,
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

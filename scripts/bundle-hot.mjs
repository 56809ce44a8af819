#!/usr/bin/env node
// The agents' fast path (src/hot.ts): `swarm notify`, `capacity`, `statusline` and `hook` each bundled into
// its own CommonJS file dist/hot/<command>.cjs, so a cold start reads one file, parses only that
// command's code, and never starts the ES module loader (npm run bench measures it).
// Packages stay external. import.meta.url is mapped to this file's URL, so computed dynamic imports
// (the YAML loader, kept out of the bundle) resolve from dist/hot/ as they would from dist/adapters/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const HOT = ['notify', 'capacity', 'statusline', 'hook'];

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'hot');
// The one-file bundle of earlier builds, so a stale copy is never what runs.
rmSync(join(out, 'agent.cjs'), { force: true });
rmSync(join(out, 'agent.cjs.map'), { force: true });
await build({
  entryPoints: HOT.map((name) => ({ in: join(root, 'src', 'hot', `${name}.ts`), out: name })),
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  // Minified: a cold start pays for every byte it parses (npm run bench). The source map beside each
  // file keeps stacks readable with node --enable-source-maps.
  minify: true,
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

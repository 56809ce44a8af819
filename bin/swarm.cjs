#!/usr/bin/env node
// The `swarm` command. `swarm notify`, `capacity`, `statusline` and `hook` run on every agent's fast path,
// so each starts from its own one-file CommonJS bundle (dist/hot/<command>.cjs: no ES module loader, only
// that command's code); everything else runs from dist/cli.js, but `swarm up` from its bundle dist/up/cli.js
// (scripts/bundle-up.mjs). `npm run bench` measures both against bare `node -e 0`.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const name = process.argv[2];
const HOT = ['notify', 'capacity', 'statusline', 'hook'];
const hot = HOT.includes(name) ? join(__dirname, '..', 'dist', 'hot', `${name}.cjs`) : null;
const up = name === 'up' ? join(__dirname, '..', 'dist', 'up', 'cli.js') : null;
if (hot !== null && existsSync(hot)) require(hot);
else if (up !== null && existsSync(up)) import(require('node:url').pathToFileURL(up).href);
else import('../dist/cli.js');

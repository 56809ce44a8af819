#!/usr/bin/env node
// The `swarm` command. `swarm notify`, `capacity`, `statusline` and `hook` run on every agent's fast path,
// so they start from a one-file CommonJS bundle (dist/hot/agent.cjs: no ES module loader); everything
// else runs from dist/cli.js. `npm run bench` measures both against bare `node -e 0`.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const name = process.argv[2];
const hot = join(__dirname, '..', 'dist', 'hot', 'agent.cjs');
const HOT = ['notify', 'capacity', 'statusline', 'hook'];
if (HOT.includes(name) && existsSync(hot)) require(hot);
else import('../dist/cli.js');

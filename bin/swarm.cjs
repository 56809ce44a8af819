#!/bin/sh
':' /*
# The `swarm` command: a shell script and a CommonJS module in one file. Run as a program (npm links it as
# `swarm`), the shell reads it first. `swarm up` and `swarm attach` on a terminal end with the terminal
# handed to `tmux attach`, and Node 20 cannot exec: node would wait behind that client for as long as
# the terminal stays attached (about 60 MB, as much again as the engine). So node is given a file to
# write the client's argv to instead of running it (SWARM_ATTACH_HANDOFF); once node has exited the
# shell runs the client, then node again, briefly, to say how the swarm stands after the detach and to
# give the exit code (SWARM_ATTACHED: the client's status). Only this small shell waits meanwhile.
# Run by node (`node bin/swarm.cjs`: window 0's engine, the agents' `swarm`, the tests), all this is a
# comment, and `up` and `attach` run the client from node, which waits for it.
unset SWARM_ATTACH_HANDOFF SWARM_ATTACHED
case $1 in up | attach) ;; *) exec node "$0" "$@" ;; esac
[ -t 0 ] && [ -t 1 ] && handoff=$(mktemp "${TMPDIR:-/tmp}/swarm-attach.XXXXXX" 2>/dev/null) || exec node "$0" "$@"
# Ctrl-C reaches node as it always did, and this shell waits for node to finish with it (a trap: node
# inherits none; an ignored signal it would inherit).
trap : INT
SWARM_ATTACH_HANDOFF=$handoff node "$0" "$@"
status=$?
# The client node handed over, one argument a line; none: node said all there was (its exit code).
run_client() {
  set --
  while IFS= read -r arg <&3; do set -- "$@" "$arg"; done 3<"$handoff"
  rm -f "$handoff"
  [ $# -gt 0 ] || exit "$status"
  "$@"
}
run_client
SWARM_ATTACHED=$? exec node "$0" "$@"
*/
// As node: `swarm notify`, `capacity`, `statusline` and `hook` run on every agent's fast path, so each
// starts from its own one-file CommonJS bundle (dist/hot/<command>.cjs: no ES module loader, only that
// command's code); everything else runs from dist/cli.js, but `swarm up` from its bundle dist/up/cli.js
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

// `swarm hook` on the agents' fast path (src/hot.ts): bundled alone into dist/hot/hook.cjs.
import { hook } from '../commands/hook.js';
import { runHot } from '../hot.js';

runHot('hook', hook);

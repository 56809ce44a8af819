// `swarm notify` on the agents' fast path (src/hot.ts): bundled alone into dist/hot/notify.cjs.
import { notify } from '../commands/notify.js';
import { runHot } from '../hot.js';

runHot('notify', notify);

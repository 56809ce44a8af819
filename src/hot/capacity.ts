// `swarm capacity` on the agents' fast path (src/hot.ts): bundled alone into dist/hot/capacity.cjs.
import { capacity } from '../commands/capacity.js';
import { runHot } from '../hot.js';

runHot('capacity', capacity);

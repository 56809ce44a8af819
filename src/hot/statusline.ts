// `swarm statusline` on the agents' fast path (src/hot.ts): bundled alone into dist/hot/statusline.cjs.
import { statusline } from '../commands/statusline.js';
import { runHot } from '../hot.js';

runHot('statusline', statusline);

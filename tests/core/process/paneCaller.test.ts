import { describe, expect, it } from 'vitest';
import { paneCaller, type CallerFacts, type SwarmProcesses } from '../../../src/core/process/paneCaller.js';

const swarm: SwarmProcesses = {
  servers: [100],
  engine: 50,
  panes: [{ pid: 101, tty: 34816, ttyPath: '/dev/pts/0' }, { pid: 102, tty: 34817, ttyPath: '/dev/pts/1' }, { pid: 103, tty: null, ttyPath: '' }],
};
const caller = (ancestors: number[], ttys: number[] = []): CallerFacts => ({ ancestors, ttys });

describe('paneCaller', () => {
  it.each<[string, CallerFacts, SwarmProcesses, string | null]>([
    ['the developer: no swarm process above, another terminal', caller([900, 800, 1], [34900]), swarm, null],
    ['no facts at all (no /proc, no terminal)', caller([]), swarm, null],
    ['no swarm running', caller([900, 101, 100, 1], [34816]), { servers: [], engine: null, panes: [] }, null],
    ['a child of a pane process', caller([900, 102, 100, 1]), swarm, 'it runs under the process of the swarm pane on /dev/pts/1 (pid 102)'],
    ['a pane process itself', caller([101, 100, 1]), swarm, 'it runs under the process of the swarm pane on /dev/pts/0 (pid 101)'],
    ['under the tmux server, in a pane not listed', caller([900, 777, 100, 1]), swarm, "it runs under the swarm's tmux server (pid 100)"],
    ['under the engine (pty backend)', caller([900, 60, 50, 1]), swarm, 'it runs under the swarm engine (pid 50), as its panes do'],
    ['reparented away, its terminal a pane\'s', caller([900, 1], [34817]), swarm, "its terminal /dev/pts/1 is a swarm pane's"],
    ['the nearest ancestor decides', caller([900, 102, 50, 1]), swarm, 'it runs under the process of the swarm pane on /dev/pts/1 (pid 102)'],
    ['ancestry before the terminal', caller([900, 50, 1], [34816]), swarm, 'it runs under the swarm engine (pid 50), as its panes do'],
    ['a pane with no known terminal matches no terminal', caller([900, 1], [0]), { ...swarm, panes: [{ pid: 103, tty: null, ttyPath: '' }] }, null],
  ])('%s', (_name, facts, processes, why) => {
    expect(paneCaller(facts, processes)).toEqual(why === null ? { inside: false } : { inside: true, why });
  });
});

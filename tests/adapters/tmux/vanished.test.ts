import { describe, expect, it } from 'vitest';
import { PANES_CHANGED, VanishedPanes } from '../../../src/adapters/tmux/vanished.js';

/** A tracker over a hand-made pane list: `present` is what tmux lists, `gone` what was told. */
function setup(present: string[]) {
  const world = { present: new Set(present), lists: 0, fail: false, hold: null as Promise<void> | null };
  const gone: string[] = [];
  const panes = new VanishedPanes({
    list: async () => {
      world.lists += 1;
      if (world.hold) await world.hold;
      if (world.fail) throw new Error('no server running');
      return [...world.present];
    },
    gone: (paneId) => gone.push(paneId),
  });
  return { world, gone, panes };
}

describe('VanishedPanes', () => {
  it('tells a known pane missing from the listing as gone, once', async () => {
    const { world, gone, panes } = setup(['%1', '%2']);
    panes.seen(['%1', '%2']);
    world.present.delete('%1');
    await panes.look();
    await panes.look();
    expect(gone).toEqual(['%1']);
  });

  it('never tells a pane it was not told of (a user\'s shell, the dashboard), nor one forgotten (died, closed by swarm)', async () => {
    const { world, gone, panes } = setup(['%1', '%2', '%3']);
    panes.seen(['%1', '%2']);
    panes.forget('%2');
    world.present.clear();
    await panes.look();
    expect(gone).toEqual(['%1']);
  });

  it('a pane seen while a listing is under way (a spawn) is not gone for missing from it', async () => {
    const { world, gone, panes } = setup(['%1']);
    panes.seen(['%1']);
    let release = () => undefined as void;
    world.hold = new Promise((resolve) => { release = resolve; });
    const look = panes.look();
    panes.seen(['%5']);
    release();
    await look;
    expect(gone).toEqual([]);
  });

  it('notices during a look make one more look, not one each', async () => {
    const { world, panes } = setup(['%1']);
    panes.seen(['%1']);
    let release = () => undefined as void;
    world.hold = new Promise((resolve) => { release = resolve; });
    const first = panes.look();
    void panes.look();
    void panes.look();
    world.hold = null;
    release();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(world.lists).toBe(2);
  });

  it('a listing that fails (the server going) tells nothing; nothing known, nothing asked', async () => {
    const { world, gone, panes } = setup([]);
    await panes.look();
    expect(world.lists).toBe(0);
    panes.seen(['%1']);
    world.fail = true;
    await panes.look();
    expect(gone).toEqual([]);
  });

  it('looks after the notices tmux 3.3a sends when a pane or its window is killed', () => {
    expect([...PANES_CHANGED].sort()).toEqual(['layout-change', 'unlinked-window-close', 'window-close']);
  });
});

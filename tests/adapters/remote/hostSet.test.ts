/**
 * HostSet (SPEC 10.9): the engine's one PaneHost over this machine's and other hosts' panes, with fake
 * hosts. Spawns go where the agent's lane runs (a reviewer where its lane does), a pane's id names its
 * host, and what is asked of a pane reaches the host that holds it; a host's events come named alike.
 */
import { describe, expect, it } from 'vitest';
import type { GitState } from '../../../src/adapters/git.js';
import type { HostEvent, PaneSpec } from '../../../src/adapters/host.js';
import { HostSet, type HostPanes } from '../../../src/adapters/remote/hostSet.js';
import { FakeHost } from '../../helpers/fakeHost.js';

const GIT: GitState = { repo: '/srv/b', branch: 'lane/b', head: 'abc', pushed: null, uncommitted: [] };

class FakeRemote extends FakeHost implements HostPanes {
  synced = 0;
  why: string | null = null;
  down(): string | null {
    return this.why;
  }
  constructor(readonly name: string) {
    super({});
  }
  agentEnv(): NodeJS.ProcessEnv {
    return { HOME: `/home/${this.name}`, PATH: '/there/bin' };
  }
  async sync(): Promise<void> {
    this.synced += 1;
  }
  async gitState(): Promise<GitState> {
    return GIT;
  }
  gateThere(checkout: string, command: string): { argv: string[]; cwd: string } {
    return { argv: ['ssh', this.name, checkout, command], cwd: '/' };
  }
}

function spec(lane: string): PaneSpec {
  return { lane, generation: 1, account: 'a1', role: 'lane', cwd: '/', argv: ['true'], env: {}, title: lane };
}

function setOf() {
  const local = new FakeHost({});
  const box = new FakeRemote('box');
  const hosts = new Map([['lane-b', 'box']]);
  const set = new HostSet(local, new Map([['box', box]]), (agent) => hosts.get(agent.replace(/\.review$/, '')) ?? null);
  return { local, box, set };
}

describe('HostSet', () => {
  it('starts a lane where it runs: here, or on its host under the host-named id', async () => {
    const { local, box, set } = setOf();
    const a = await set.spawn(spec('lane-a'));
    const b = await set.spawn(spec('lane-b'));
    expect(local.live()).toEqual(['lane-a g1 @a1']);
    expect(box.live()).toEqual(['lane-b g1 @a1']);
    expect(a.paneId).toBe('%1');
    expect(b.paneId).toBe(`box:${[...box.panes.keys()][0]}`);
    expect((await set.list()).map((p) => p.paneId)).toEqual([a.paneId, b.paneId]);
  });

  it('asks the host that holds a pane: capture, typing, kill', async () => {
    const { local, box, set } = setOf();
    const b = await set.spawn(spec('lane-b'));
    const inner = [...box.panes.keys()][0]!;
    box.print(inner, 'on box');
    expect(await set.capture(b.paneId)).toBe('on box');
    expect(await set.typeLine(b.paneId, 'hello')).toBe(true);
    await set.kill(b.paneId);
    expect(box.live()).toEqual([]);
    expect(local.live()).toEqual([]);
  });

  it('a reviewer runs where its lane does; the environment and git state are its host\'s', async () => {
    const { box, set } = setOf();
    await set.spawn({ ...spec('lane-b.review'), role: 'reviewer' });
    expect(box.live()).toHaveLength(1);
    expect(set.agentEnv('lane-b')).toEqual({ HOME: '/home/box', PATH: '/there/bin' });
    expect(set.agentEnv('lane-a')).toBeNull();
    expect(await set.gitState('lane-b', '/srv/b')).toEqual(GIT);
    expect(await set.gitState('lane-a', '/here')).toBeNull();
    expect(set.gateThere('lane-b', '/srv/b', 'npm test', 'r')).toEqual({ argv: ['ssh', 'box', '/srv/b', 'npm test'], cwd: '/' });
    expect(set.gateThere('lane-a', '/here', 'npm test', 'r')).toBeNull();
    await set.publish('lane-b');
    await set.publish('lane-a');
    expect(box.synced).toBe(1);
  });

  it("tells a host's pane events under the host-named id, and its connection as it is", async () => {
    const { box, set } = setOf();
    const events: HostEvent[] = [];
    set.onEvent((event) => events.push(event));
    const b = await set.spawn(spec('lane-b'));
    box.exit([...box.panes.keys()][0]!, 3);
    expect(events).toContainEqual(expect.objectContaining({ type: 'exited', paneId: b.paneId, status: 3 }));
    box.loseServer('gone');
    expect(events.at(-1)).toEqual({ type: 'lost', reason: 'gone' });
  });

  it("names a host that cannot be reached for its lanes only", () => {
    const { box, set } = setOf();
    expect(set.hostDown('lane-b')).toBeNull();
    box.why = 'connection refused';
    expect(set.hostDown('lane-b')).toBe('host box is unreachable: connection refused');
    expect(set.hostDown('lane-b.review')).toBe('host box is unreachable: connection refused');
    expect(set.hostDown('lane-a')).toBeNull();
  });

  it('an id naming an undeclared host is no pane of this swarm', async () => {
    const { set } = setOf();
    await expect(set.capture('gpu:%1/1.1')).rejects.toThrow(/host gpu is not in swarm.yaml/);
  });
});

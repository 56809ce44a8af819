/**
 * The panes of a swarm whose lanes run on several hosts (SPEC 10.9), as the one PaneHost the engine
 * knows: this machine's host (tmux or pty) for the lead and every lane without `host:`, and a
 * RemoteHost (remote/host.ts) for each other host with a lane. A pane of host `box` is `box:<its id there>`
 * (core/host/panes.ts); what the engine asks of a pane goes to the host that holds it.
 *
 * What the swarm as a whole has — its session's owner, how its server was started, whether its
 * server is reachable, its loss — is this machine's: a host that goes loses its own lanes only.
 */
import { hostPane, paneHost } from '../../core/host/panes.js';
import { SwarmError } from '../../errors.js';
import type { GateThere } from '../gate.js';
import type { GitState } from '../git.js';
import type { HostEvent, PaneHost, PaneInfo, PaneSpec } from '../host.js';

/** What the set asks of another host's panes (remote/host.ts RemoteHost). */
export interface HostPanes extends Pick<PaneHost, 'start' | 'spawn' | 'list' | 'capture' | 'typeLine' | 'kill' | 'relabel' | 'onEvent' | 'detach' | 'destroy'> {
  readonly name: string;
  agentEnv(): NodeJS.ProcessEnv;
  sync(): Promise<void>;
  gitState(checkout: string): Promise<GitState>;
  gateThere(checkout: string, command: string, run: string): GateThere;
  /** Why the host cannot be reached now (its connection lost), else null. */
  down(): string | null;
}

export class HostSet implements PaneHost {
  readonly ownership?: NonNullable<PaneHost['ownership']>;

  constructor(
    private readonly local: PaneHost,
    private readonly remotes: ReadonlyMap<string, HostPanes>,
    /** The host an agent runs on (by its name, as in PaneSpec.lane), or null for this machine. */
    private readonly hostOf: (agent: string) => string | null,
  ) {
    if (local.ownership !== undefined) this.ownership = local.ownership;
  }

  get kind(): PaneHost['kind'] {
    return this.local.kind;
  }

  get serverStart(): { scoped: boolean; note: string | null } | null {
    return this.local.serverStart ?? null;
  }

  async unreachable(): Promise<string | null> {
    return (await this.local.unreachable?.()) ?? null;
  }

  /** This machine's session first, then every host at once; a host that cannot be reached fails the start, naming it. */
  async start(): Promise<void> {
    await this.local.start();
    await Promise.all([...this.remotes.values()].map((remote) => remote.start()));
  }

  async spawn(spec: PaneSpec): Promise<PaneInfo> {
    const remote = this.remoteOf(spec.lane);
    if (remote === null) return this.local.spawn(spec);
    const info = await remote.spawn(spec);
    return { ...info, paneId: hostPane(remote.name, info.paneId) };
  }

  async list(): Promise<PaneInfo[]> {
    const here = await this.local.list();
    const there = await Promise.all([...this.remotes.values()].map(async (remote) => (await remote.list()).map((pane) => ({ ...pane, paneId: hostPane(remote.name, pane.paneId) }))));
    return [...here, ...there.flat()];
  }

  async capture(id: string, history?: number): Promise<string> {
    const at = this.at(id);
    return at.remote === null ? this.local.capture(id, history) : at.remote.capture(at.ref, history);
  }

  async typeLine(id: string, line: string): Promise<boolean> {
    const at = this.at(id);
    return at.remote === null ? this.local.typeLine(id, line) : at.remote.typeLine(at.ref, line);
  }

  async kill(id: string): Promise<void> {
    const at = this.at(id);
    return at.remote === null ? this.local.kill(id) : at.remote.kill(at.ref);
  }

  async relabel(id: string, as: Parameters<PaneHost['relabel']>[1]): Promise<void> {
    const at = this.at(id);
    return at.remote === null ? this.local.relabel(id, as) : at.remote.relabel(at.ref, as);
  }

  /** The environment an agent starts from: its host's own for an agent there; null here (swarm's own). */
  agentEnv(agent: string): NodeJS.ProcessEnv | null {
    return this.remoteOf(agent)?.agentEnv() ?? null;
  }

  /** Make the plan's files current on the agent's host (its record, written after its pane started). */
  async publish(agent: string): Promise<void> {
    await this.remoteOf(agent)?.sync();
  }

  hostDown(agent: string): string | null {
    const remote = this.remoteOf(agent);
    const down = remote?.down() ?? null;
    return remote === null || down === null ? null : `host ${remote.name} is unreachable: ${down}`;
  }

  gateThere(agent: string, checkout: string, command: string, run: string): GateThere | null {
    return this.remoteOf(agent)?.gateThere(checkout, command, run) ?? null;
  }

  async gitState(agent: string, checkout: string): Promise<GitState | null> {
    return (await this.remoteOf(agent)?.gitState(checkout)) ?? null;
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    const offs = [
      this.local.onEvent(listener),
      ...[...this.remotes.values()].map((remote) => remote.onEvent((event) => listener(event.type === 'lost' || event.type === 'connection' ? event : { ...event, paneId: hostPane(remote.name, event.paneId) }))),
    ];
    return () => offs.forEach((off) => off());
  }

  async detach(): Promise<void> {
    await Promise.all([this.local.detach(), ...[...this.remotes.values()].map((remote) => remote.detach())]);
  }

  async destroy(): Promise<void> {
    await Promise.all([this.local.destroy(), ...[...this.remotes.values()].map((remote) => remote.destroy())]);
  }

  private remoteOf(agent: string): HostPanes | null {
    const name = this.hostOf(agent);
    if (name === null) return null;
    const remote = this.remotes.get(name);
    if (remote === undefined) throw new SwarmError(`${agent} runs on host ${name}, which swarm.yaml's hosts: does not declare`);
    return remote;
  }

  /** The host holding pane `id` and its id there; this machine's when `id` names no host (or one not declared: gone). */
  private at(id: string): { remote: HostPanes | null; ref: string } {
    const named = paneHost(id);
    if (named === null) return { remote: null, ref: id };
    const remote = this.remotes.get(named.host);
    if (remote === undefined) throw new SwarmError(`can't find pane: ${id} (host ${named.host} is not in swarm.yaml)`);
    return { remote, ref: named.ref };
  }
}

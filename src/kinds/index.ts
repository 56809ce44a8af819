/**
 * The one map from a kind's name to its folder, each loaded on first use: `swarm capacity` in a sim
 * lane loads the sim kind alone; the engine loads them all before it needs one. A kind with no folder
 * (a panes/<kind>.yaml of the user's own) is a plain kind: its file says all there is.
 */
import { plainKind, type Kind } from './kind.js';

const FOLDERS: Readonly<Record<string, () => Promise<Kind>>> = {
  claude: async () => (await import('./claude/kind.js')).claude,
  codex: async () => (await import('./codex/kind.js')).codex,
  gemini: async () => (await import('./gemini/kind.js')).gemini,
  sim: async () => (await import('./sim/kind.js')).sim,
  command: async () => (await import('./command/kind.js')).command,
};

const loaded = new Map<string, Kind>();

/** The kind named `name` (loaded once); a plain kind for a name with no folder, or none. */
export async function kindFor(name: string | null): Promise<Kind> {
  const key = name ?? '';
  const known = loaded.get(key);
  if (known !== undefined) return known;
  const load = Object.hasOwn(FOLDERS, key) ? FOLDERS[key] : undefined;
  const kind = load === undefined ? plainKind(key) : await load();
  loaded.set(key, kind);
  return kind;
}

/** The first kind with a folder (in the order above) that `has`, or null: for a command one kind's CLI calls. */
export async function findKind(has: (kind: Kind) => boolean): Promise<Kind | null> {
  for (const name of Object.keys(FOLDERS)) {
    const kind = await kindFor(name);
    if (has(kind)) return kind;
  }
  return null;
}

/** Every kind's hook events, for a `swarm hook` no kind calls. */
export async function hookEvents(): Promise<string[]> {
  const events: string[] = [];
  for (const name of Object.keys(FOLDERS)) events.push(...((await kindFor(name)).signals.hooks?.events ?? []));
  return events;
}

/** Every kind a swarm may run, loaded before the engine needs one without waiting. */
export type Kinds = (name: string) => Kind;

/** The kinds of `names` and every kind with a folder (a lane added later may run any of them). */
export async function loadKinds(names: Iterable<string>): Promise<Kinds> {
  const table = new Map<string, Kind>();
  for (const name of new Set([...Object.keys(FOLDERS), ...names])) table.set(name, await kindFor(name));
  return (name) => table.get(name) ?? plainKind(name);
}

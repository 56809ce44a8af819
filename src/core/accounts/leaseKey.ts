/**
 * The machine-wide account a lease holds (SPEC 10.4). Pure: the facts (host, real paths) come in.
 *
 * - An account whose kind keeps a profile folder is that folder's real path on its host: two ids, in
 *   one swarm.yaml or two, on one folder (`~/.claude` and a symlink to it) are one account.
 * - An account with no profile folder (`sim`, `command`) is its swarm.yaml's real path and its id.
 * The lease file is named by a hash of the key (a path may be longer than a file name may be).
 */
import { createHash } from 'node:crypto';

export interface KeyFacts {
  host: string;
  /** The real path of the account's profile folder; null for a kind without one. */
  profile: string | null;
  /** The real path of the swarm.yaml that declares it. */
  config: string;
}

export function leaseKey(id: string, facts: KeyFacts): string {
  return facts.profile === null ? `${facts.host}:account:${facts.config}#${id}` : `${facts.host}:profile:${facts.profile}`;
}

/** `<32 hex>.json`: the first 128 bits of the key's SHA-256. */
export function leaseFileOfKey(key: string): string {
  return `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`;
}

/**
 * Ids that share a key (SPEC 10.4: one account): each group of two or more, in declaration order.
 * `validate` names them; the engine shares their readings and limits.
 */
export function sharedKeys(keys: ReadonlyMap<string, string>): string[][] {
  const byKey = new Map<string, string[]>();
  for (const [id, key] of keys) byKey.set(key, [...(byKey.get(key) ?? []), id]);
  return [...byKey.values()].filter((ids) => ids.length > 1);
}

/**
 * Secret detection for packets (SPEC 5.1: a packet is data, no secret values). Pure: a parsed value
 * and the environment in, one line per finding out — never the secret itself.
 *
 * Decisions where SPEC 5.1 is silent:
 * - Only string values are scanned (map keys and numbers are not).
 * - The entropy rule needs a run of ≥ 32 base64/base64url characters that mixes lower case, upper
 *   case and digits, switches between character classes often and carries ≥ 4 bits per character,
 *   as random text does. Plain hex in any case (git heads, sha256 sums, UUIDs) is never flagged by it.
 */

const SHAPES: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'an Anthropic API key (sk-ant-…)', pattern: /sk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'an API key (sk-…)', pattern: /(?<![A-Za-z0-9])sk-(?!ant-)[A-Za-z0-9_-]{20,}/ },
  { kind: 'a GitHub token', pattern: /gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}/ },
  { kind: 'a GitLab token (glpat-…)', pattern: /glpat-[A-Za-z0-9_-]{20,}/ },
  { kind: 'an npm token (npm_…)', pattern: /npm_[A-Za-z0-9]{36,}/ },
  { kind: 'a Slack token (xox…-)', pattern: /xox[abprs]-[A-Za-z0-9-]{10,}/ },
  { kind: 'an AWS access key id', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/ },
  { kind: 'a Google API key (AIza…)', pattern: /AIza[A-Za-z0-9_-]{35}/ },
  { kind: 'a private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/ },
  { kind: 'a JSON Web Token', pattern: /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/ },
];

const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD/i;

/** A variable named like a credential (`*TOKEN*`, `*KEY*`, `*SECRET*`, `*PASSWORD*`, any case; SPEC 3 pass_env). */
export const looksLikeCredential = (name: string): boolean => SECRET_NAME.test(name);
const MIN_ENV_VALUE = 8;
const RUN = /[A-Za-z0-9+/_=-]{32,}/g;

function charClass(c: string): number {
  if (c >= 'a' && c <= 'z') return 0;
  if (c >= 'A' && c <= 'Z') return 1;
  if (c >= '0' && c <= '9') return 2;
  return 3;
}

/** Shannon entropy of `text`, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** True when `run` reads like random key material rather than words, paths or hex. */
function looksRandom(run: string): boolean {
  const body = run.replace(/=+$/, '');
  if (body.length < 32 || /^[0-9a-f]+$/i.test(body)) return false;
  // A path (`/tmp/swarm-chaos-683800-NRZKk2/repo`) is segments between slashes: each is judged on its
  // own, so a folder's random name is no key, while a key with slashes (base64) still has a random run.
  const segments = body.split('/');
  if (segments.length >= 3) return segments.some(looksRandom);
  const classes = [...body].map(charClass);
  if (!classes.includes(0) || !classes.includes(1) || !classes.includes(2)) return false;
  let switches = 0;
  for (let i = 1; i < classes.length; i++) if (classes[i] !== classes[i - 1]) switches++;
  return switches / (classes.length - 1) >= 0.4 && entropy(body) >= 4;
}

/** True when a variable's name reads like a credential's (TOKEN, KEY, SECRET, PASSWORD, any case). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Why one string looks like a secret by its shape alone ("looks like a GitHub token"); empty when it does not. */
export function secretShapes(text: string): string[] {
  return kindsIn(text, []);
}

/** The well-known token shapes only (`sk-ant-…`, `ghp_…`), without the long-random-string guess. */
export function tokenShapes(text: string): string[] {
  return SHAPES.filter((shape) => shape.pattern.test(text)).map((shape) => `looks like ${shape.kind}`);
}

/** What makes one string a secret ("looks like …", "contains the value of $X"), in a stable order. */
function kindsIn(text: string, envSecrets: readonly [string, string][]): string[] {
  const kinds = tokenShapes(text);
  if (kinds.length === 0 && (text.match(RUN) ?? []).some(looksRandom)) {
    kinds.push('looks like a long random string (a key or token?)');
  }
  for (const [name, value] of envSecrets) {
    if (text.includes(value)) kinds.push(`contains the value of $${name}`);
  }
  return kinds;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const name = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key.slice(0, 40));
  return parent === '' ? name : `${parent}.${name}`;
}

/**
 * Paths (e.g. `verified[0].evidence`) of string values that look like secrets: well-known token
 * shapes, long random-looking strings, or the value (8+ characters) of an environment variable named
 * like TOKEN, KEY, SECRET or PASSWORD. One line per path and kind; the secret is never echoed.
 */
export function findSecrets(value: unknown, env: Readonly<Record<string, string | undefined>>): string[] {
  const envSecrets = Object.entries(env)
    .filter((entry): entry is [string, string] => looksLikeCredential(entry[0]) && (entry[1] ?? '').length >= MIN_ENV_VALUE)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const found: string[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      for (const kind of kindsIn(node, envSecrets)) {
        found.push(`secret in ${path === '' ? 'the packet' : path}: ${kind}; remove it (value not shown)`);
      }
      return;
    }
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, childPath(path, i)));
    else for (const [key, item] of Object.entries(node)) walk(item, childPath(path, key));
    seen.delete(node);
  };
  walk(value, '');
  return found;
}

import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../src/core/packet/secrets.js';

const line = (path: string, kind: string): string => `secret in ${path}: ${kind}; remove it (value not shown)`;
const RANDOM = 'Zx8Qm2Lr5Tv9Wb3Nc7Kd1Hf6Jg4Ps0Ya';

describe('findSecrets: token shapes', () => {
  it.each([
    ['an Anthropic key', `sk-ant-api03-${'Ab3_dE5-fG7h'.repeat(3)}`, 'looks like an Anthropic API key (sk-ant-…)'],
    ['an OpenAI key', `sk-proj-${'Ab3dE5fG7h'.repeat(3)}`, 'looks like an API key (sk-…)'],
    ['a plain sk- key', `sk-${'a1'.repeat(12)}`, 'looks like an API key (sk-…)'],
    ['a GitHub classic token', `ghp_${'aB3dE5fG7h'.repeat(4)}`, 'looks like a GitHub token'],
    ['a GitHub OAuth token', `gho_${'aB3dE5fG7h'.repeat(4)}`, 'looks like a GitHub token'],
    ['a GitHub fine-grained token', `github_pat_11ABCDEFG0_${'x'.repeat(40)}`, 'looks like a GitHub token'],
    ['a GitLab token', `glpat-${'aB3dE5fG7h'.repeat(2)}`, 'looks like a GitLab token (glpat-…)'],
    ['an npm token', `npm_${'aB3dE5fG7h'.repeat(4)}`, 'looks like an npm token (npm_…)'],
    ['a Slack bot token', 'xoxb-1234567890-abcdefghij', 'looks like a Slack token (xox…-)'],
    ['a Slack user token', 'xoxp-1234567890-abcdefghij', 'looks like a Slack token (xox…-)'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE', 'looks like an AWS access key id'],
    ['an AWS session key id', 'ASIAIOSFODNN7EXAMPLE', 'looks like an AWS access key id'],
    ['a Google API key', `AIzaSyD${'0123456789aBcDeF'.repeat(2)}`, 'looks like a Google API key (AIza…)'],
    ['an RSA private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', 'looks like a private key'],
    ['an OpenSSH private key', '-----BEGIN OPENSSH PRIVATE KEY-----', 'looks like a private key'],
    ['a bare private key', '-----BEGIN PRIVATE KEY-----', 'looks like a private key'],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'looks like a JSON Web Token'],
    ['an unsigned JWT', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0.', 'looks like a JSON Web Token'],
    ['a long random base64 string', RANDOM, 'looks like a long random string (a key or token?)'],
    ['random base64 with + / =', 'q8Z+3kP/w2Lm9XvB7nR4tY1uC6oE0aS5==', 'looks like a long random string (a key or token?)'],
  ])('flags %s', (_name, secret, kind) => {
    expect(findSecrets({ doing: `ran it with ${secret} yesterday` }, {})).toEqual([line('doing', kind)]);
  });

  it.each([
    ['a git sha (40 hex)', '4b825dc642cb6eb9a060e54bf8d69288fbee4904'],
    ['an upper-case sha', '4B825DC642CB6EB9A060E54BF8D69288FBEE4904'],
    ['a mixed-case sha', '4b825DC642cb6EB9a060E54bf8D69288fbEE4904aA1bB2cC3dD4eE5fF6a7B8c9'],
    ['random lower case and digits (no upper case)', 'k3j9x2m7q1w8e4r6t0y5u2i9o3p7a1s6d4f8g2h5'],
    ['a sha256 sum', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['a UUID', '123e4567-e89b-12d3-a456-426614174000'],
    ['a long path', 'src/adapters/tmuxControlModeParser/handleOutputNotification2.ts'],
    ['a temp folder with a random name', '/tmp/swarm-test-VGIp8R/work/lane-a'],
    ['a temp folder with random names nested', '/tmp/swarm-e2e-pNr48b/wt-lane-a/x9Qz2Lm'],
    ['a camelCase identifier', 'handleCapacityCriticalForLane2AndLane3Together'],
    ['an env var name', 'AGENTKIT_CAPACITY_CRITICAL_THRESHOLD_OVERRIDE_2'],
    ['a URL', 'https://github.com/example/demo/pull/1234#issuecomment-987654321'],
    ['the word sk- in prose', 'ask-for-help and risk-free tasks'],
    ['an empty string', ''],
    ['whitespace only', '  \n\t '],
    ['prose', 'Wired the inbox reader; 42 tests pass; next: the e2e run.'],
    ['a number', 1234567890123],
  ])('does not flag %s', (_name, value) => {
    expect(findSecrets({ where: { head: value } }, {})).toEqual([]);
  });
});

describe('findSecrets: environment values', () => {
  it('flags the value of a variable named like a secret inside a longer string', () => {
    expect(findSecrets({ next: ['call the API with hunter2-correct-horse then retry'] }, { SERVICE_PASSWORD: 'hunter2-correct-horse' }))
      .toEqual([line('next[0]', 'contains the value of $SERVICE_PASSWORD')]);
  });

  it.each([
    ['TOKEN', 'MY_TOKEN'], ['KEY', 'api_key'], ['SECRET', 'ClientSecret'], ['PASSWORD', 'DB_PASSWORD'],
  ])('matches %s in any case (%s)', (_part, name) => {
    expect(findSecrets({ task: 'value=plainvalue123' }, { [name]: 'plainvalue123' })).toEqual([line('task', `contains the value of $${name}`)]);
  });

  it.each([
    ['a value shorter than 8 characters', { API_KEY: 'abc1234' }],
    ['an undefined value', { API_KEY: undefined }],
    ['an empty value', { API_KEY: '' }],
    ['a variable not named like a secret', { HOME: 'plainvalue123' }],
  ])('ignores %s', (_name, env) => {
    expect(findSecrets({ task: 'value=plainvalue123 abc1234' }, env)).toEqual([]);
  });

  it('names each variable once per field, in name order, and never echoes the value', () => {
    const env = { Z_TOKEN: 'shared-value-1', A_SECRET: 'shared-value-1', OTHER_KEY: 'elsewhere-2' };
    const found = findSecrets({ asks: ['x shared-value-1 y'], done: ['elsewhere-2'] }, env);
    expect(found).toEqual([
      line('asks[0]', 'contains the value of $A_SECRET'),
      line('asks[0]', 'contains the value of $Z_TOKEN'),
      line('done[0]', 'contains the value of $OTHER_KEY'),
    ]);
    expect(found.join('\n')).not.toMatch(/shared-value|elsewhere-2/);
  });
});

describe('findSecrets: paths', () => {
  it('names nested fields, list entries and odd keys', () => {
    const value = {
      verified: [{ what: 'ok', evidence: 'fine' }, { what: 'push', evidence: RANDOM }],
      where: { uncommitted: ['a.ts', RANDOM] },
      decisions: [{ 'odd key': RANDOM }],
    };
    const kind = 'looks like a long random string (a key or token?)';
    expect(findSecrets(value, {})).toEqual([
      line('verified[1].evidence', kind), line('where.uncommitted[1]', kind), line('decisions[0]."odd key"', kind),
    ]);
  });

  it('scans a bare string as the packet, across lines, CRLF and ANSI', () => {
    expect(findSecrets(`line one\r\n\u001b[31m${RANDOM}\u001b[0m\r\n`, {})).toEqual([line('the packet', 'looks like a long random string (a key or token?)')]);
  });

  it('survives a value that refers to itself', () => {
    const loop: Record<string, unknown> = { doing: RANDOM };
    loop.self = loop;
    expect(findSecrets(loop, {})).toEqual([line('doing', 'looks like a long random string (a key or token?)')]);
  });

  it('reports a string that is both a token shape and an environment value twice', () => {
    const token = `ghp_${'aB3dE5fG7h'.repeat(4)}`;
    expect(findSecrets({ doing: token }, { GH_TOKEN: token })).toEqual([
      line('doing', 'looks like a GitHub token'), line('doing', 'contains the value of $GH_TOKEN'),
    ]);
  });
});

describe('findSecrets: temp folders with random names are paths, not keys', () => {
  /** `count` mkdtemp-style names (6 letters and digits) and a number below a million, from a fixed seed. */
  function randomNames(seed: number, count: number): { name: string; number: number }[] {
    const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    return Array.from({ length: count }, () => ({ name: Array.from({ length: 6 }, () => chars[next() % chars.length]).join(''), number: 100000 + (next() % 900000) }));
  }
  const flagged = (paths: string[]): string[] => paths.filter((path) => findSecrets({ where: { checkout: path } }, {}).length > 0);

  it('flags none of 500 mkdtemp-style paths', () => {
    expect(flagged(randomNames(42, 500).map(({ name }) => `/tmp/swarm-test-${name}/work/lane-a`))).toEqual([]);
  });

  // Found by chaos (seed 683800): a folder name of 24+ characters made the whole path one "random
  // string", so a lane's own packet, and every successor's acceptance, were refused.
  it('flags none of 500 paths whose random folder name has a long prefix (a run folder, a project)', () => {
    const paths = randomNames(7, 500).flatMap(({ name, number }) => [`/tmp/swarm-chaos-${number}-${name}/repo/plans/chaos`, `/home/dev/src/Project2-feature-${name}/lane-a`]);
    expect(flagged(['/tmp/swarm-chaos-683800-NRZKk2/repo', ...paths])).toEqual([]);
  });

  it('still flags key material that holds slashes (base64)', () => {
    expect(findSecrets({ doing: 'k/Xq9Zr2Lm8Tp4Wv7Bn3Jd6Hf1Gs5Ka0YcUe/2Oi9Pq' }, {})).toEqual([line('doing', 'looks like a long random string (a key or token?)')]);
  });
});

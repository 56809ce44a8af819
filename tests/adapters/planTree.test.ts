/**
 * Files under a plan folder reached without following a link (the host relay's reads and writes): a
 * link an agent leaves — to a file outside, or a folder of its spool swapped for a link — is neither
 * read nor written through; a fifo does not hang a read.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlanTree } from '../../src/adapters/planTree.js';
import { tempDir } from '../helpers/swarm.js';

let temp: ReturnType<typeof tempDir>;
let plan: string;
let outside: string;
let tree: PlanTree;
const SPOOL = '.swarm/spool/r1/a-g1';

beforeEach(() => {
  temp = tempDir('swarm-plantree-');
  plan = join(temp.dir, 'plan');
  outside = join(temp.dir, 'outside');
  mkdirSync(join(plan, SPOOL), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'id_rsa'), 'SECRET KEY\n');
  writeFileSync(join(outside, 'records.jsonl'), 'SECRET RECORD\n');
  tree = new PlanTree(plan);
});

afterEach(() => temp.cleanup());

describe('reading', () => {
  it('a plain file: its facts, bytes from an offset, the whole', () => {
    writeFileSync(join(plan, SPOOL, 'records.jsonl'), 'abcdef');
    expect(tree.file(`${SPOOL}/records.jsonl`)?.size).toBe(6);
    expect(tree.read(`${SPOOL}/records.jsonl`, 2, 3)?.toString()).toBe('cde');
    expect(tree.read(`${SPOOL}/records.jsonl`, 4, 100)?.toString()).toBe('ef');
    expect(tree.readWhole(`${SPOOL}/records.jsonl`, 100)?.data.toString()).toBe('abcdef');
    expect(tree.readWhole(`${SPOOL}/records.jsonl`, 5)).toBeNull();
  });

  it.each<[string, () => string]>([
    ['a link to a file outside', () => {
      symlinkSync(join(outside, 'id_rsa'), join(plan, SPOOL, 'records.jsonl'));
      return `${SPOOL}/records.jsonl`;
    }],
    ['a file under a folder that is a link outside', () => {
      symlinkSync(outside, join(plan, '.swarm/spool/r1/b-g1'));
      return '.swarm/spool/r1/b-g1/records.jsonl';
    }],
    ['a relative link climbing out', () => {
      symlinkSync('../../../../../outside/id_rsa', join(plan, SPOOL, 'packet.yaml'));
      expect(readFileSync(join(plan, SPOOL, 'packet.yaml'), 'utf8')).toBe('SECRET KEY\n'); // the link does reach it
      return `${SPOOL}/packet.yaml`;
    }],
    ['a missing file', () => `${SPOOL}/none.jsonl`],
    ['a folder', () => SPOOL],
  ])('%s: nothing read', (_what, make) => {
    const path = make();
    expect(tree.file(path)).toBeNull();
    expect(tree.read(path, 0, 100)).toBeNull();
    expect(tree.readWhole(path, 100)).toBeNull();
  });

  it('a fifo: nothing read, and no wait for a writer', () => {
    execFileSync('mkfifo', [join(plan, SPOOL, 'fifo.jsonl')]);
    expect(tree.read(`${SPOOL}/fifo.jsonl`, 0, 10)).toBeNull();
  });

  it('a listing shows plain files and folders, no link', () => {
    writeFileSync(join(plan, SPOOL, 'records.jsonl'), '');
    mkdirSync(join(plan, SPOOL, 'usage'));
    symlinkSync(outside, join(plan, SPOOL, 'linked'));
    symlinkSync(join(outside, 'id_rsa'), join(plan, SPOOL, 'key'));
    expect(tree.list(SPOOL).sort((a, b) => a.name.localeCompare(b.name))).toEqual([{ name: 'records.jsonl', kind: 'file' }, { name: 'usage', kind: 'dir' }]);
    expect(tree.list(`${SPOOL}/linked`)).toEqual([]);
  });
});

describe('writing', () => {
  it('a whole file, atomically, its folders made, with its mode', () => {
    tree.write('.swarm/mailbox/lane-a.md', Buffer.from('hi\n'), 0o600);
    expect(readFileSync(join(plan, '.swarm/mailbox/lane-a.md'), 'utf8')).toBe('hi\n');
    expect(statSync(join(plan, '.swarm/mailbox/lane-a.md')).mode & 0o777).toBe(0o600);
  });

  it('over a link at its name: the link replaced, its target untouched', () => {
    symlinkSync(join(outside, 'id_rsa'), join(plan, SPOOL, 'packet.yaml'));
    tree.write(`${SPOOL}/packet.yaml`, Buffer.from('packet\n'), 0o644);
    expect(lstatSync(join(plan, SPOOL, 'packet.yaml')).isFile()).toBe(true);
    expect(readFileSync(join(outside, 'id_rsa'), 'utf8')).toBe('SECRET KEY\n');
  });

  it('under a folder that is a link: refused, nothing written outside', () => {
    symlinkSync(outside, join(plan, '.swarm/mailbox'));
    expect(() => tree.write('.swarm/mailbox/lane-a.md', Buffer.from('x'), 0o644)).toThrow();
    expect(existsSync(join(outside, 'lane-a.md'))).toBe(false);
    expect(readlinkSync(join(plan, '.swarm/mailbox'))).toBe(outside);
  });

  it('an append applies the other side\'s bytes: at the end, past an overlap, or asks again past a gap', () => {
    const path = `${SPOOL}/records.jsonl`;
    expect(tree.append(path, 0, Buffer.from('abc'))).toEqual({ do: 'append', skip: 0 });
    expect(tree.append(path, 1, Buffer.from('bcde'))).toEqual({ do: 'append', skip: 2 });
    expect(tree.append(path, 0, Buffer.from('ab'))).toEqual({ do: 'nothing' });
    expect(tree.append(path, 9, Buffer.from('z'))).toEqual({ do: 'resend', from: 5 });
    expect(readFileSync(join(plan, path), 'utf8')).toBe('abcde');
  });

  it('an append to a link, or under a folder that is one: refused, its target untouched', () => {
    symlinkSync(join(outside, 'records.jsonl'), join(plan, SPOOL, 'records.jsonl'));
    expect(() => tree.append(`${SPOOL}/records.jsonl`, 14, Buffer.from('more\n'))).toThrow();
    symlinkSync(outside, join(plan, '.swarm/spool/r1/b-g1'));
    expect(() => tree.append('.swarm/spool/r1/b-g1/records.jsonl', 14, Buffer.from('more\n'))).toThrow();
    expect(readFileSync(join(outside, 'records.jsonl'), 'utf8')).toBe('SECRET RECORD\n');
  });
});

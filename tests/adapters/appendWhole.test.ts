import { describe, expect, it } from 'vitest';
import { appendWhole, type AppendFile } from '../../src/adapters/appendWhole.js';
import { parseInboxChunk } from '../../src/core/protocol/inbox.js';

/**
 * A file in memory with a disk of `room` bytes; `between` lets another writer append at a chosen moment
 * of this writer's append (after its size check, after its write), as concurrent O_APPEND writers can.
 */
class MemoryFile implements AppendFile {
  data = Buffer.alloc(0);
  room = Infinity;
  failOverwrite = false;
  between: { afterCheck?: () => void; afterAppend?: () => void } = {};

  size(): number {
    return this.data.length;
  }
  read(at: number, length: number): Buffer {
    const bytes = Buffer.from(this.data.subarray(at, at + length));
    const after = this.between.afterCheck;
    delete this.between.afterCheck;
    after?.();
    return bytes;
  }
  append(bytes: Buffer): number {
    const n = Math.min(bytes.length, this.room);
    if (n === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    this.room -= n;
    this.data = Buffer.concat([this.data, bytes.subarray(0, n)]);
    const after = this.between.afterAppend;
    delete this.between.afterAppend;
    after?.();
    return n;
  }
  overwrite(at: number, bytes: Buffer): void {
    if (this.failOverwrite) throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    bytes.copy(this.data, at);
  }
  /** Another writer's whole line, landing at once. */
  other(text: string): void {
    this.data = Buffer.concat([this.data, Buffer.from(text)]);
  }
  text(): string {
    return this.data.toString();
  }
}

const rec = (text: string) => `${JSON.stringify({ kind: 'message', ts: '2026-01-01T00:00:00.000Z', from: 'lane-a', text })}\n`;
const shortWrite = { code: 'ENOSPC', path: '/p/inbox.jsonl' };
/** What a reader makes of the file. */
const texts = (file: MemoryFile) => parseInboxChunk(file.data).records.map((r) => (r as { text: string }).text);

describe('appendWhole', () => {
  it('appends a line in one write', () => {
    const f = new MemoryFile();
    appendWhole(f, rec('one'), '/p/inbox.jsonl');
    appendWhole(f, rec('two'), '/p/inbox.jsonl');
    expect(f.text()).toBe(rec('one') + rec('two'));
  });

  it('an empty line writes nothing (a probe of writability)', () => {
    const f = new MemoryFile();
    appendWhole(f, '', '/p/j');
    expect(f.text()).toBe('');
  });

  it('starts on a fresh line after a torn one', () => {
    const f = new MemoryFile();
    f.other('{"kind":"mess');
    appendWhole(f, rec('done'), '/p/inbox.jsonl');
    expect(f.text()).toBe(`{"kind":"mess\n${rec('done')}`);
    expect(texts(f)).toEqual(['done']);
  });

  it('a short write is blanked where it landed and refused as ENOSPC: the file holds no half record', () => {
    const f = new MemoryFile();
    f.other(rec('before'));
    f.room = 20;
    expect(() => appendWhole(f, rec('lost'), '/p/inbox.jsonl')).toThrow(expect.objectContaining(shortWrite));
    expect(f.text()).toBe(`${rec('before')}${' '.repeat(19)}\n`);
    f.room = Infinity;
    appendWhole(f, rec('done'), '/p/inbox.jsonl');
    expect(texts(f)).toEqual(['before', 'done']);
  });

  it('a record another writer appended right after the torn bytes is kept, and no longer glued', () => {
    const f = new MemoryFile();
    f.room = 20;
    f.between.afterAppend = () => f.other(rec('other'));
    expect(() => appendWhole(f, rec('lost'), '/p/inbox.jsonl')).toThrow(expect.objectContaining(shortWrite));
    expect(f.text()).toBe(`${' '.repeat(19)}\n${rec('other')}`);
    expect(texts(f)).toEqual(['other']);
  });

  it('a record glued to torn bytes (its writer checked the end just before they landed) is still read', () => {
    const f = new MemoryFile();
    f.other(rec('before'));
    f.between.afterCheck = () => f.other('{"kind":"message","ts":"2026-01-01T0');
    appendWhole(f, rec('b'), '/p/inbox.jsonl');
    expect(f.text()).toBe(`${rec('before')}{"kind":"message","ts":"2026-01-01T0${rec('b')}`);
    expect(texts(f)).toEqual(['before', 'b']);
  });

  it('an identical whole record of another writer is never blanked in place of the torn bytes', () => {
    const f = new MemoryFile();
    f.room = 20;
    f.between.afterAppend = () => f.other(`\n${rec('same')}`);
    f.other(rec('same'));
    expect(() => appendWhole(f, rec('same'), '/p/inbox.jsonl')).toThrow(expect.objectContaining(shortWrite));
    expect(texts(f)).toEqual(['same', 'same']);
  });

  it('when the torn bytes cannot be blanked either, the next record still starts on a fresh line', () => {
    const f = new MemoryFile();
    f.room = 20;
    f.failOverwrite = true;
    expect(() => appendWhole(f, rec('lost'), '/p/inbox.jsonl')).toThrow(expect.objectContaining(shortWrite));
    f.room = Infinity;
    appendWhole(f, rec('done'), '/p/inbox.jsonl');
    expect(f.text()).toBe(`${rec('lost').slice(0, 20)}\n${rec('done')}`);
  });
});

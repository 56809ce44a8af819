import { describe, expect, it } from 'vitest';
import { OutputRing } from '../../../src/adapters/pty/ring.js';

describe('OutputRing', () => {
  it.each([
    ['nothing pushed', 8, [], ''],
    ['an empty chunk', 8, [''], ''],
    ['whitespace only', 8, ['   ', '\t'], '   \t'],
    ['under the capacity', 8, ['ab', 'cd'], 'abcd'],
    ['exactly the capacity', 4, ['ab', 'cd'], 'abcd'],
    ['over the capacity: the oldest go', 4, ['abc', 'def'], 'cdef'],
    ['one chunk larger than the ring', 3, ['abcdefg'], 'efg'],
    ['many small chunks', 3, ['a', 'b', 'c', 'd', 'e'], 'cde'],
    ['multi-line', 14, ['line 1\n', 'line 2\n'], 'line 1\nline 2\n'],
    ['trailing spaces kept', 8, ['a  ', 'b  '], 'a  b  '],
    ['CRLF kept as sent', 4, ['x\r\n', 'y\r\n'], '\ny\r\n'],
    ['ANSI escapes kept as sent', 16, ['\x1b[31mRED\x1b[0m'], '\x1b[31mRED\x1b[0m'],
    ['upper case kept', 4, ['HELLO'], 'ELLO'],
    ['a surrogate pair cut at the front drops its low half', 3, ['a😀bc'], 'bc'],
    ['a surrogate pair cut across chunks', 3, ['a😀', 'bc'], 'bc'],
    ['a whole surrogate pair kept', 4, ['a😀bc'], '😀bc'],
  ])('%s', (_name, capacity: number, chunks: string[], expected: string) => {
    const ring = new OutputRing(capacity);
    for (const chunk of chunks) ring.push(chunk);
    expect(ring.text()).toBe(expected);
    expect(ring.length).toBe(expected.length);
    expect(ring.written).toBe(chunks.join('').length);
  });

  it('keeps the newest characters through many pushes, reading in between', () => {
    const ring = new OutputRing(10);
    let all = '';
    for (let i = 0; i < 5000; i += 1) {
      const chunk = `${i % 10}`.repeat((i % 3) + 1);
      ring.push(chunk);
      all += chunk;
      if (i % 777 === 0) expect(ring.text()).toBe(all.slice(-10));
    }
    expect(ring.text()).toBe(all.slice(-10));
    expect(ring.length).toBe(10);
    expect(ring.written).toBe(all.length);
  });

  it('clear forgets the kept output but not the count', () => {
    const ring = new OutputRing(4);
    ring.push('abcdef');
    ring.clear();
    expect(ring.text()).toBe('');
    expect(ring.length).toBe(0);
    expect(ring.written).toBe(6);
    ring.push('xy');
    expect(ring.text()).toBe('xy');
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('refuses capacity %s', (capacity) => {
    expect(() => new OutputRing(capacity)).toThrow(`ring capacity must be a positive integer, got ${String(capacity)}`);
  });
});

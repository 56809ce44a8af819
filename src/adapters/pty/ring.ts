/**
 * The last N characters of a pane's output, escapes and all: what an embedded pane keeps of its
 * history besides the rendered screen (tmux keeps `history-limit` lines; we keep a size).
 *
 * Chunks are stored as they arrive and trimmed from the front, so a push costs about the size of
 * the chunk, not the size of the ring. Sizes are in UTF-16 code units (the unit node-pty hands us);
 * the front is never cut between the two halves of a surrogate pair.
 */
export class OutputRing {
  readonly capacity: number;
  private chunks: string[] = [];
  private head = 0;
  private size = 0;
  private total = 0;

  /** @param capacity characters to keep, a positive integer. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`ring capacity must be a positive integer, got ${String(capacity)}`);
    }
    this.capacity = capacity;
  }

  /** Characters kept now (at most `capacity`). */
  get length(): number {
    return this.size;
  }

  /** Characters ever pushed, kept or not. */
  get written(): number {
    return this.total;
  }

  /** Append output; the oldest characters beyond the capacity are dropped. */
  push(chunk: string): void {
    if (chunk === '') return;
    this.total += chunk.length;
    if (chunk.length >= this.capacity) {
      this.chunks = [frontSafe(chunk.slice(chunk.length - this.capacity))];
      this.head = 0;
      this.size = this.chunks[0]?.length ?? 0;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.trim();
  }

  /** The kept output, oldest first. */
  text(): string {
    const joined = this.chunks.slice(this.head).join('');
    this.chunks = joined === '' ? [] : [joined];
    this.head = 0;
    return joined;
  }

  /** Forget everything kept (the `written` count stays). */
  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.size = 0;
  }

  private trim(): void {
    while (this.size > this.capacity) {
      const first = this.chunks[this.head] ?? '';
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.head += 1;
        this.size -= first.length;
        continue;
      }
      const kept = frontSafe(first.slice(excess));
      this.chunks[this.head] = kept;
      this.size -= first.length - kept.length;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}

/** Drop a leading low surrogate whose high half was cut away. */
function frontSafe(text: string): string {
  const code = text.charCodeAt(0);
  return code >= 0xdc00 && code <= 0xdfff ? text.slice(1) : text;
}

/**
 * Standard input read whole, as text (the status line and hook JSON). Read synchronously from fd 0:
 * creating `process.stdin` (a stream) costs a noticeable part of a fast-path cold start. A terminal
 * (or no stdin) gives '' at once.
 */
import { fstatSync, readSync } from 'node:fs';

export function readStdin(fd = 0): Promise<string> {
  let piped: boolean;
  try {
    const stat = fstatSync(fd);
    piped = stat.isFIFO() || stat.isFile() || stat.isSocket();
  } catch {
    piped = false;
  }
  if (!piped) return Promise.resolve('');
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue; // a non-blocking pipe not ready yet
      if ((error as NodeJS.ErrnoException).code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Promise.resolve(Buffer.concat(chunks).toString('utf8'));
}

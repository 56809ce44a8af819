/**
 * Colour forced on for the test file that imports this first, before Ink loads (chalk reads
 * FORCE_COLOR once, when it loads), and put back once the file's tests are done.
 */
import { afterAll } from 'vitest';

const previous = process.env.FORCE_COLOR;
process.env.FORCE_COLOR = '1';
afterAll(() => {
  if (previous === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = previous;
});

/** The command names as src/cli.ts and src/hot.ts define them (the keys of their `COMMANDS`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './swarm.js';

export function commandNames(file: 'cli.ts' | 'hot.ts'): string[] {
  const text = readFileSync(join(ROOT, 'src', file), 'utf8');
  const body = /const COMMANDS[^=]*=\s*\{([\s\S]*?)\n?\};/.exec(text)?.[1] ?? '';
  return file === 'hot.ts' ? body.split(',').map((s) => s.trim()).filter(Boolean) : [...body.matchAll(/^\s+(\w+): \{ load:/gm)].map((m) => m[1]!);
}

/** The command names as src/cli.ts defines them (the keys of its `COMMANDS`) and the fast path's (its entries, src/hot/<command>.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './swarm.js';

export function commandNames(file: 'cli.ts' | 'hot.ts'): string[] {
  if (file === 'hot.ts') return readdirSync(join(ROOT, 'src', 'hot')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();
  const text = readFileSync(join(ROOT, 'src', file), 'utf8');
  const body = /const COMMANDS[^=]*=\s*\{([\s\S]*?)\n?\};/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s+(\w+): \{ load:/gm)].map((m) => m[1]!);
}

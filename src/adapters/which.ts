/** Where a program is on PATH (tmux, ak, …), as `which` would say; null when it is not there. */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

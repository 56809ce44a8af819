/** `chattr +i|-i` on a path (root on ext4 here): true when it took; tests skip themselves where it does not. */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function chattr(flag: '+i' | '-i', path: string): boolean {
  try {
    execFileSync('chattr', [flag, path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether files can be made immutable here (a probe file in the working folder, set and unset). */
export function immutableFiles(): boolean {
  const probe = join(process.cwd(), `.chattr-probe-${process.pid}`);
  writeFileSync(probe, '');
  const ok = chattr('+i', probe) && chattr('-i', probe);
  rmSync(probe, { force: true });
  return ok;
}

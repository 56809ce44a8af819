/** `chattr +i|-i` on a path (root on ext4 here): true when it took; tests skip themselves where it does not. */
import { execFileSync } from 'node:child_process';

export function chattr(flag: '+i' | '-i', path: string): boolean {
  try {
    execFileSync('chattr', [flag, path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

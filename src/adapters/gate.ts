/** Run a lane's `done_when` gate in its checkout: pass or fail, with the output kept. */
import { execa } from 'execa';
import { spokenDuration } from '../core/duration.js';

export async function runGate(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 10 * 60_000): Promise<{ passed: boolean; output: string }> {
  const result = await execa('sh', ['-c', command], { cwd, env, reject: false, all: true, timeout: timeoutMs, stdin: 'ignore' });
  const output = (result.all ?? '').slice(-8000);
  if (result.timedOut) return { passed: false, output: `${output}\n(gate timed out after ${spokenDuration(timeoutMs)})` };
  return { passed: result.exitCode === 0, output };
}

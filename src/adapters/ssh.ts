/**
 * Run one ssh invocation (core/host/ssh.ts builds its argv) and keep what it said: exit code, stdout,
 * stderr, and whether it ran out of time. Time-bounded: past `timeoutMs` the ssh process is killed
 * (SIGKILL, only that process: the remote side ends with the connection). Never a prompt: stdin is
 * closed, and the argv says BatchMode.
 */
import { childProcess } from './childProcess.js';

export interface SshRun { code: number | null; stdout: string; stderr: string; timedOut: boolean }

/** What is kept of each stream: a probe prints a few hundred bytes; a banner may print more. */
const KEEP_BYTES = 64 * 1024;

/** `argv[0]` is the ssh program (a path); the rest its arguments. Resolves, never rejects. */
export function runSsh(argv: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<SshRun> {
  const [program, ...args] = argv;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const keep = (into: Buffer[]) => (chunk: Buffer): void => {
      if (into.reduce((n, b) => n + b.length, 0) < KEEP_BYTES) into.push(chunk);
    };
    let timedOut = false;
    const child = childProcess().spawn(program ?? 'ssh', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', keep(out));
    child.stderr.on('data', keep(err));
    const done = (code: number | null, extra = ''): void => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') + extra, timedOut });
    };
    child.on('error', (error) => done(null, `\n${error.message}`));
    child.on('close', (code) => done(code));
  });
}

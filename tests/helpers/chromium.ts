/**
 * A real headless browser for tests: Debian's `chromium`, driven over the DevTools protocol on
 * `--remote-debugging-pipe` (fd 3 in, fd 4 out, NUL-terminated JSON) — no npm dependency, no port.
 * One page; console errors, uncaught exceptions and error log entries (CSP violations among them)
 * are collected. `close()` ends only the browser this helper started (its process group).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { tempDir } from './swarm.js';

export function chromiumPath(): string | null {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found) return found;
  }
  return null;
}

interface Pending { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }

export interface Page {
  /** Navigate and wait for the load event. */
  open(url: string): Promise<void>;
  /** Evaluate an expression in the page; its value (JSON-able). */
  evaluate<T>(expression: string): Promise<T>;
  screenshot(): Promise<Buffer>;
  /** Run scripts or not (for reading the page as with JavaScript off). */
  scripts(enabled: boolean): Promise<void>;
  /** Console errors, exceptions and error log entries since the last open(). */
  errors: string[];
  close(): Promise<void>;
}

export async function openPage(options: { width?: number; height?: number } = {}): Promise<Page> {
  const binary = chromiumPath();
  if (!binary) throw new Error('chromium is not installed: apt-get install -y chromium (.ci/run does it)');
  const profile = tempDir('swarm-chromium-');
  const child: ChildProcess = spawn(binary, [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check', '--hide-scrollbars',
    '--disable-extensions', '--disable-background-networking', '--remote-debugging-pipe', `--user-data-dir=${profile.dir}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  child.stderr?.resume();
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const pending = new Map<number, Pending>();
  const listeners: Array<(m: Record<string, unknown>) => void> = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let end: number;
    while ((end = buffered.indexOf('\0')) >= 0) {
      const message = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
      buffered = buffered.slice(end + 1);
      const id = message.id as number | undefined;
      const waiting = id === undefined ? undefined : pending.get(id);
      if (waiting) {
        pending.delete(id!);
        if (message.error) waiting.reject(new Error(JSON.stringify(message.error)));
        else waiting.resolve((message.result ?? {}) as Record<string, unknown>);
      } else for (const l of listeners) l(message);
    }
  });
  let next = 0;
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve, reject });
      input.write(`${JSON.stringify({ id: next, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' }) as { targetId: string };
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true }) as { sessionId: string };
  const call = (method: string, params: Record<string, unknown> = {}) => send(method, params, sessionId);
  const errors: string[] = [];
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    const p = (m.params ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    if (m.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert')) {
      errors.push(`console.${p.type}: ${(p.args ?? []).map((a: { value?: unknown; description?: string }) => String(a.value ?? a.description)).join(' ')}`);
    }
    if (m.method === 'Runtime.exceptionThrown') errors.push(`exception: ${p.exceptionDetails?.exception?.description ?? p.exceptionDetails?.text}`);
    if (m.method === 'Log.entryAdded' && p.entry?.level === 'error') errors.push(`log: ${p.entry.text}`);
  });
  await call('Runtime.enable');
  await call('Log.enable');
  await call('Page.enable');
  await call('Emulation.setDeviceMetricsOverride', { width: options.width ?? 1280, height: options.height ?? 900, deviceScaleFactor: 1, mobile: false });
  const loaded = () => new Promise<void>((resolve) => {
    const l = (m: Record<string, unknown>) => {
      if (m.sessionId === sessionId && m.method === 'Page.loadEventFired') {
        listeners.splice(listeners.indexOf(l), 1);
        resolve();
      }
    };
    listeners.push(l);
  });
  return {
    errors,
    async open(url) {
      errors.length = 0;
      const done = loaded();
      await call('Page.navigate', { url });
      await done;
    },
    async evaluate<T>(expression: string) {
      const r = await call('Runtime.evaluate', { expression, returnByValue: true }) as { result: { value: T }; exceptionDetails?: unknown };
      if (r.exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(r.exceptionDetails)}`);
      return r.result.value;
    },
    async screenshot() {
      const r = await call('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false }) as { data: string };
      return Buffer.from(r.data, 'base64');
    },
    async scripts(enabled) {
      await call('Emulation.setScriptExecutionDisabled', { value: !enabled });
    },
    async close() {
      const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      try {
        await Promise.race([send('Browser.close'), new Promise((r) => setTimeout(r, 3000))]);
      } catch {
        // already going
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
      profile.cleanup();
    },
  };
}

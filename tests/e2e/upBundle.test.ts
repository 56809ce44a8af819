/**
 * `swarm up` to the first dashboard frame (issue 12 §6, target ≤ 1 s) depends on how little each of
 * its two processes loads: the `swarm up` on the terminal (it opens window 0 and attaches) and the
 * engine with the dashboard in window 0. Both run from the bundle dist/up/ (scripts/bundle-up.mjs):
 * the engine loads nothing outside it — no file of dist/, no package from node_modules, so React,
 * Ink, yoga and the copy of Ink's Output that ui/inkOutput.ts patches are the bundle's own — and the
 * terminal's `swarm up` never loads React, Ink or the engine. Every file each process loads is
 * recorded by a preloaded probe (tests/fixtures/frame/loadProbe.mjs, passed in NODE_OPTIONS, which
 * window 0 inherits).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import xterm from '@xterm/headless';
import type { IPty } from 'node-pty';
import { CLI, ROOT } from '../helpers/swarm.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';
import { waitFor } from '../helpers/waitFor.js';

const PROBE = join(ROOT, 'tests', 'fixtures', 'frame', 'loadProbe.mjs');
const BUNDLE = join(ROOT, 'dist', 'up');

let t: TestSwarm | null = null;
let pty: IPty | null = null;

afterEach(async () => {
  try {
    pty?.kill('SIGKILL');
  } catch {
    // already gone
  }
  pty = null;
  if (t) {
    try {
      execFileSync('tmux', ['-L', t.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // no server left
    }
    await t.cleanup();
  }
  t = null;
});

interface Loads {
  argv: string;
  files: string[];
}

/** What each probed process loaded, by pid. */
function readLoads(dir: string): Loads[] {
  return readdirSync(dir).map((name) => {
    const lines = readFileSync(join(dir, name), 'utf8').trim().split('\n');
    const argv = lines.find((l) => l.startsWith('argv '))?.slice(5) ?? '';
    const files = lines.filter((l) => !l.startsWith('argv ')).map((l) => {
      const at = l.slice(4);
      return at.startsWith('file:') ? fileURLToPath(at) : at;
    });
    return { argv, files: [...new Set(files)] };
  });
}

describe('swarm up runs from its bundle', () => {
  it('window 0 loads nothing outside dist/up; the terminal\'s swarm up loads neither React, Ink nor the engine', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', agent: { AGENT_G1: 'ready,sleep30000' } }] }));
    // A folder of this run's own: another run's probes (a shared /tmp/loads once) are not this one's.
    const probes = mkdtempSync(join(tmpdir(), 'swarm-loads-'));
    onTestFinished(() => rmSync(probes, { recursive: true, force: true }));
    const { spawn } = await import('node-pty');
    const env = { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', NODE_OPTIONS: `--import ${PROBE}`, LOAD_PROBE_DIR: probes };
    const term = new xterm.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
    pty = spawn(process.execPath, [CLI, 'up', s.file], { name: 'xterm-256color', cols: 120, rows: 40, cwd: s.root, env });
    pty.onData((data) => term.write(data));
    const header = () => term.buffer.active.getLine(0)?.translateToString(true) ?? '';
    await waitFor(() => header().startsWith('swarm e2e · plan '), { timeout: 45_000, what: 'the dashboard header on the terminal' });
    const loads = readLoads(probes);
    const engine = loads.find((l) => / up .* --dashboard/.test(` ${l.argv}`));
    const terminal = loads.find((l) => l.argv === `${CLI} up ${s.file}`);
    expect(engine, `window 0's engine among ${loads.map((l) => l.argv).join(' | ')}`).toBeDefined();
    expect(terminal).toBeDefined();
    for (const process of [engine!, terminal!]) {
      expect(process.files, process.argv).toContain(join(BUNDLE, 'cli.js'));
      expect(process.files.filter((f) => f !== CLI && f !== PROBE && !f.startsWith(`${BUNDLE}/`))).toEqual([]);
    }
    // React's element type and the bundle's yoga loader: only window 0 loads the chunks that hold them.
    const holds = (files: string[], text: string) => files.some((f) => f.endsWith('.js') && readFileSync(f, 'utf8').includes(text));
    expect(holds(engine!.files, 'react.transitional.element')).toBe(true);
    expect(holds(engine!.files, 'yoga.wasm')).toBe(true);
    expect(holds(terminal!.files, 'react.transitional.element')).toBe(false);
    expect(holds(terminal!.files, 'yoga.wasm')).toBe(false);
  });
});

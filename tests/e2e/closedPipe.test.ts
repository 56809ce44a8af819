/**
 * A closed pipe is no error: the built `swarm` with its stdout piped into a reader that stops early
 * (`swarm journal | head -1`, or a reader that closes before a byte is written) exits 0 and says
 * nothing on stderr, for the full CLI and for the agents' light bundles (dist/hot/*.cjs) alike.
 */
import { execa } from 'execa';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PANE, tempDir } from '../helpers/swarm.js';

let dir = '';
let cleanup = () => {};
let plan = '';

beforeAll(() => {
  ({ dir, cleanup } = tempDir('swarm-pipe-'));
  plan = join(dir, 'plans', 'p1');
  mkdirSync(plan, { recursive: true });
  writeFileSync(join(plan, 'PLAN.md'), '# Plan\n');
  // Far more than a pipe holds (64 KiB), so the writer is still writing when the reader goes.
  const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({
    ts: '2026-01-01T00:00:00.000Z', type: 'observation', event: 'note', lane: 'lane-a', generation: 1, epoch: 1, text: `line ${i} ${'x'.repeat(60)}`,
  }));
  writeFileSync(join(plan, 'journal.jsonl'), `${lines.join('\n')}\n`);
});
afterAll(() => cleanup());

const env = () => ({ PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', SWARM_PLAN: plan, SWARM_TMUX_SOCKET: 'swarm-pipe-never-started', SWARM_LANE: 'lane-a', SWARM_ROLE: 'lane', SWARM_ACCOUNT: 'a1', SWARM_GENERATION: '1' });

/** `swarm <args> | <reader>` in a real shell: the swarm's own exit code (PIPESTATUS) and its stderr. */
async function piped(args: string[], reader: string): Promise<{ code: number; stderr: string; read: string }> {
  // Under a stand-in pane recorded for lane-a (SPEC 10.3: an agent's command is known by its pane).
  const script = `node "$PANE" "$AGENT" "$NODE" "$CLI" "$@" 2>"$ERR" | ${reader}; echo "rc=\${PIPESTATUS[0]}" >"$RC"`;
  const err = join(dir, `err-${args[0]}-${Math.random().toString(36).slice(2)}`);
  const rc = `${err}.rc`;
  const r = await execa('bash', ['-c', script, 'piped', ...args], { env: { ...env(), CLI, PANE, NODE: process.execPath, AGENT: JSON.stringify({ plan, lane: 'lane-a', role: 'lane', generation: 1, account: 'a1', run: 1 }), ERR: err, RC: rc }, extendEnv: false, reject: false, cwd: dir });
  const code = Number(/rc=(\d+)/.exec(readFileSync(rc, 'utf8'))?.[1] ?? -1);
  return { code, stderr: readFileSync(err, 'utf8'), read: r.stdout };
}

describe('a closed pipe is no error', () => {
  it('swarm journal | head -1 prints one line and exits 0 quietly', async () => {
    const r = await piped(['journal'], 'head -1');
    expect(r.read).toMatch(/^00:00:00 lane-a g1 note text="line 0 x+"$/);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('swarm journal --follow | head -1 ends too, not waiting for the next event', async () => {
    const r = await piped(['journal', '--follow'], 'head -1');
    expect(r.read).toMatch(/^00:00:00 lane-a g1 note/);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });

  // `true` exits at once: the pipe is closed before swarm writes its first byte.
  it.each([
    ['help', ['help']],
    ['--version', ['--version']],
    ['journal (full CLI)', ['journal']],
    ['status --help (full CLI)', ['status', '--help']],
    ['notify --help (light bundle)', ['notify', '--help']],
    ['capacity --help (light bundle)', ['capacity', '--help']],
    ['capacity --self --json (light bundle)', ['capacity', '--self', '--json']],
  ])('swarm %s into a reader that is already gone exits 0 quietly', async (_name, args) => {
    const r = await piped(args, 'true');
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });
});

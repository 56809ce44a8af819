/**
 * The agents' fast path stays light (issue 9 §9): each of `swarm notify`, `capacity`, `statusline` and
 * `hook` runs from its own bundle, dist/hot/<command>.cjs, loading nothing but Node's built-ins —
 * no package (React, Ink, node-pty, execa, yaml), no other command's bundle, no ES module entry, and
 * not node:child_process unless it starts a process.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, tempDir } from './helpers/swarm.js';

const PROBE = join(ROOT, 'tests', 'fixtures', 'hot', 'loadProbe.cjs');

const cases: Array<[string, string[], string]> = [
  ['notify', ['notify', 'lead', 'plan ready'], ''],
  ['capacity', ['capacity', '--self', '--json'], ''],
  ['statusline', ['statusline'], JSON.stringify({ session_id: 's-1', context_window: { used_percentage: 5 } })],
  ['hook', ['hook', 'Stop'], JSON.stringify({ session_id: 's-1', hook_event_name: 'Stop', stop_hook_active: false })],
];

describe('the fast path', () => {
  it.each(cases)('swarm %s loads only its own bundle and built-ins', (name, args, input) => {
    const t = tempDir();
    try {
      const out = join(t.dir, 'loads.json');
      try {
        execFileSync('node', ['--require', PROBE, CLI, ...args], {
          input, stdio: ['pipe', 'ignore', 'ignore'],
          env: { PATH: process.env.PATH, HOME: t.dir, LOAD_PROBE_OUT: out, SWARM_PLAN: join(t.dir, 'plan'), SWARM_LANE: 'lane-a', SWARM_ACCOUNT: 'a1', SWARM_GENERATION: '1' },
        });
      } catch {
        // Outside a plan some commands refuse (exit 2); what they loaded to do so is what counts.
      }
      const { ids, files } = JSON.parse(readFileSync(out, 'utf8')) as { ids: string[]; files: string[] };
      expect(files.filter((f) => f !== PROBE).sort()).toEqual([CLI, join(ROOT, 'dist', 'hot', `${name}.cjs`)].sort());
      const loaded = ids.filter((id) => !id.startsWith('node:') && id !== CLI && !id.endsWith(`${name}.cjs`));
      expect(loaded).toEqual([]);
      // node:child_process alone costs ~6 ms of a ~36 ms start: loaded only when a process is started (`--then`, `ak`).
      expect(ids).not.toContain('node:child_process');
    } finally {
      t.cleanup();
    }
  });
});

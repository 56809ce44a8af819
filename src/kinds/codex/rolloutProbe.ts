/**
 * Codex's rollout, read for one lane's generation (SCREENS.md): the lane's
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` — the newest there until one is chosen — read on
 * from the offset saved in `.swarm/probes/<lane>-g<generation>.rollout.json` (kinds/codex/rollout.ts does the
 * reading). Reads only under CODEX_HOME; the saved state is swarm's own file.
 */
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../core/plan/paths.js';
import { readRollout, type RolloutState } from './rollout.js';
import { readSlice, readTextIfExists, writeFileAtomic } from '../../adapters/files.js';

interface Saved {
  path: string;
  state: RolloutState;
}

const MAX_CHUNK = 4 * 1024 * 1024;

function savedPath(plan: string, lane: string, generation: number): string {
  return join(planPaths(plan).swarmDir, 'probes', `${lane.replace(/[^A-Za-z0-9._-]/g, '_')}-g${generation}.rollout.json`);
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort().reverse();
  } catch {
    return [];
  }
}

/** The newest `rollout-*.jsonl` under `<home>/sessions` (latest day folder first, then by mtime). */
export function newestRollout(codexHome: string): string | null {
  const root = join(codexHome, 'sessions');
  for (const year of list(root)) {
    for (const month of list(join(root, year))) {
      for (const day of list(join(root, year, month))) {
        const dir = join(root, year, month, day);
        const files = list(dir).filter((f) => f.startsWith('rollout-') && f.endsWith('.jsonl'));
        if (files.length === 0) continue;
        const timed = files.map((f) => ({ path: join(dir, f), at: mtime(join(dir, f)) }));
        timed.sort((a, b) => b.at - a.at);
        return timed[0]!.path;
      }
    }
  }
  return null;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readFrom(path: string, offset: number): { text: string; from: number } | null {
  return readSlice(path, (size) => {
    const from = size < offset ? 0 : offset; // a rewritten file is read again from the start
    return { from, length: Math.min(size - from, MAX_CHUNK) };
  });
}

/** The lane's rollout state, read on from its saved offset (and saved again); null when there is no rollout. */
export function laneRollout(plan: string, lane: string, generation: number, codexHome: string | undefined, now: number): RolloutState | null {
  const file = savedPath(plan, lane, generation);
  let saved: Saved | null = null;
  try {
    const text = readTextIfExists(file);
    saved = text === null ? null : (JSON.parse(text) as Saved);
  } catch {
    saved = null;
  }
  const home = codexHome !== undefined && codexHome.trim() !== '' ? codexHome : join(homedir(), '.codex');
  const path = saved?.path ?? newestRollout(home);
  if (path === null) return null;
  const chunk = readFrom(path, saved?.state.offset ?? 0);
  if (chunk === null) return saved?.state ?? null;
  const previous = chunk.from === (saved?.state.offset ?? 0) ? saved?.state ?? null : null;
  const state = readRollout(chunk.text, chunk.from, previous, now);
  if (state.offset !== saved?.state.offset || saved.path !== path) {
    writeFileAtomic(file, `${JSON.stringify({ path, state } satisfies Saved)}\n`, 0o644, { durable: false });
  }
  return state;
}

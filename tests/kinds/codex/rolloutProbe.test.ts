import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { laneRollout, newestRollout } from '../../../src/kinds/codex/rolloutProbe.js';
import { codexProbe } from '../../../src/kinds/codex/probe.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'codex');
let dir: string;
let plan: string;
let home: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swarm-rollout-'));
  plan = join(dir, 'plan');
  home = join(dir, 'codex');
  mkdirSync(plan);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const day = (d: string): string => {
  const path = join(home, 'sessions', '2026', '11', d);
  mkdirSync(path, { recursive: true });
  return path;
};

describe('newestRollout', () => {
  it('none without a sessions folder', () => {
    expect(newestRollout(home)).toBeNull();
  });
  it('the latest day first, then the newest file there; other files ignored', () => {
    writeFileSync(join(day('29'), 'rollout-a.jsonl'), '');
    const older = join(day('30'), 'rollout-b.jsonl');
    const newer = join(day('30'), 'rollout-c.jsonl');
    writeFileSync(older, '');
    writeFileSync(newer, '');
    writeFileSync(join(day('30'), 'notes.txt'), '');
    utimesSync(older, new Date(), new Date(Date.now() + 60_000));
    expect(newestRollout(home)).toBe(older);
  });
});

describe('laneRollout', () => {
  it('reads on from the saved offset: a line still being written waits, appended lines are read', () => {
    const path = join(day('30'), 'rollout-x.jsonl');
    copyFileSync(join(FIXTURES, 'rollout-current.jsonl'), path); // ends in a torn line
    const first = laneRollout(plan, 'lane-a', 1, home, Date.now())!;
    expect(first.sessionId).toBe('019a9776-0a34-7842-8627-112b63d66e90');
    expect(first.offset).toBeLessThan(readFileSync(path).length);
    appendFileSync(path, '\n{"timestamp":"2026-11-30T07:30:00.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":93,"window_minutes":300,"resets_at":1796114187}}}}\n');
    const next = laneRollout(plan, 'lane-a', 1, home, Date.now())!;
    expect(next.offset).toBe(readFileSync(path).length);
    expect(next.reading.remainingPct).toBe(7);
    // Another, newer rollout (Codex's next session) does not take the lane's place once chosen.
    writeFileSync(join(day('30'), 'rollout-y.jsonl'), '{"type":"session_meta","payload":{"id":"other"}}\n');
    expect(laneRollout(plan, 'lane-a', 1, home, Date.now())!.sessionId).toBe(first.sessionId);
  });

  it('the codex probe: a usage-limit turn is critical with 0% left', () => {
    copyFileSync(join(FIXTURES, 'rollout-usage-limit.jsonl'), join(day('30'), 'rollout-z.jsonl'));
    const probed = codexProbe({ plan, account: 'o1', lane: 'lane-a', generation: 1, env: { CODEX_HOME: home } });
    expect(probed).toMatchObject({ cacheable: false, hardLimit: 'usage_limit', reading: { state: 'critical', remainingPct: 0 } });
  });
});

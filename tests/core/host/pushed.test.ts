import { describe, expect, it } from 'vitest';
import { isPushed } from '../../../src/core/host/pushed.js';

describe('what the engine copies to a host', () => {
  it.each([
    ['PLAN.md', true],
    ['lead.json', true],
    ['lead.json.123.1.tmp', false],
    ['.swarm/prompts/run-1/lane-b-g1.prompt.md', true],
    ['.swarm/agents/spools/r1/lane-b-g1.json', true],
    ['.swarm/mailbox/lane-b.md', true],
    ['.swarm/git-hooks/pre-push', true],
    ['analysis_results/handoff/lane-b-g1-20261206T193921Z-degraded.yaml', true],
    // an agent's packet: written there, never copied back
    ['analysis_results/handoff/lane-b-g1-20261206T193921Z.yaml', false],
    ['analysis_results/handoff/x/y-degraded.yaml', false],
    ['.swarm/spool/r1/lane-b-g1/records.jsonl', false],
    ['.swarm/state.json', false],
    ['.swarm/leases/a1.json', false],
    ['journal.jsonl', false],
    ['.swarm/promptsX/a', false],
    ['', false],
  ])('%j: %s', (path, expected) => {
    expect(isPushed(path)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { reduceSession, type Sessions } from '../../../src/core/swarm/sessions.js';

const known: Sessions = { 'lane-a': { generation: 2, sessionId: 's-2', transcriptPath: '/t/2.jsonl' } };
const ev = (over: Partial<Parameters<typeof reduceSession>[1]> = {}) => ({ lane: 'lane-a', generation: 2, sessionId: 's-3', transcriptPath: null, ...over });

describe('reduceSession', () => {
  it.each<[string, Sessions | undefined, ReturnType<typeof ev>, number, Sessions | undefined, number]>([
    ['none yet: recorded, saved', undefined, ev(), 2, { 'lane-a': { generation: 2, sessionId: 's-3', transcriptPath: null } }, 1],
    ['a new session of the current generation replaces the old', known, ev(), 2, { 'lane-a': { generation: 2, sessionId: 's-3', transcriptPath: null } }, 1],
    ['the same session heard again: nothing', known, ev({ sessionId: 's-2', transcriptPath: '/t/2.jsonl' }), 2, known, 0],
    ['an older generation\'s hook: ignored', known, ev({ generation: 1 }), 2, known, 0],
    ['no session id: ignored', known, ev({ sessionId: null }), 2, known, 0],
    ['a blank session id (spaces): ignored', known, ev({ sessionId: '  ' }), 2, known, 0],
    ['another lane: added beside', known, ev({ lane: 'lane-b', generation: 1 }), 1, { ...known, 'lane-b': { generation: 1, sessionId: 's-3', transcriptPath: null } }, 1],
  ])('%s', (_what, sessions, event, current, want, saves) => {
    const step = reduceSession(sessions, event, { currentGeneration: current });
    expect(step.sessions).toEqual(want);
    expect(step.effects).toHaveLength(saves);
  });
});

import { describe, expect, it } from 'vitest';
import { localPane, paneRef, paneTarget, parseServer, serverIdentity } from '../../../src/adapters/tmux/paneRef.js';

describe('pane ids that name their tmux server', () => {
  it('asks the session for its server pid and start time', () => {
    expect(serverIdentity('swarm-demo')).toEqual(['display-message', '-p', '-t', '=swarm-demo', '#{pid}.#{start_time}']);
  });

  it.each([
    ['4567.1716400000', '4567.1716400000'],
    ['4567.1716400000\r', '4567.1716400000'],
    ['  4567.1716400000  ', '4567.1716400000'],
    ['', null],
    [undefined, null],
    ['4567.', null],
    ['\u001b[1m4567.1\u001b[0m', null],
    ['4567.1\n4568.2', null],
  ])('parseServer(%j) → %j', (line, expected) => {
    expect(parseServer(line)).toBe(expected);
  });

  it.each<[string, string | null, string | null]>([
    ['%3/4567.100', '4567.100', '%3'],
    ['%3/4567.100', '4568.100', null],
    ['%3/4567.100', '4567.101', null],
    ['%3/4567.100', null, null],
    ['%3', '4567.100', null],
    ['pty-1', '4567.100', null],
    ['', '4567.100', null],
    ['%3/4567.100/x', '4567.100', null],
  ])('localPane(%j, server %j) → %j', (ref, server, expected) => {
    expect(localPane(ref, server)).toBe(expected);
  });

  it('round-trips, and paneTarget keeps tmux\'s id whatever the server', () => {
    expect(localPane(paneRef('%12', '1.2'), '1.2')).toBe('%12');
    expect(paneTarget(paneRef('%12', '1.2'))).toBe('%12');
    expect(paneTarget('%12')).toBe('%12');
  });
});

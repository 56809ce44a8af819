import { describe, expect, it } from 'vitest';
import { hostPane, paneHost } from '../../../src/core/host/panes.js';
import { RECONNECT_AT_MS, nextReconnect } from '../../../src/core/host/reconnect.js';

describe('pane ids of other hosts', () => {
  it.each([
    ['box:%3/123.456', { host: 'box', ref: '%3/123.456' }],
    ['gpu-1.lan:%0/1.2', { host: 'gpu-1.lan', ref: '%0/1.2' }],
    ['%3/123.456', null], // this machine's tmux pane
    ['pty-1/abc', null], // this machine's pty pane
    ['', null],
    [':%3/1.2', null],
    ['-box:%3/1.2', null],
    ['box:', null],
    ['b x:%3/1.2', null],
  ])('%j names %j', (id, expected) => {
    expect(paneHost(id)).toEqual(expected);
  });

  it('hostPane and paneHost are inverse', () => {
    expect(paneHost(hostPane('box', '%12/99.1'))).toEqual({ host: 'box', ref: '%12/99.1' });
  });
});

describe('reconnecting to a host', () => {
  it('tries at once, after 5 s and after 15 s: three tries within 30 s, then the host is lost', () => {
    expect([0, 1, 2, 3].map(nextReconnect)).toEqual([0, 5_000, 15_000, null]);
    expect(RECONNECT_AT_MS.length).toBe(3);
    expect(Math.max(...RECONNECT_AT_MS)).toBeLessThan(30_000);
  });
});

/**
 * Colour, with chalk forced on (forceColor.ts): the capacity line is coloured by
 * its state — ok green, low yellow, critical red, unknown grey — and `color={false}` (NO_COLOR)
 * leaves every colour out while the text stays the same.
 */
import './forceColor.js';
import { describe, expect, it } from 'vitest';

const { render } = await import('ink-testing-library');
const { App } = await import('../../src/ui/App.js');
const { frameStore, lane, view } = await import('./views.js');

/* eslint-disable no-control-regex -- escape codes are what these look for */
const COLOURS = /\u001b\[(?:3[0-9]|9[0-7]|4[0-9])m/;
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
/* eslint-enable no-control-regex */
const swarm = view([
  lane('lane-a', { capacity: 'capacity=ok 80% @o1', capacityState: 'ok' }),
  lane('lane-b', { capacity: 'capacity=low 20% @o2', capacityState: 'low' }),
  lane('lane-c', { capacity: 'capacity=critical 5% @o3', capacityState: 'critical' }),
  lane('lane-d', { capacity: 'capacity=unknown @o4', capacityState: 'unknown' }),
]);
const draw = (color: boolean) => {
  const r = render(<App frames={frameStore(swarm)} actions={{ focusPane: () => undefined, detach: () => undefined }} color={color} size={{ columns: 100, rows: 12 }} />);
  const frame = r.lastFrame()!;
  r.unmount();
  return frame;
};

describe('colour', () => {
  it.each([
    ['ok: green', 'capacity=ok 80% @o1', 32],
    ['low: yellow', 'capacity=low 20% @o2', 33],
    ['critical: red', 'capacity=critical 5% @o3', 31],
    ['unknown: grey', 'capacity=unknown @o4', 90],
  ])('the capacity line, %s', (_name, text, code) => {
    expect(draw(true)).toContain(`\u001b[${code}m${text}`);
  });

  it('NO_COLOR: no colour at all, the same text', () => {
    const frame = draw(false);
    expect(frame).not.toMatch(COLOURS);
    expect(plain(frame)).toBe(plain(draw(true)));
  });
});

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BUSY, READY, Screen, texts } from '../../src/sim/screen.js';

const kind = parse(readFileSync(new URL('../../panes/sim.yaml', import.meta.url), 'utf8')) as {
  idle: { not_showing: string[] };
  screens: Record<string, string[]>;
  context_left: string[];
};
const matches = (patterns: string[], text: string) => patterns.some((p) => new RegExp(p, 'i').test(text));

/** What a terminal shows: `\r` + erase-line wipes the line being written. */
function render(output: string): string[] {
  const lines: string[] = [''];
  for (const c of output.replaceAll('\r\u001b[2K', '\u0000')) {
    if (c === '\n') lines.push('');
    else if (c === '\u0000') lines[lines.length - 1] = '';
    else lines[lines.length - 1] += c;
  }
  return lines;
}

describe('Screen', () => {
  it('keeps the busy status last while working and erases it when idle', () => {
    let out = '';
    const screen = new Screen((t) => (out += t));
    screen.working();
    screen.line('[sim] step 1');
    expect(render(out)).toEqual(['[sim] step 1', BUSY]);
    screen.line('[sim] step 2');
    expect(render(out)).toEqual(['[sim] step 1', '[sim] step 2', BUSY]);
    screen.idle();
    expect(render(out)).toEqual(['[sim] step 1', '[sim] step 2', READY, '']);
    expect(matches(kind.idle.not_showing, render(out).join('\n'))).toBe(false);
  });

  it('prints ready once per idle turn, and lines without the status when idle', () => {
    let out = '';
    const screen = new Screen((t) => (out += t));
    screen.idle();
    screen.idle();
    screen.line('[sim] note');
    screen.idle();
    expect(out).toBe(`${READY}\n[sim] note\n${READY}\n`);
  });

  it('quiet erases the status and shows nothing more', () => {
    let out = '';
    const screen = new Screen((t) => (out += t));
    screen.working();
    screen.quiet();
    screen.line('box');
    expect(render(out)).toEqual(['box', '']);
  });

  it('the busy status is what panes/sim.yaml calls not idle', () => {
    expect(matches(kind.idle.not_showing, BUSY)).toBe(true);
    expect(matches(kind.idle.not_showing, READY)).toBe(false);
  });
});

describe('the screens match panes/sim.yaml', () => {
  it.each([
    ['usage_limit', texts.usageLimit],
    ['near_limit', texts.nearLimit(80)],
    ['permission', texts.permission('step 2: run make').join('\n')],
  ])('%s', (screen, text) => {
    expect(matches(kind.screens[screen] ?? [], text)).toBe(true);
    for (const [other, patterns] of Object.entries(kind.screens)) {
      if (other !== screen) expect(matches(patterns, text)).toBe(false);
    }
  });

  it('the permission box offers `❯ 1. Yes` and stays one width', () => {
    const box = texts.permission('x'.repeat(200));
    expect(box.some((l) => l.includes('❯ 1. Yes'))).toBe(true);
    expect(new Set(box.map((l) => [...l].length)).size).toBe(1);
  });

  it('context low carries the % remaining', () => {
    const text = texts.contextLow(38);
    expect(text).toBe('[sim] Context low (38% remaining)');
    expect(new RegExp(kind.context_left[0] ?? '', 'i').exec(text)?.[1]).toBe('38');
  });

  it('the usage-limit text is exact', () => {
    expect(texts.usageLimit).toBe('[sim] You\'ve hit your session limit · resets 3:45pm');
  });
});

/**
 * The dashboard through both output stages: every frame of these views drawn by Ink's own Output and
 * by `frameText` shows the same cells on a terminal emulator, and `frameText` draws every one of them
 * (a dashboard frame left to Ink would be the slow path) from texts Ink laid out as placeholders.
 * Colour is forced on (forceColor.ts) so styles are compared too.
 */
import './forceColor.js';
import xterm from '@xterm/headless';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Phase } from '../../src/machine/types.js';

const { EventEmitter } = await import('node:events');
const { render } = await import('ink');
const { App } = await import('../../src/ui/App.js');
const { frameText, inkOutput } = await import('../../src/ui/inkOutput.js');
const { NOW, entry, frameStore, lane, view } = await import('./views.js');

type Found = Exclude<Awaited<ReturnType<typeof inkOutput>>, string>;
let ink: Found;
beforeAll(async () => {
  const found = await inkOutput();
  if (typeof found === 'string') throw new Error(found);
  ink = found;
});

const PHASES: (Phase | null)[] = [null, 'near', 'writing', 'reported', 'spawning', 'accepted', 'rejected', 'waiting', 'degraded', 'stopped'];
const STATES = ['starting', 'working', 'blocked', 'done', 'lost', 'stopped'] as const;

function lanes(count: number) {
  return Array.from({ length: count }, (_, i) => lane(`lane-${String(i).padStart(2, '0')}`, {
    state: STATES[i % STATES.length]!, generation: 1 + (i % 3), phase: PHASES[i % PHASES.length] ?? null, phaseSince: NOW - 7_000 * i,
    capacity: i % 5 === 0 ? null : `capacity=${['ok', 'low', 'critical', 'unknown'][i % 4]} ${90 - i}% @o${i} context=${i}%`,
    capacityState: (["ok", "low", "critical", "unknown"] as const)[i % 4]!, contextPct: i % 7 === 0 ? null : (i * 13) % 100,
    last: i % 4 === 0 ? null : `PR ready — 漢字 ✓ https://example.com/pr/${i}`,
    blocked: i % 6 === 2 ? { class: 'permission', what: 'Bash command: Do you want to proceed?', source: 'screen' } : null,
  }, i % 2 ? 'openai' : 'anthropic'));
}

const events = Array.from({ length: 14 }, (_, i) => entry(i % 3 ? 'capacity_verdict' : 'handoff_reported', `lane-0${i % 9}`, { decision: 'continue', path: '/repo/plans/demo/analysis_results/handoff/x.yaml' }));

/** One frame of the App on a terminal of this size, drawn with `get` as the Output's. */
function draw(swarm: ReturnType<typeof view>, columns: number, rows: number, get: (this: never) => unknown, reader = false): string {
  const proto = ink.Output.prototype as { get: unknown };
  const before = proto.get;
  proto.get = get;
  let last = '';
  const stdout = Object.assign(new EventEmitter(), { columns, rows, write: (text: string) => ((last = text), true) });
  const stdin = Object.assign(new EventEmitter(), { isTTY: false, setRawMode() {}, setEncoding() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });
  try {
    const app = render(<App frames={frameStore(swarm)} actions={{ focusPane: () => undefined, detach: () => undefined }} color />, {
      stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: true, patchConsole: false, exitOnCtrlC: false,
      isScreenReaderEnabled: reader,
    });
    // The frame as first drawn: on unmount Ink writes once more (under CI, its last output or nothing).
    const frame = last;
    app.unmount();
    return frame;
  } finally {
    proto.get = before;
  }
}

async function screen(text: string, columns: number, rows: number): Promise<string[]> {
  const term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(text.replaceAll('\n', '\r\n'), resolve));
  const cell = term.buffer.active.getNullCell();
  const out: string[] = [];
  for (let y = 0; y < rows; y += 1) {
    const line = term.buffer.active.getLine(y)!;
    for (let x = 0; x < columns; x += 1) {
      line.getCell(x, cell);
      out.push(`${y}:${x}:${cell.getChars() || ' '}:${cell.getFgColor()}:${cell.getFgColorMode()}:${cell.isBold()}:${cell.isDim()}`);
    }
  }
  term.dispose();
  return out;
}

describe('the dashboard drawn by frameText and by Ink', () => {
  it.each([
    [64, 120, 40, true], [64, 200, 80, true], [64, 80, 24, true], [6, 60, 20, true], [12, 100, 14, true],
    // Narrower than the columns' floors: Ink squeezes the row (overlapping texts), and draws it itself.
    [3, 40, 12, false],
  ])('%i lanes at %i×%i: the same cells (all drawn by frameText: %s)', async (count, columns, rows, fast) => {
    const swarm = view(lanes(count), { events, outcome: count === 3 ? { code: 0, why: 'plan done' } : null });
    const byInk = draw(swarm, columns, rows, ink.inkGet as never);
    let declined = 0;
    const laidOut = new Set<string>();
    const byFrameText = draw(swarm, columns, rows, function get(this: Parameters<typeof frameText>[0]) {
      for (const op of this.operations) if (op.type === 'write') laidOut.add(op.text);
      const frame = frameText(this);
      if (frame !== null) return frame;
      declined += 1;
      return ink.inkGet.call(this);
    } as never);
    if (fast) {
      expect(declined).toBe(0);
      // Ink laid out and measured placeholders only (components/Line.tsx): nothing it would keep.
      expect([...laidOut].filter((text) => !/^\.+$/.test(text))).toEqual([]);
    }
    expect(byFrameText.split('\n').length).toBeLessThan(rows);
    expect(byFrameText).toContain('lane-0');
    expect(await screen(byFrameText, columns, rows)).toEqual(await screen(byInk, columns, rows));
  });

  it('a screen reader is given the lines themselves, not placeholders', () => {
    const said = draw(view(lanes(3), { events }), 100, 20, ink.inkGet as never, true);
    expect(said).toContain('lane-00');
    expect(said).toContain('capacity=low 89% @o1');
    expect(said).not.toMatch(/\.{6}/);
  });
});

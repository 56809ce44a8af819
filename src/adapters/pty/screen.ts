/**
 * What an embedded pane shows: its output fed into a headless xterm of the pane's size, read back
 * as plain text (no escapes). `@xterm/headless` is loaded lazily, like node-pty.
 */
import type { Terminal } from '@xterm/headless';
import { DependencyError } from '../../errors.js';

export interface ScreenSize {
  cols: number;
  rows: number;
  /** Lines kept above the visible rows. */
  scrollback: number;
}

type TerminalClass = typeof Terminal;

export const XTERM_MISSING =
  '@xterm/headless is not installed — reinstall swarm (npm install), or install tmux and set backend: tmux';

let loading: Promise<TerminalClass> | undefined;

/** Load `@xterm/headless` once (a CommonJS bundle: its class sits on the default export). */
export function loadTerminal(): Promise<TerminalClass> {
  loading ??= import('@xterm/headless')
    .then((mod: unknown) => {
      const m = mod as { Terminal?: TerminalClass; default?: { Terminal?: TerminalClass } };
      const found = m.Terminal ?? m.default?.Terminal;
      if (typeof found !== 'function') throw new TypeError('@xterm/headless exports no Terminal');
      return found;
    })
    .catch((cause: unknown) => {
      loading = undefined;
      throw new DependencyError(XTERM_MISSING, { cause });
    });
  return loading;
}

/** One pane's screen. Feed it every chunk of output; read it back on demand. */
export class Screen {
  private constructor(private readonly term: Terminal) {}

  /** A blank screen of the given size. */
  static async create(size: ScreenSize): Promise<Screen> {
    const TerminalClass = await loadTerminal();
    return new Screen(new TerminalClass({ ...size, allowProposedApi: true }));
  }

  /** Output of the pane's program, escapes and all. */
  write(data: string): void {
    this.term.write(data);
  }

  /**
   * What the terminal answers the program (cursor-position and device-attribute reports): the
   * host writes it back to the program, as a real terminal would, so TUIs that ask do not hang.
   */
  onReply(listener: (data: string) => void): () => void {
    const disposable = this.term.onData(listener);
    return () => disposable.dispose();
  }

  /** Resolves once everything written so far is parsed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /**
   * The visible rows plus up to `history` rows of scrollback, one line per row, trailing spaces
   * and trailing blank rows dropped.
   */
  async text(history = 0): Promise<string> {
    await this.flush();
    const buffer = this.term.buffer.active;
    const start = Math.max(0, buffer.baseY - Math.max(0, Math.floor(history)));
    const end = Math.min(buffer.length, buffer.baseY + this.term.rows);
    const lines: string[] = [];
    for (let y = start; y < end; y += 1) lines.push((buffer.getLine(y)?.translateToString(true) ?? '').trimEnd());
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /**
   * The visible screen as logical lines (rows the terminal wrapped are joined) with the cursor
   * position: two equal snapshots mean nothing on the screen moved.
   */
  async snapshot(): Promise<{ cursor: string; lines: string[] }> {
    await this.flush();
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = buffer.baseY; y < buffer.baseY + this.term.rows; y += 1) {
      const line = buffer.getLine(y);
      const text = line?.translateToString(false) ?? '';
      if (line?.isWrapped === true && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    const cursor = `${buffer.baseY + buffer.cursorY}:${buffer.cursorX}`;
    return { cursor, lines: lines.map((text) => text.trimEnd()) };
  }

  dispose(): void {
    this.term.dispose();
  }
}

/** Render output once into a fresh screen and read it back (for kept output, e.g. a ring). */
export async function renderText(output: string, size: ScreenSize, history = 0): Promise<string> {
  const screen = await Screen.create(size);
  try {
    screen.write(output);
    return await screen.text(history);
  } finally {
    screen.dispose();
  }
}

/**
 * Whether a typed line still sits on the screen: the end of the line (its last 24 characters,
 * so a line the input box wrapped still matches) appears on one of the logical lines.
 */
export function showsLine(lines: readonly string[], line: string): boolean {
  const needle = line.trim().slice(-24).trim();
  return needle !== '' && lines.some((row) => row.includes(needle));
}

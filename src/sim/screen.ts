/**
 * What the simulated agent shows in its pane. It uses Claude Code's wording prefixed with `[sim] `,
 * so panes/sim.yaml's screens and idle signal exercise the same rules as a real agent.
 *
 * While it works, the last line reads `[sim] esc to interrupt` (a status line, erased before any
 * other output); when its turn ends that line is erased and `[sim] ready` printed, so an idle pane
 * never shows the busy text.
 */
export const BUSY = '[sim] esc to interrupt';
export const READY = '[sim] ready';
const ERASE_LINE = '\r\u001b[2K';

export const texts = {
  banner: (lane: string, generation: number, account: string, role: string) => `[sim] ${lane} g${generation} @${account} (${role}): simulated agent, no network`,
  usageLimit: '[sim] You\'ve hit your session limit · resets 3:45pm',
  nearLimit: (usedPct: number) => `[sim] You've used ${Math.round(usedPct)}% of your session limit`,
  contextLow: (remainingPct: number) => `[sim] Context low (${Math.round(remainingPct)}% remaining)`,
  permission: (command: string): string[] => {
    const width = 58;
    const row = (text: string) => `│ ${text.padEnd(width - 4)} │`;
    return [
      `╭${'─'.repeat(width - 2)}╮`,
      row('Bash command'),
      row(`  ${command.length > width - 8 ? `${command.slice(0, width - 9)}…` : command}`),
      row(''),
      row('[sim] Do you want to proceed?'),
      row('❯ 1. Yes'),
      row('  2. Yes, and don\'t ask again for this command'),
      row('  3. No, and tell the agent what to do differently'),
      `╰${'─'.repeat(width - 2)}╯`,
    ];
  },
  stopped: (why: string) => `[sim] stopped: ${why}. This pane stays open; it does no more work.`,
};

/** Writes the sim's screen: lines, and the busy status line kept last while working. */
export class Screen {
  private busy = false;
  private shown = false;
  private ready = false;

  constructor(private readonly write: (text: string) => void) {}

  /** Print a line (above the busy status, when it shows). */
  line(text: string): void {
    this.erase();
    this.write(`${text}\n`);
    this.ready = false;
    this.show();
  }

  /** Working: show `[sim] esc to interrupt` as the last line. */
  working(): void {
    this.busy = true;
    this.ready = false;
    this.show();
  }

  /** The turn ended: erase the busy status and print `[sim] ready` on a fresh line. */
  idle(): void {
    this.busy = false;
    this.erase();
    if (this.ready) return;
    this.write(`${READY}\n`);
    this.ready = true;
  }

  /** Erase the busy status without printing anything (before a screen that must stay as drawn). */
  quiet(): void {
    this.busy = false;
    this.erase();
  }

  private show(): void {
    if (this.busy && !this.shown) {
      this.write(BUSY);
      this.shown = true;
    }
  }

  private erase(): void {
    if (this.shown) {
      this.write(ERASE_LINE);
      this.shown = false;
    }
  }
}

/**
 * Typing one line into a tmux pane so that it lands: leave copy mode, paste the text, then Enter as
 * its own step, and see the screen change (an agent busy drawing may drop a key). Deadlines, not
 * polls: each Enter waits for the pane's next output or ENTER_CONFIRM_MS.
 */
import * as tmux from './argv.js';
import { isGoneError } from './runner.js';

const ENTER_AFTER_MS = 120;
const ENTER_CONFIRM_MS = 500;
const ENTER_TRIES = 3;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What typing needs of the host: run a tmux command, and wait for a pane's next output. */
export interface TypingPane {
  exec(argv: readonly string[]): Promise<string[]>;
  nextOutput(paneId: string, ms: number): Promise<void>;
}

/** One line: leave copy mode, paste, Enter as its own step, and see the screen take it. */
export async function typeInto(pane: TypingPane, paneId: string, line: string): Promise<boolean> {
  const state = tmux.parsePaneState(paneId, (await pane.exec(tmux.paneState(paneId)))[0]);
  if (!state || state.dead) return false;
  if (state.inMode) await pane.exec(tmux.cancelMode(paneId));
  if (line !== '') {
    const buffer = tmux.bufferName(paneId);
    await pane.exec(tmux.setBuffer(buffer, line));
    await pane.exec(tmux.pasteBuffer(buffer, paneId));
    await delay(ENTER_AFTER_MS);
  }
  for (let attempt = 0; attempt < ENTER_TRIES; attempt += 1) {
    const before = await snapshot(pane, paneId);
    if (before === null) return false;
    const output = pane.nextOutput(paneId, ENTER_CONFIRM_MS);
    await pane.exec(tmux.sendEnter(paneId));
    await output;
    const after = await snapshot(pane, paneId);
    if (after !== before) return true;
  }
  return false;
}

/** The visible screen and the cursor; null once the pane is gone or dead (a pane that dies on Enter took it). */
async function snapshot(pane: TypingPane, paneId: string): Promise<string | null> {
  const state = tmux.parsePaneState(paneId, (await pane.exec(tmux.paneState(paneId)).catch(() => []))[0]);
  if (!state || state.dead) return null;
  return `${state.cursor}\n${(await pane.exec(tmux.capturePane(paneId))).join('\n')}`;
}

/** Who waits for a pane's next output: `fire` on each `%output`, `next` resolves on it or at a deadline. */
export class OutputWaiters {
  private readonly waiters = new Map<string, Set<() => void>>();

  fire(paneId: string): void {
    for (const waiter of [...(this.waiters.get(paneId) ?? [])]) waiter();
  }

  /** Resolves on the pane's next output, or after `ms` (a deadline, not a poll). */
  next(paneId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiters.get(paneId) ?? new Set<() => void>();
      this.waiters.set(paneId, waiters);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.waiters.delete(paneId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }
}

/** One line at a time per pane: a line typed while another is landing waits for it (a gone pane is false). */
export class TypingQueues {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly pane: TypingPane) {}

  type(paneId: string, line: string): Promise<boolean> {
    const previous = this.queues.get(paneId) ?? Promise.resolve();
    const next = previous.then(() => typeInto(this.pane, paneId, line)).catch((error: unknown) => {
      if (isGoneError(error)) return false;
      throw error;
    });
    const tail = next.catch(() => undefined);
    this.queues.set(paneId, tail);
    void tail.then(() => { if (this.queues.get(paneId) === tail) this.queues.delete(paneId); });
    return next;
  }
}

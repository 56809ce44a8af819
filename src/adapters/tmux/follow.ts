/**
 * A read-only look at a running swarm's tmux session, for `swarm logs --follow`: its own control-mode
 * client tells which panes printed, when panes come, go or die, and when the session ends; panes are
 * listed and captured over the same connection. It types nothing, sets nothing in the session and
 * never starts one: a session that does not exist is none to watch (null).
 */
import { ControlClient } from './control.js';
import { capturePane, listPanes, parsePaneList } from './argv.js';
import { PANES_CHANGED } from './vanished.js';
import { hasSession } from './argv.js';
import { runTmux } from './runner.js';
import type { PaneInfo } from '../host.js';

export interface SessionWatch {
  /** Panes carrying swarm identity, with this server's own ids (`%5`). */
  list(): Promise<PaneInfo[]>;
  capture(paneId: string, history: number): Promise<string>;
  close(): Promise<void>;
}

export interface SessionWatchHandlers {
  printed(paneIds: ReadonlySet<string>): void;
  /** A pane came, went or died. */
  changed(): void;
  /** The connection ended (the session or its server is gone, or close() was called: `expected`). */
  ended(reason: string, expected: boolean): void;
}

/** Panes added: a successor's pane may come in a new window. */
const ADDED = new Set(['window-add', 'layout-change']);

/** How long a watch keeps trying to attach to a session that exists (a loaded machine can be slow to). */
const ATTACH_DEADLINE_MS = 20_000;

/**
 * The session watched, or null when it does not exist. An attach that fails while the session is
 * there (slow under load) is tried again until ATTACH_DEADLINE_MS, then its error is thrown: a swarm
 * that runs is never reported as none.
 */
export async function watchSession(socket: string, session: string, handlers: SessionWatchHandlers): Promise<SessionWatch | null> {
  const deadline = Date.now() + ATTACH_DEADLINE_MS;
  for (;;) {
    try {
      return await attach(socket, session, handlers);
    } catch (error) {
      const exists = await runTmux(socket, hasSession(session)).then(() => true, () => false);
      if (!exists) return null;
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function attach(socket: string, session: string, handlers: SessionWatchHandlers): Promise<SessionWatch> {
  // Nothing is told until the watch is handed over: a failed attempt's close is no end of the session
  // (the caller tries again), and what changes while it attaches is seen by the caller's first look.
  let live = false;
  const control = await ControlClient.connect({ socket, session }, {
    onRead: (printed) => {
      if (live && printed.size > 0) handlers.printed(printed);
      return false;
    },
    onSubscription: () => {
      if (live) handlers.changed();
    },
    onNotification: (name) => {
      if (live && (PANES_CHANGED.has(name) || ADDED.has(name))) handlers.changed();
    },
    onClose: (reason, expected) => {
      if (live) handlers.ended(reason, expected);
    },
  });
  live = true;
  return {
    list: async () => parsePaneList(await control.command(listPanes(session))),
    capture: async (paneId, history) => {
      const lines = await control.command(capturePane(paneId, history));
      return lines.join('\n');
    },
    close: () => control.close(),
  };
}

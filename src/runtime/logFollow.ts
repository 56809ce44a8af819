/**
 * `swarm logs <lane> --follow`: a lane's panes as they print, from their scrollback on, every
 * generation as it comes (a successor's pane is followed from its first line). Driven by the session's
 * own events (adapters/tmux/follow.ts), never by polling: a pane that printed is captured again and
 * only its new lines are written (core/screens/follow.ts). Lines of another pane than the last one
 * written come under a header, as `tail -f` does for several files (`==> lane-a g2 @o1 <==`). It
 * ends when the session ends, when the one generation asked for has ended, or on Ctrl-C.
 */
import { FOLLOW_START, followStep, type Follow } from '../core/screens/follow.js';
import type { PaneInfo } from '../adapters/host.js';
import { watchSession, type SessionWatch } from '../adapters/tmux/follow.js';

/** Scrollback read at a pane's first capture; later captures read less (the anchor is near their end). */
const FIRST_HISTORY = 5000;
const HISTORY = 1000;

export interface FollowOptions {
  socket: string;
  session: string;
  /** The names the lane's agents go by (a lead's successors may go by another name). */
  names: ReadonlySet<string>;
  /** Follow only this generation (ends when its pane has); null: every generation. */
  generation: number | null;
  write: (text: string) => void;
}

interface Followed { info: PaneInfo; follow: Follow; reading: boolean; again: boolean; ended: boolean }

/** Resolves when following ends: 'ended' (the session, the generation asked for, or Ctrl-C), or 'no session' to follow. */
export async function followLane(options: FollowOptions): Promise<'ended' | 'no session'> {
  const panes = new Map<string, Followed>();
  let lastWritten: string | null = null;
  let watch: SessionWatch | null = null;
  let finish: (how: 'ended') => void = () => undefined;
  const finished = new Promise<'ended'>((resolve) => { finish = resolve; });
  let listing: Promise<void> = Promise.resolve();

  const header = (p: PaneInfo) => `==> ${p.lane} g${p.generation} @${p.account} <==\n`;
  /** Lines of a pane, under its header when the last lines written were another pane's. */
  const under = (p: PaneInfo, lines: string[]) => {
    if (lines.length === 0) return;
    if (lastWritten !== p.paneId) options.write(`${lastWritten === null ? '' : '\n'}${header(p)}`);
    lastWritten = p.paneId;
    options.write(`${lines.join('\n')}\n`);
  };
  const write = (f: Followed, lines: string[]) => under(f.info, lines);

  /** Capture a pane again (one read at a time per pane; output meanwhile asks for one more). */
  const read = async (f: Followed, final = false): Promise<void> => {
    if (f.reading) {
      f.again = true;
      return;
    }
    f.reading = true;
    try {
      do {
        f.again = false;
        const first = f.follow === FOLLOW_START;
        const text = await watch!.capture(f.info.paneId, first ? FIRST_HISTORY : HISTORY).catch(() => null);
        if (text === null) return; // gone meanwhile
        const { out, next } = followStep(f.follow, text, final);
        f.follow = next;
        write(f, out);
      } while (f.again);
    } finally {
      f.reading = false;
    }
  };

  /** The lane's panes now: new ones followed from their first line, dead ones read a last time. */
  const look = (): Promise<void> => {
    // A look that failed must not stop the next ones (a chain of promises is only as good as its last).
    listing = listing.catch(() => undefined).then(async () => {
      if (watch === null) return; // not attached yet: the first look follows the attach
      const now = (await watch.list().catch(() => [] as PaneInfo[])).filter((p) => options.names.has(p.lane) && (options.generation === null || p.generation === options.generation));
      for (const info of now.sort((a, b) => a.generation - b.generation)) {
        let f = panes.get(info.paneId);
        if (f === undefined) {
          f = { info, follow: FOLLOW_START, reading: false, again: false, ended: false };
          panes.set(info.paneId, f);
          if (!info.dead) await read(f);
        }
        if (info.dead && !f.ended) {
          f.ended = true;
          await read(f, true);
          under(info, [`--- ${info.lane} g${info.generation} exited${info.deadStatus === null ? '' : ` (status ${info.deadStatus})`}`]);
        }
      }
      for (const [id, f] of panes) {
        if (f.ended || now.some((p) => p.paneId === id)) continue;
        f.ended = true; // closed (a successor took over, or swarm down): nothing more to read
        under(f.info, [`--- ${f.info.lane} g${f.info.generation} closed`]);
      }
      if (options.generation !== null && panes.size > 0 && [...panes.values()].every((f) => f.ended)) finish('ended');
    });
    return listing;
  };

  watch = await watchSession(options.socket, options.session, {
    printed: (ids) => {
      for (const id of ids) {
        const f = panes.get(id);
        if (f !== undefined && !f.ended) void read(f);
      }
    },
    changed: () => void look(),
    ended: (_reason, expected) => {
      if (!expected) options.write(`--- the swarm's tmux session ended\n`);
      finish('ended');
    },
  });
  if (watch === null) return 'no session';
  const stop = () => finish('ended');
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await look();
    if (panes.size === 0) options.write(`--- no pane of ${[...options.names].join(' / ')} yet${options.generation === null ? '' : ` g${options.generation}`}: waiting for one\n`);
    await finished;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await listing.catch(() => undefined);
    await watch.close();
  }
  return 'ended';
}

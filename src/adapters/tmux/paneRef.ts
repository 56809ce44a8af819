/**
 * Pane ids that name their tmux server. tmux numbers panes from `%0` again in every server, so a
 * `%3` saved before the server died (or was killed) names some other pane of the next server. The
 * host hands out `%3/<pid>.<start time>` and acts only on ids of the server it is connected to:
 * an id of another server (or one saved without a server) is a pane that is gone. Pure.
 */

/** The server's identity: its pid and its start time, as `display-message -p` prints them. */
export const SERVER_FORMAT = '#{pid}.#{start_time}';
export const serverIdentity = (session: string): string[] => ['display-message', '-p', '-t', `=${session}`, SERVER_FORMAT];

/** `4567.1716400000` from the answer of `serverIdentity`, or null. */
export function parseServer(line: string | undefined): string | null {
  const text = (line ?? '').trim();
  return /^\d+\.\d+$/.test(text) ? text : null;
}

/** The id the engine sees for tmux pane `%3` of `server`. */
export const paneRef = (paneId: string, server: string): string => `${paneId}/${server}`;

/** tmux's own id (`%3`) when `ref` is a pane of `server`, else null (another server's, or unqualified). */
export function localPane(ref: string, server: string | null): string | null {
  const match = /^(%\d+)\/(\d+\.\d+)$/.exec(ref);
  return match && server !== null && match[2] === server ? match[1]! : null;
}

/** tmux's id in `ref`, whichever server it names (to focus a pane, never to close one). */
export function paneTarget(ref: string): string {
  return ref.split('/')[0] ?? ref;
}

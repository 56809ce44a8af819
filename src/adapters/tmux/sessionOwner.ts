/**
 * The session's owner on the tmux server (SPEC 10.1): the session option `@swarm_plan` holds the
 * plan folder's real path. Reads what core/plan/sessionOwner.ts judges, and stamps. `=<name>:` is the
 * session by its exact name (a bare `=<name>` is no target of `set-option`).
 */
import { foreignSession } from '../../core/plan/sessionOwner.js';
import { MismatchError } from '../../errors.js';
import type { PaneInfo, SessionOwnership } from '../host.js';
import { hasSession, listLiteral } from './argv.js';

export const OWNER_OPTION = '@swarm_plan';

const sessionTarget = (session: string): string => `=${session}:`;
/** Empty output when the option is unset (`-q`); a missing session too, so ask has-session first. */
export const showOwner = (session: string): string[] => ['show-options', '-q', '-v', '-t', sessionTarget(session), OWNER_OPTION];
export const stampOwner = (session: string, plan: string): string[] => ['set-option', '-t', sessionTarget(session), OWNER_OPTION, listLiteral(plan)];

/** The stamp from `showOwner`'s answer: null when unset. */
export function parseOwner(lines: readonly string[]): string | null {
  const text = lines.join('\n').replace(/\r/g, '');
  return text.trim() === '' ? null : text;
}

export function sessionOwnership(where: { socket: string; session: string; plan: string }, run: (argv: string[]) => Promise<string[]>, list: () => Promise<PaneInfo[]>): SessionOwnership {
  return {
    session: where.session,
    socket: where.socket,
    found: async () => {
      const exists = () => run(hasSession(where.session)).then(() => true, () => false);
      if (!(await exists())) return { exists: false };
      try {
        const owner = parseOwner(await run(showOwner(where.session)));
        return { exists: true, owner, panes: (await list()).map((pane) => pane.paneId) };
      } catch (error) {
        // The server died (or the session ended) while it was looked at: gone, as if never found —
        // `swarm up` then resumes as after a server lost while it was down (chaos seed 1041).
        if (!(await exists())) return { exists: false };
        throw error;
      }
    },
    stamp: async () => {
      await run(stampOwner(where.session, where.plan));
    },
  };
}

/** A session found made by another swarm (it won the race to make it) is not joined unless it is this plan's. */
export async function refuseForeign(own: SessionOwnership, plan: string): Promise<void> {
  const found = await own.found();
  if (!found.exists || found.owner === plan) return;
  const { message, hint } = foreignSession({ session: own.session, socket: own.socket, plan, owner: found.owner });
  throw new MismatchError(message, [], { hint });
}

/**
 * Resume where it stopped (SPEC 10.8): after the agents went with their tmux server, whether a lane's
 * (or the lead's) current generation starts its own session again, on its own account, or gets the
 * degraded packet and a successor as before. Pure: the facts in, the choice out; the lane machine
 * (machine/resume.ts) carries it out.
 *
 * A generation resumes when all of these hold; the first that fails is the reason it does not:
 * - its kind can resume (panes/<kind>.yaml `launch.resume`, and no lane `command:` replacing the launch);
 * - the agent told its session id for this very generation (Claude Code's SessionStart hook, Codex's
 *   rollout through its turn-end hook, or a usage record carrying it);
 * - it holds an account, and that account is not limited (a usage limit recorded whose reset has not
 *   passed; no reset known counts as not passed) and not marked not ready (a login, consent or payment
 *   screen seen on it);
 * - it was resumed fewer than MAX_RESUMES times already (a session whose resume keeps taking its
 *   host down is a crash loop: a successor starts afresh instead).
 */
import { sessionOf, type Ledger } from '../ledger/ledger.js';
import type { Sessions } from './sessions.js';

/** A resumed agent must be ready within this long of its start (SPEC 10.8), or it is replaced. */
export const RESUME_READY_MS = 60_000;
/** How often one generation is resumed at most. */
export const MAX_RESUMES = 3;

export interface ResumeFacts {
  /** The kind can resume (its `launch.resume`), and no `command:` replaces its launch. */
  kindResumes: boolean;
  /** The session the generation runs, as its agent told it; null: never told. */
  sessionId: string | null;
  account: string | null;
  /** Accounts with a usage limit recorded → its reset (ISO), or null when no reset is known. */
  limited: Record<string, string | null>;
  /** Accounts a blocking start screen was seen on → what it said. */
  notReady: Record<string, string>;
  /** How often this generation was resumed already. */
  resumes: number;
  /** Epoch ms. */
  now: number;
}

export type ResumeChoice = { resume: true; sessionId: string; account: string } | { resume: false; why: string };

export function resumeChoice(f: ResumeFacts): ResumeChoice {
  if (!f.kindResumes) return { resume: false, why: 'its kind cannot resume a session' };
  if (f.sessionId === null) return { resume: false, why: 'its agent never told its session id' };
  if (f.account === null) return { resume: false, why: 'it holds no account' };
  if (limitedNow(f.limited, f.account, f.now)) {
    const reset = f.limited[f.account] ?? null;
    return { resume: false, why: `its account ${f.account} is limited ${reset === null ? '(no reset known)' : `until ${reset}`}` };
  }
  const notReady = f.notReady[f.account];
  if (notReady !== undefined) return { resume: false, why: `its account ${f.account} is not ready: ${notReady}` };
  if (f.resumes >= MAX_RESUMES) return { resume: false, why: `it was resumed ${f.resumes} times already` };
  return { resume: true, sessionId: f.sessionId, account: f.account };
}

/** A usage limit recorded on the account whose reset has not passed (or is unknown, or unreadable). */
export function limitedNow(limited: Record<string, string | null>, account: string, now: number): boolean {
  if (!Object.hasOwn(limited, account)) return false;
  const reset = limited[account] ?? null;
  if (reset === null) return true;
  const at = Date.parse(reset);
  return Number.isNaN(at) || at > now;
}

/**
 * The session a lane's generation runs, as its agent told it: its session start (state `sessions`),
 * else the newest process its usage records named (the ledger); null when neither did.
 */
export function toldSession(sessions: Sessions | undefined, ledger: Ledger | undefined, lane: string, generation: number): string | null {
  const started = sessions?.[lane];
  if (started !== undefined && started.generation === generation && started.sessionId.trim() !== '') return started.sessionId;
  const g = ledger?.[lane]?.find((x) => x.generation === generation);
  return g === undefined ? null : sessionOf(g);
}

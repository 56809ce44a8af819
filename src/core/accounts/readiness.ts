/**
 * Is an account ready to be leased? An account that would stop at its start — profile folder
 * missing, signed out, or the checkout not trusted — is skipped when swarm picks one. Pure: the facts
 * (which files exist, whether the kind's trust table names the checkout) come in; nothing here reads
 * a file, and a credential is only ever known to exist, never read. Each kind that signs in has its
 * own trust rule (kinds/<kind>/readiness.ts); a kind that does not is always ready.
 */

export type Readiness = { ready: true } | { ready: false; why: string; fix: string };

/** What every signed-in kind's readiness rests on. */
export interface ProfileFacts {
  /** The profile folder the account runs on (absolute). */
  profile: string;
  profileExists: boolean;
  /** True when the kind's credentials file exists in the profile (never read). */
  signedIn: boolean;
  /** Absolute. */
  checkout: string;
  /** Absolute, or null when the checkout is no git repository. */
  gitRoot: string | null;
}

/** How a kind names itself and its sign-in to the developer. */
export interface ProfileWords {
  /** The CLI's name (Claude Code). */
  cli: string;
  /** The file whose existence says "signed in". */
  credentials: string;
  /** The command that signs in on a profile. */
  signIn(profile: string): string;
}

/** Ready, or not ready with why and what the developer does about it. */
export function profileReadiness(f: ProfileFacts, words: ProfileWords, trusted: boolean): Readiness {
  if (!f.profileExists) {
    return { ready: false, why: `profile folder ${f.profile} is missing`, fix: `create it and sign in there: ${words.signIn(f.profile)}` };
  }
  if (!f.signedIn) {
    return { ready: false, why: `signed out (no ${words.credentials} in ${f.profile})`, fix: `sign in to ${words.cli} on that profile: ${words.signIn(f.profile)}` };
  }
  if (!trusted) {
    const where = f.gitRoot ?? f.checkout;
    return { ready: false, why: `the checkout ${where} is not trusted on ${f.profile}`, fix: `start ${words.cli} once in ${where} on that profile and accept its trust screen` };
  }
  return { ready: true };
}

/** A path without its trailing slashes (`/` stays). */
export const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Types of bench/sshd.mjs, for the tests that use it (tests/helpers/sshd.ts). */
export declare const SSHD: string;

export interface Sshd {
  /** sshd's own pid (in the namespace's processes, one pid space with this side's). */
  pid: number;
  port: number;
  /** A folder that is an empty tmpfs in sshd's mount namespace, and an ordinary empty folder here. */
  privateDir: string;
  /** A swarm.yaml host entry reaching it. */
  host: { ssh: string; port: number; identity: string; options: string[] };
  /** Run `command` (one string, for the remote shell) there, with the ssh argv swarm builds for `host`. */
  ssh(command: string): { code: number | null; stdout: string; stderr: string };
  /** What sshd logged (-e: to stderr). */
  log(): string;
  /** End sshd (no new connection is taken; those open end with their clients) and keep its files: a host gone from the network. */
  halt(): Promise<void>;
  stop(): Promise<void>;
}

/** `path`: folders put first on every session's PATH (the "remote" tools), given the private folder. */
export declare function startSshd(options?: { path?: (privateDir: string) => string[] }): Promise<Sshd>;

/**
 * Running a command on another host (SPEC 10.9): the argv of `ssh` (from PATH, so the user's ssh
 * config and known hosts apply) and the one string the remote shell runs. Pure.
 *
 * - Batch mode always: ssh never prompts (password, passphrase, an unknown host key), it fails.
 * - swarm's own options come first: ssh keeps the first value it gets for an option, so the host's
 *   `options:` cannot turn batch mode off. Every option stands before the destination, after `--`
 *   only the destination and the command: nothing of the file is read by ssh as a flag.
 * - ssh joins the words after the destination with spaces and hands them to the remote user's
 *   shell, so the command goes as ONE string with each word quoted for a POSIX shell.
 */
import path from 'node:path';
import type { HostSpec } from '../config/types.js';

/** The seconds ssh waits for a host to answer before it gives up. */
export const CONNECT_TIMEOUT_S = 5;

/** `argv` (the remote command's words) as one string a POSIX shell reads back as exactly those words. */
export function remoteCommand(argv: readonly string[]): string {
  return argv.map(shQuote).join(' ');
}

/** One word for a POSIX shell: single-quoted, each `'` as `'\''`; plain words stay as they are. */
export function shQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `ssh -o BatchMode=yes -o ConnectTimeout=N [-p P] [-i I] [-o O …] -- DEST COMMAND`. `home` expands an
 * identity under `~/` (HOME of the environment ssh runs in).
 */
export function sshArgv(host: Pick<HostSpec, 'ssh' | 'port' | 'identity' | 'options'>, command: string, home: string, connectTimeoutS = CONNECT_TIMEOUT_S, shared: string | null = null): string[] {
  const identity = host.identity === null ? null : host.identity.startsWith('~/') ? path.join(home, host.identity.slice(2)) : host.identity;
  return [
    'ssh', '-o', 'BatchMode=yes', '-o', `ConnectTimeout=${connectTimeoutS}`,
    ...(shared === null ? [] : sharing(shared)),
    ...(host.port === null ? [] : ['-p', String(host.port)]),
    ...(identity === null ? [] : ['-i', identity]),
    ...host.options.flatMap((option) => ['-o', option]),
    '--', host.ssh, command,
  ];
}

/** How the host is reached, for a person: `me@gpu1 -p 2222`. */
export function sshShown(host: Pick<HostSpec, 'ssh' | 'port'>): string {
  return host.port === null ? host.ssh : `${host.ssh} -p ${host.port}`;
}

/** How long a shared connection outlives its last session: long enough to span a reconnect, short enough to end soon after swarm. */
export const SHARED_PERSIST_S = 60;

/**
 * OpenSSH connection sharing (SPEC 10.9): the first ssh to a host becomes the master on `socket`
 * (`%C`: a hash of the destination, so the path stays short), every later one (a tmux command, a
 * capture, the control connection) a session over it: a round trip, not a handshake. The master
 * stays SHARED_PERSIST_S after the last session; `ssh -O exit` ends it when swarm does.
 */
function sharing(socket: string): string[] {
  return ['-o', 'ControlMaster=auto', '-o', `ControlPath=${socket}`, '-o', `ControlPersist=${SHARED_PERSIST_S}`];
}

/** `ssh -O exit`: end the shared connection on `socket` (sharing), if one runs. */
export function sharedExitArgv(host: Pick<HostSpec, 'ssh' | 'port'>, socket: string): string[] {
  return ['ssh', '-o', `ControlPath=${socket}`, ...(host.port === null ? [] : ['-p', String(host.port)]), '-O', 'exit', '--', host.ssh];
}

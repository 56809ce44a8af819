/**
 * A real OpenSSH server for tests, standing in for another host (SPEC 10.9): bench/sshd.mjs, shared
 * with `npm run bench` (bench/hosts.mjs), which says how it is made — Debian's sshd on 127.0.0.1 in
 * a mount namespace of its own, `privateDir` a tmpfs only there, nothing read from or written to
 * ~/.ssh. Its `ssh()` runs the built swarm's argv: the e2e tests run after `npm run build`.
 */
export { SSHD, startSshd, type Sshd } from '../../bench/sshd.mjs';

/**
 * The plan `swarm drill --real` runs: five lanes, one per item, on nine accounts of the
 * real kinds, and each account's quota script for the mock.
 * - lane-claude on c1: used % rises (45, 95, 100 …) until `handoff_now`; its successor should be Codex.
 * - lane-codex on o1: the same through Codex's rollout `token_count`; its successor should be Claude.
 * - lane-limit on c3: its third request is answered 429 (the usage-limit path).
 * - lane-perm on c4: its step is a `git push`, outside PLAN.md's approvals: a permission request.
 * - lane-review on c5: `review: { kind: codex }`: once its gate passes, a Codex reviewer (o4, or any
 *   Codex account free) reads its diff, sandboxed in its spool, and approves (SPEC 10.6).
 * Every other account stays at 10 % used, so successors and the reviewer have room.
 *
 * The resume item (SPEC 10.8) runs in a swarm of its own beside that one (its tmux server is killed
 * mid-run): lane-resume-claude on c6 and lane-resume-codex on o5, each of whose step ends its turn
 * (`PAUSE`), so each has told its session (Claude's SessionStart hook, Codex's turn end) with the rest
 * of its task still ahead.
 */
import { PAUSE } from './mock/brain.js';
import type { RateScript } from './mock/rates.js';
import type { RealRoles } from './realChecks.js';
import type { RealSpec } from './realRepo.js';

const write = (text: string, file: string) => ({ step: `sh -c 'printf "${text}\\n" > ${file}'`, gate: `grep -qx '${text}' ${file}` });

export const REAL_SPEC: RealSpec = {
  accounts: [
    { id: 'c1', kind: 'claude' }, { id: 'c2', kind: 'claude' }, { id: 'c3', kind: 'claude' }, { id: 'c4', kind: 'claude' },
    { id: 'c5', kind: 'claude' },
    { id: 'o1', kind: 'codex' }, { id: 'o2', kind: 'codex' }, { id: 'o3', kind: 'codex' }, { id: 'o4', kind: 'codex' },
  ],
  lanes: [
    { name: 'lane-claude', account: 'c1', ...write('hello from lane-claude', 'note.txt') },
    { name: 'lane-codex', account: 'o1', ...write('hello from lane-codex', 'note.txt') },
    { name: 'lane-limit', account: 'c3', ...write('hello from lane-limit', 'note.txt') },
    { name: 'lane-perm', account: 'c4', step: 'git push origin HEAD', gate: 'test -f pushed.txt' },
    { name: 'lane-review', account: 'c5', ...write('hello from lane-review', 'note.txt'), review: 'codex' },
  ],
};

/** The resume item's swarm: the step writes its file, then ends the turn (the brain's `PAUSE`). */
export const RESUME_SPEC: RealSpec = {
  accounts: [{ id: 'c6', kind: 'claude' }, { id: 'o5', kind: 'codex' }],
  lanes: (['claude', 'codex'] as const).map((kind) => {
    const text = `hello from lane-resume-${kind}`;
    return { name: `lane-resume-${kind}`, account: kind === 'claude' ? 'c6' : 'o5', step: `sh -c 'printf "${text}\\n" > note.txt && echo "${PAUSE}"'`, gate: `grep -qx '${text}' note.txt` };
  }),
};

export const REAL_ROLES: RealRoles = {
  claudeQuota: 'lane-claude', codexQuota: 'lane-codex', rateLimited: 'lane-limit', permission: 'lane-perm', reviewed: 'lane-review',
  resumed: RESUME_SPEC.lanes.map((l) => l.name),
};

export const REAL_RATES: Record<string, RateScript> = {
  c1: { start: 45, step: 50 },
  o1: { start: 45, step: 50 },
  c3: { start: 20, step: 5, rejectAt: 3 },
};

/**
 * The specs and roles restricted to some lanes (for a partial run while developing); all when `only` is
 * empty. `resume` is the resume item's swarm, null when none of its lanes is asked for.
 */
export function pick(only: readonly string[]): { spec: RealSpec; roles: RealRoles; resume: RealSpec | null } {
  if (only.length === 0) return { spec: REAL_SPEC, roles: REAL_ROLES, resume: RESUME_SPEC };
  const lanes = REAL_SPEC.lanes.filter((l) => only.includes(l.name));
  const resumed = RESUME_SPEC.lanes.filter((l) => only.includes(l.name));
  const roles = Object.fromEntries(Object.entries(REAL_ROLES).filter(([role, lane]) => role !== 'resumed' && only.includes(lane as string))) as RealRoles;
  if (resumed.length > 0) roles.resumed = resumed.map((l) => l.name);
  return { spec: { ...REAL_SPEC, lanes }, roles, resume: resumed.length === 0 ? null : { ...RESUME_SPEC, lanes: resumed } };
}

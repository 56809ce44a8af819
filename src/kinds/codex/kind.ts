/** Codex, as the engine and the commands reach it (kinds/kind.ts). */
import type { Kind } from '../kind.js';
import { codexNotifyHook } from './hook.js';
import { checkCodexProfile, codexApprovalFlags, codexReviewFlags, notifyFor } from './launch.js';
import { codexProbe } from './probe.js';
import { CODEX_PROFILE, codexReady } from './readiness.js';

export const codex: Kind = {
  name: 'codex',
  cli: 'codex',
  profile: CODEX_PROFILE,
  launch: {
    env: () => ({}),
    approvals: (approvals, writable) => codexApprovalFlags(approvals.codex, writable),
    review: (_checkout, spool) => codexReviewFlags(spool),
    check: checkCodexProfile,
    notify: notifyFor,
  },
  signals: {
    probe: codexProbe,
    source: 'rollout',
    ak: true,
    hooks: { events: ['codex-notify'], input: 'argument', run: codexNotifyHook },
  },
  screens: {},
  readiness: { check: codexReady },
};

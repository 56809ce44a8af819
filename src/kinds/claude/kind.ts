/** Claude Code, as the engine and the commands reach it (kinds/kind.ts). */
import type { Kind } from '../kind.js';
import { claudeConfigDir, claudeSessionState } from './files.js';
import { claudeHook } from './hook.js';
import { HOOK_EVENTS } from './hooks.js';
import { claudeApprovalFlags, claudeEnv, claudeReviewFlags, settingsFor } from './launch.js';
import { claudeProbe } from './probe.js';
import { CLAUDE_PROFILE, claudeReady } from './readiness.js';
import { recordStatusLine } from './statusLineRecord.js';

export const claude: Kind = {
  name: 'claude',
  cli: 'claude',
  profile: CLAUDE_PROFILE,
  launch: {
    env: claudeEnv,
    approvals: (approvals) => claudeApprovalFlags(approvals.claude),
    review: (checkout) => claudeReviewFlags(checkout),
    settings: settingsFor,
  },
  signals: {
    probe: claudeProbe,
    source: 'status line',
    ak: true,
    hooks: { events: HOOK_EVENTS, input: 'stdin', run: claudeHook },
    statusLine: recordStatusLine,
  },
  screens: {
    sessionIdle: (profile, sessionId) => {
      const state = claudeSessionState(claudeConfigDir(profile), sessionId);
      return state === null ? null : state.status === 'idle';
    },
  },
  readiness: { check: claudeReady },
};

/**
 * `swarm up [file]` — in this build it validates the swarm and says honestly that the engine is not
 * here yet (the engine lands with its own issue).
 */
import { UsageError } from '../errors.js';
import type { CommandIO } from './io.js';

export async function up(io: CommandIO): Promise<number> {
  const file = io.args.find((a) => !a.startsWith('-')) ?? 'swarm.yaml';
  const { loadConfig } = await import('../adapters/configFile.js');
  const config = loadConfig(file, { cwd: io.cwd, env: io.env });
  io.stdout(`${file}: valid — swarm "${config.name}", lead ${config.lead.name}, ${config.lanes.length} lanes\n`);
  throw new UsageError('swarm up: the engine is not in this build yet; the file above is valid and nothing was started', {
    hint: 'track the engine issue; meanwhile `swarm validate`, `notify`, `capacity`, `packet write`, `accept`, `lead` and `journal` work',
  });
}

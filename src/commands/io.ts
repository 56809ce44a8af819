import type { AgentRecord } from '../core/authority/agents.js';

/** What a command is given: its arguments and the outside world, passed in so tests can drive it. */
export interface CommandIO {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input as text, read only by commands that take it. */
  stdin?: () => Promise<string>;
  /**
   * Who the caller is, injected in-process (tests' fake pane host runs agents' commands in its own
   * process); the CLI never sets it: there an agent is known by its pane (adapters/caller.ts).
   */
  agent?: AgentRecord;
}

export type Command = (io: CommandIO) => Promise<number>;

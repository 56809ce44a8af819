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
  /** Set by the CLI when bin/swarm.cjs's shell half runs `up` or `attach` on a terminal (see `Launcher`). */
  launcher?: Launcher;
}

/**
 * bin/swarm.cjs run as a program hands the terminal to the tmux client itself, with no node process
 * waiting behind it: `handoff`, the file the client's argv goes to instead of the client being run
 * here; `attached`, the client's exit status, in the node it runs once the client has exited.
 */
export type Launcher = { handoff: string } | { attached: number };

export type Command = (io: CommandIO) => Promise<number>;

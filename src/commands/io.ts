/** What a command is given: its arguments and the outside world, passed in so tests can drive it. */
export interface CommandIO {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input as text, read only by commands that take it. */
  stdin?: () => Promise<string>;
}

export type Command = (io: CommandIO) => Promise<number>;

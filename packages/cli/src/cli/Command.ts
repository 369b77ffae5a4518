import type { Io } from './Io';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
  /** Everything after `--`, untouched (arguments for the server). */
  readonly rest: readonly string[];
  /** What the user typed to run this command, for messages that name it: `toolwright new`, or `npm create toolwright@latest --`. */
  readonly invocation: string;
}

/** One `toolwright` command. */
export interface Command {
  readonly name: string;
  /** One line, for the command list. */
  readonly summary: string;
  /** The full `--help` text; a function of what the user typed to run it (`npm create toolwright@latest --` for `new`) when it names that. */
  readonly help: string | ((invocation: string) => string);
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Whether it passes the arguments after `--` to the server it starts; without it, `--` and what follows are refused. */
  readonly serverArgs?: true;
  run(args: ParsedArgs, io: Io): Promise<number>;
}

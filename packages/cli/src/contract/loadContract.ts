import { protocolChoice, serverTarget } from '../client/ServerTarget';
import { withClient } from '../client/withClient';
import type { ParsedArgs } from '../cli/Command';
import type { Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { shellQuoted } from '../cli/shellQuoted';
import { UsageError } from '../cli/UsageError';
import { parseTimeout } from '../commands/callCommand';
import type { Contract } from './Contract';
import { readContract } from './readContract';

/** Connects to the server named by the command line (started from an entry file, or at a URL) and reads its contract. */
export async function loadContract(args: ParsedArgs, io: Io, entryArg: string | undefined): Promise<Contract> {
  const target = serverTarget(args, io, entryArg);
  if (io.err.enabled) io.stderr.write(io.err.dim(`${target.kind === 'stdio' ? 'Starting' : 'Connecting to'} ${target.shown}...\n`));
  const timeoutMs = parseTimeout(stringOption(args, 'timeout'));
  return withClient(target, io, { verbose: booleanOption(args, 'verbose'), timeoutMs, protocol: protocolChoice(args) }, (client) => readContract(client, { timeout: timeoutMs }));
}

/** Reads a contract file written by `schema snapshot`, with errors that say what is wrong. */
export function parseContract(text: string, file: string): Contract {
  let value: Partial<Contract>;
  try {
    value = JSON.parse(text) as Partial<Contract>;
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message}). Write a snapshot there: toolwright schema snapshot --out ${shellQuoted(file)}`);
  }
  if (value.contractVersion !== 1 || !Array.isArray(value.tools)) {
    throw new UsageError(`${file} is not a contract written by 'toolwright schema snapshot' (contractVersion 1 with a tools list).`);
  }
  return { resources: [], resourceTemplates: [], prompts: [], ...value } as Contract;
}

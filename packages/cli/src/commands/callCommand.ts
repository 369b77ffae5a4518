import { RpcError } from '../client/RpcError';
import { resolveEntry } from '../client/resolveEntry';
import { withServer } from '../client/withServer';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { ServerError, UsageError } from '../cli/UsageError';

interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; text?: string };
}

interface CallToolResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

export const callCommand: Command = {
  name: 'call',
  summary: 'Call one tool over stdio and print the result',
  options: {
    args: { type: 'string', short: 'a' },
    json: { type: 'boolean' },
    timeout: { type: 'string' },
    verbose: { type: 'boolean' },
  },
  help: `Usage: toolwright call <entry> <tool> [--args '<json>'] [options] [-- <server args>]

Start the server (node <entry>) over stdio, call one tool, print its result, stop the server.

Arguments:
  <entry>               the compiled server, e.g. dist/server.js
  <tool>                the tool's name as clients call it, e.g. get_weather

Options:
  -a, --args <json>     the arguments, a JSON object (default: {})
      --json            print the whole CallToolResult as JSON
      --timeout <ms>    how long to wait for the answer (default: 60000)
      --verbose         show the server's stderr (its logs)
  -h, --help            show this help

Text content is printed as is, other content as a one-line summary; a result with only
structuredContent is printed as JSON.

Exit codes: 0 the tool succeeded, 1 the tool returned an error (isError), 2 invalid
arguments, 3 the server failed or answered with a protocol error (e.g. unknown tool).

Example:
  toolwright call dist/server.js get_weather --args '{"location":"Tokyo"}'`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    const [entryArg, tool, ...extra] = args.positionals;
    if (entryArg === undefined || tool === undefined) throw new UsageError("Expected <entry> and <tool>, e.g. 'toolwright call dist/server.js get_weather --args '{\"location\":\"Tokyo\"}''.");
    if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'. Pass the tool's arguments as JSON with --args.`);
    const toolArgs = parseToolArgs(stringOption(args, 'args'));
    const timeoutMs = parseTimeout(stringOption(args, 'timeout'));
    const entry = resolveEntry(io.cwd, entryArg, args.rest);

    const result = await withServer(entry, io, { verbose: booleanOption(args, 'verbose'), timeoutMs }, async (client) => {
      try {
        return (await client.request('tools/call', { name: tool, arguments: toolArgs })) as CallToolResult;
      } catch (error) {
        if (error instanceof RpcError) throw new ServerError(`tools/call '${tool}' failed: ${error.message}`);
        throw error;
      }
    });

    if (booleanOption(args, 'json')) println(io.stdout, JSON.stringify(result, null, 2));
    else {
      const target = result.isError ? io.stderr : io.stdout;
      if (result.isError) println(io.stderr, io.err.red(`Tool '${tool}' returned an error:`));
      const blocks = result.content ?? [];
      for (const block of blocks) println(target, describeBlock(block));
      if (blocks.length === 0 && result.structuredContent !== undefined) println(target, JSON.stringify(result.structuredContent, null, 2));
    }
    return result.isError ? ExitCode.Failure : ExitCode.Ok;
  },
};

function parseToolArgs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON (${(error as Error).message}). Quote it for your shell, e.g. --args '{"location":"Tokyo"}'.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`--args must be a JSON object of named arguments, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}.`);
  return value as Record<string, unknown>;
}

export function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds, got '${raw}'.`);
  return ms;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? ''}, ${Math.floor(((block.data ?? '').length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource':
      return block.resource?.text ?? `[resource ${block.resource?.uri}]`;
    default:
      return `[${block.type} content]`;
  }
}

import { ProtocolError, type Client, type ContentBlock, type RequestOptions } from '@modelcontextprotocol/client';
import { callAsTask, TASKS_EXTENSION } from '../client/callAsTask';
import { cliAnswers, ANSWER_HELP } from '../client/cliAnswers';
import { CONNECT_HELP, CONNECT_OPTIONS, protocolChoice, serverTarget } from '../client/ServerTarget';
import { unknownName } from '../client/unknownName';
import { unservedFeature } from '../client/unservedFeature';
import { withClient } from '../client/withClient';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { jsonText, terminalSafe } from '../cli/terminalSafe';
import { ServerError, UsageError } from '../cli/UsageError';
import { shellQuoted } from '../cli/shellQuoted';

export const callCommand: Command = {
  name: 'call',
  serverArgs: true,
  summary: 'Call a tool, read a resource or get a prompt (stdio or HTTP) and print the result',
  options: {
    args: { type: 'string', short: 'a' },
    resource: { type: 'string' },
    prompt: { type: 'string' },
    json: { type: 'boolean' },
    elicit: { type: 'string' },
    field: { type: 'string', multiple: true },
    decline: { type: 'boolean' },
    sample: { type: 'string' },
    ...CONNECT_OPTIONS,
  },
  help: `Usage: toolwright call <server> <tool> [--args '<json>'] [options] [-- <server args>]
       toolwright call <server> --resource <uri>
       toolwright call <server> --prompt <name> [--args '<json>']

Connect to the server, call one tool (or read a resource, or get a prompt), print the
result, disconnect. A server that toolwright starts is stopped afterwards.

Arguments:
  <server>              the compiled server to start over stdio (e.g. dist/server.js), or
                        the URL of a running Streamable HTTP server (http://127.0.0.1:3000/mcp)
  <tool>                the tool's name as clients call it, e.g. get_weather

Options:
  -a, --args <json>     the arguments, a JSON object (default: {}); for a prompt, string values
      --resource <uri>  read this resource instead of calling a tool
      --prompt <name>   get this prompt instead of calling a tool
      --json            print the whole result as JSON
${CONNECT_HELP}
  -h, --help            show this help

${ANSWER_HELP}

Text content is printed as is, other content as a one-line summary; a result with only
structuredContent is printed as JSON.

Tasks: a 2026-07-28 HTTP server that serves the tasks extension may answer a call with a
task: toolwright polls it (at the server's pollIntervalMs, from 100 ms to 2 s), prints its
status messages to stderr, answers its input requests as above, and prints its result.
Ctrl-C cancels the task (tasks/cancel), and so does --timeout when given: a task that has
not ended within it (time spent answering its questions aside) is cancelled. Without it the
task is polled until it ends. A failed or cancelled task exits with 3.

Exit codes: 0 the tool succeeded, 1 the tool returned an error (isError), 2 invalid
arguments, 3 the server failed or answered with a protocol error (e.g. unknown tool).

Examples:
  toolwright call dist/server.js get_weather --args '{"location":"Tokyo"}'
  TOOLWRIGHT_BEARER=s3cret toolwright call http://127.0.0.1:3000/mcp add_task --args '{"title":"Ship"}'
  toolwright call dist/server.js delete_note --args '{"id":3}' --field confirm=true
  toolwright call dist/server.js --resource notes://3`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    const [serverArg, tool, ...extra] = args.positionals;
    const resource = stringOption(args, 'resource');
    const prompt = stringOption(args, 'prompt');
    const asked = [tool !== undefined, resource !== undefined, prompt !== undefined].filter(Boolean).length;
    if (serverArg === undefined || asked === 0) throw new UsageError('Expected <server> and <tool>, e.g. \'toolwright call dist/server.js get_weather --args \'{"location":"Tokyo"}\'\'.');
    if (asked > 1) throw new UsageError('Call a tool, or pass --resource, or --prompt: one at a time.');
    if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'. Pass the tool's arguments as JSON with --args.`);
    const callArgs = parseToolArgs(stringOption(args, 'args'));
    if (resource !== undefined && stringOption(args, 'args') !== undefined) throw new UsageError('--args does not apply to --resource: the URI says it all.');
    const timeoutMs = parseTimeout(stringOption(args, 'timeout'));
    const target = serverTarget(args, io, serverArg);
    const answers = cliAnswers(args, io);
    const options = { timeout: timeoutMs };
    const what = resource !== undefined ? `resources/read '${resource}'` : prompt !== undefined ? `prompts/get '${prompt}'` : `tools/call '${tool}'`;

    const feature = resource !== undefined ? 'resources' : prompt !== undefined ? 'prompts' : 'tools';

    const result = await withClient(target, io, { verbose: booleanOption(args, 'verbose'), timeoutMs, answers, what, protocol: protocolChoice(args) }, async (client) => {
      // A server that declares no resources (or prompts, or tools) would answer only "Method not found": say what it serves instead.
      const unserved = await unservedFeature(client, feature, options);
      if (unserved !== undefined) throw new ServerError(`${what} was not sent. ${unserved} See everything it serves: toolwright inspect ${shellQuoted(serverArg)}`);
      if (resource !== undefined) return { kind: 'resource' as const, value: await client.readResource({ uri: resource }, options) };
      if (prompt !== undefined) {
        const value = await client.getPrompt({ name: prompt, arguments: promptArgs(callArgs) }, options).catch(refusedName(client, 'prompt', prompt, options, what));
        return { kind: 'prompt' as const, value };
      }
      // A 2026-07-28 HTTP server that serves tasks may answer with a task: it is polled, its questions answered, its result printed.
      if (target.kind === 'http' && client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION] !== undefined && (client.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28') {
        const interrupted = new AbortController();
        const onSigint = () => interrupted.abort();
        process.once('SIGINT', onSigint);
        try {
          return {
            kind: 'tool' as const,
            value: await callAsTask(tool!, callArgs, io, { url: target.url, headers: target.headers, answers, timeoutMs, signal: interrupted.signal }),
          };
        } finally {
          process.removeListener('SIGINT', onSigint);
        }
      }
      return { kind: 'tool' as const, value: await client.callTool({ name: tool!, arguments: callArgs }, options).catch(refusedName(client, 'tool', tool!, options, what)) };
    });

    if (booleanOption(args, 'json')) {
      println(io.stdout, jsonText(result.value));
      return result.kind === 'tool' && result.value.isError ? ExitCode.Failure : ExitCode.Ok;
    }
    // What the server sent is printed as text: shown, never obeyed by the terminal.
    if (result.kind === 'resource') {
      for (const contents of result.value.contents)
        println(io.stdout, terminalSafe('text' in contents ? contents.text : `[${contents.mimeType ?? 'binary'} ${contents.uri}, ${Math.floor((contents.blob.length * 3) / 4)} bytes]`));
      return ExitCode.Ok;
    }
    if (result.kind === 'prompt') {
      for (const message of result.value.messages) println(io.stdout, `${io.out.bold(`${terminalSafe(message.role)}:`)} ${terminalSafe(describeBlock(message.content))}`);
      return ExitCode.Ok;
    }
    const { isError, content, structuredContent } = result.value;
    const out = isError ? io.stderr : io.stdout;
    if (isError) println(io.stderr, io.err.red(`Tool '${tool}' returned an error:`));
    for (const block of content) println(out, terminalSafe(describeBlock(block)));
    if (content.length === 0 && structuredContent !== undefined) println(out, jsonText(structuredContent));
    // "The server log has the details": over stdio that log is the server's stderr, shown with --verbose.
    const pointsToLog = isError && content.some((block) => block.type === 'text' && /\blog has the details\b/.test(block.text));
    if (pointsToLog && target.kind === 'stdio' && !booleanOption(args, 'verbose')) println(io.stderr, io.err.dim("Run again with --verbose to see the server's log (its stderr)."));
    return isError ? ExitCode.Failure : ExitCode.Ok;
  },
};

/**
 * A refusal of a request for `name`: told as a name the server does not serve when the refusal names
 * it and the server lists no such one; else as the server gave it (a refusal about something else).
 */
function refusedName(client: Client, kind: 'tool' | 'prompt', name: string, options: RequestOptions, what: string) {
  return async (error: unknown): Promise<never> => {
    const unknown = error instanceof ProtocolError && error.message.includes(name) ? await unknownName(client, kind, name, options) : undefined;
    throw unknown === undefined ? error : new ServerError(`${what} failed: ${unknown}`, { cause: error });
  };
}

/** Prompt arguments are strings: other JSON values are sent as their JSON text. */
function promptArgs(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
}

function parseToolArgs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON (${(error as Error).message}). Quote it for your shell, e.g. --args '{"location":"Tokyo"}'.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`--args must be a JSON object of named arguments, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}.`);
  if (nestsDeeperThan(value, MAX_ARGS_DEPTH)) throw new UsageError(`--args nests objects and arrays more than ${MAX_ARGS_DEPTH} levels deep, more than can be sent: flatten it.`);
  return value as Record<string, unknown>;
}

/** Past a few thousand levels, serializing the request overflows the stack; no tool needs this many. */
const MAX_ARGS_DEPTH = 2000;

/** Whether a parsed JSON value nests objects and arrays more than `limit` levels deep, checked without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Node's timers hold at most 2^31-1 ms (about 24.8 days): a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(ms > 0 && ms <= MAX_TIMEOUT_MS)) throw new UsageError(`--timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got '${raw}'.`);
  return ms;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    default:
      return '[content of an unknown type]';
  }
}

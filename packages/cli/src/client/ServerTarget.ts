import type { OptionSpec, ParsedArgs } from '../cli/Command';
import { println, type Io } from '../cli/Io';
import { stringOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';
import { bearerToken, BEARER_ENV, isLoopbackHost } from './bearerToken';
import { checkedHeaderValue, requestHeaders } from './requestHeaders';
import { resolveEntry } from './resolveEntry';
import { serverUrl } from './serverUrl';
import { warnIfStale } from './staleBuild';

/** The server a command talks to: a process it starts (stdio), or a URL (Streamable HTTP). */
export type ServerTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly cwd: string; readonly shown: string }
  | { readonly kind: 'http'; readonly url: URL; readonly headers: Readonly<Record<string, string>>; readonly shown: string };

/** The options of every command that connects to a server. */
export const CONNECT_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  header: { type: 'string', short: 'H', multiple: true },
  'bearer-env': { type: 'string' },
  // Refused with the way to pass a token instead (see bearerToken).
  bearer: { type: 'string' },
  protocol: { type: 'string' },
  timeout: { type: 'string' },
  verbose: { type: 'boolean' },
};

export const CONNECT_HELP = `  -H, --header <h>   with a URL: an HTTP header 'Name: value' (repeatable)
      --bearer-env <NAME>
                     with a URL: send 'Authorization: Bearer <token>', the token read from
                     the environment variable NAME (default: ${BEARER_ENV}, when set)
      --protocol <v> auto (default: 2026-07-28 when the server offers it, else the 2025
                     handshake), 2025-11-25 (the 2025 handshake only) or 2026-07-28 (only)
      --timeout <ms> how long to wait for each answer (default: 60000)
      --verbose      show the server's stderr (its logs)`;

/** The protocol revisions `--protocol` pins, and how the SDK client negotiates for each. */
export type ProtocolChoice = 'auto' | 'legacy' | { pin: string };

export function protocolChoice(args: ParsedArgs): ProtocolChoice {
  const value = stringOption(args, 'protocol') ?? 'auto';
  if (value === 'auto') return 'auto';
  if (value === '2025-11-25') return 'legacy';
  if (value === '2026-07-28') return { pin: value };
  throw new UsageError(`Unknown --protocol '${value}'. Use auto, 2025-11-25 or 2026-07-28.`);
}

/**
 * An http(s) URL is a running server (another scheme, or a user name or password in it, is
 * refused); anything else is the compiled entry file to start (default: package.json "main",
 * else dist/server.js), with `-- <args>` for it.
 */
export function serverTarget(args: ParsedArgs, io: Io, entryArg: string | undefined): ServerTarget {
  const headerValues = args.values.header;
  const headerList = Array.isArray(headerValues) ? headerValues : [];
  const scheme = entryArg === undefined ? undefined : /^([a-z][a-z0-9+.-]*):\/\//i.exec(entryArg)?.[1].toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw new UsageError(`A URL that starts ${scheme}:// is not a server: pass the http:// or https:// URL of a running server, or the path of the entry file to start.`);
  }
  if (entryArg !== undefined && scheme !== undefined) {
    const url = serverUrl(entryArg, `a token (${BEARER_ENV} or --bearer-env NAME) or a header (--header 'Authorization: Basic ...')`);
    if (args.rest.length > 0) throw new UsageError(`Server arguments after '--' only apply when toolwright starts the server; ${entryArg} is already running.`);
    const headers = requestHeaders(headerList);
    const hasAuthorizationHeader = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    if (hasAuthorizationHeader) {
      println(
        io.stderr,
        io.err.yellow(
          `Warning: --header 'Authorization: ...' puts the credentials on the command line, where other users of this machine can read them (ps). Use ${BEARER_ENV} or --bearer-env NAME for a bearer token.`,
        ),
      );
    }
    const bearer = bearerToken(args, io);
    if (bearer !== undefined) {
      if (hasAuthorizationHeader) throw new UsageError(`Both --header 'Authorization: ...' and a bearer token (${bearer.from}) were given: pass one of them.`);
      headers.Authorization = checkedHeaderValue(`Bearer ${bearer.token}`, `The bearer token from ${bearer.from}`);
    }
    if ((bearer !== undefined || hasAuthorizationHeader) && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      println(
        io.stderr,
        io.err.yellow(`Warning: sending credentials over plain http:// to ${url.host}: anyone on the network path can read the token and replay it. Use https:// for a server on another machine.`),
      );
    }
    return { kind: 'http', url, headers, shown: url.href };
  }
  if (headerList.length > 0 || stringOption(args, 'bearer-env') !== undefined) throw new UsageError('--header and --bearer-env apply to a server URL (http://...), not to a server toolwright starts.');
  bearerToken(args, io); // refuses --bearer <token> here too
  const entry = resolveEntry(io.cwd, entryArg, args.rest);
  warnIfStale(entry, io);
  return { kind: 'stdio', command: entry.command, args: entry.args, cwd: entry.projectDir, shown: entry.file };
}

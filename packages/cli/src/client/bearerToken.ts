import type { ParsedArgs } from '../cli/Command';
import type { Io } from '../cli/Io';
import { stringOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';

/** The environment variable a bearer token is read from when `--bearer-env` names none. */
export const BEARER_ENV = 'TOOLWRIGHT_BEARER';

/**
 * The bearer token to send to a server URL: from the variable `--bearer-env NAME` names, else
 * from `TOOLWRIGHT_BEARER`, else none. Never from the command line: a process's arguments are
 * readable by every user of the machine (`ps`, /proc) and stay in shell history, so
 * `--bearer <token>` is refused with the way to pass it instead.
 */
export function bearerToken(args: ParsedArgs, io: Io): { readonly token: string; readonly from: string } | undefined {
  if (stringOption(args, 'bearer') !== undefined) {
    throw new UsageError(
      `--bearer <token> would put the token on the command line, where other users of this machine can read it (ps, /proc) and your shell history keeps it. ` +
        `Put it in an environment variable instead: ${BEARER_ENV}=<token> toolwright ..., or --bearer-env NAME for a variable of your choice.`,
    );
  }
  const named = stringOption(args, 'bearer-env');
  if (named !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(named)) throw new UsageError(`--bearer-env '${named}' is not an environment variable name (letters, digits and _), e.g. --bearer-env MCP_TOKEN.`);
    const token = io.env[named];
    if (!token) throw new UsageError(`--bearer-env ${named}: the environment variable ${named} is not set (or empty). Set it to the token, e.g. export ${named}=<token>.`);
    return { token, from: named };
  }
  const token = io.env[BEARER_ENV];
  return token ? { token, from: BEARER_ENV } : undefined;
}

/** Whether `hostname` (as `URL.hostname` gives it) is this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127(?:\.\d{1,3}){3}$/.test(host) || /^::ffff:127(?:\.\d{1,3}){3}$/.test(host);
}

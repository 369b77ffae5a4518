import { parseArgs } from 'node:util';
import { ConfigError } from '@toolwright/core';
import type { ListenOptions } from './ListenOptions';

const USAGE = 'flags: --stdio (default), or --http [--port 3000] [--host 127.0.0.1] [--stateless] [--json]';
const HTTP_FLAGS = ['port', 'host', 'stateless', 'json'] as const;

/**
 * Reads listen options from command-line flags, so every server starts the same way:
 * no flags (or `--stdio`) for stdio; `--http [--port 3000] [--host 127.0.0.1] [--stateless] [--json]`
 * for HTTP. `--port=3000` and `--port 3000` both work; an unknown flag throws a `ConfigError` naming it,
 * and so does an HTTP flag without `--http` (`--port=3000` alone would otherwise serve stdio).
 */
export function parseListenArgs(argv: readonly string[] = process.argv.slice(2)): ListenOptions {
  // No flags, the usual stdio start: node:util's parser (a module of its own) is not loaded for it.
  if (argv.length === 0) return { transport: 'stdio' };
  let values: { stdio?: boolean; http?: boolean; port?: string; host?: string; stateless?: boolean; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        stdio: { type: 'boolean' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        stateless: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // node:util's messages name the flag ("Unknown option '--prot'").
    throw new ConfigError(`Toolwright: ${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')}. The server takes ${USAGE}.`, { cause: error });
  }
  if (values.stdio && values.http) throw new ConfigError(`Toolwright: --stdio and --http exclude each other; pick one. The server takes ${USAGE}.`);
  if (!values.http) {
    // Without --http they would be ignored, and the server would quietly serve stdio instead.
    const httpOnly = HTTP_FLAGS.filter((flag) => values[flag] !== undefined).map((flag) => `--${flag}`);
    if (httpOnly.length > 0) {
      const them = httpOnly.length === 1 ? `${httpOnly[0]} is an HTTP flag` : `${httpOnly.join(', ')} are HTTP flags`;
      throw new ConfigError(`Toolwright: ${them}: add --http to serve Streamable HTTP (e.g. --http ${argv.join(' ')}), or drop ${httpOnly.length === 1 ? 'it' : 'them'} to serve stdio.`);
    }
    return { transport: 'stdio' };
  }
  const raw = values.port ?? process.env.PORT ?? '3000';
  const port = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Toolwright: --port must be a port number (0-65535), got '${raw}'.`);
  return {
    transport: 'http',
    port,
    ...(values.host !== undefined && { host: values.host }),
    stateless: values.stateless === true,
    jsonResponse: values.json === true,
  };
}

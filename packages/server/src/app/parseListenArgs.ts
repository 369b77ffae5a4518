import { parseArgs } from 'node:util';
import { ConfigError } from '@toolwright/core';
import type { ListenOptions } from './ListenOptions';

const USAGE = 'flags: --stdio (default), or --http [--port 3000] [--host 127.0.0.1] [--stateless] [--json]';

/**
 * Reads listen options from command-line flags, so every server starts the same way:
 * no flags (or `--stdio`) for stdio; `--http [--port 3000] [--host 127.0.0.1] [--stateless] [--json]`
 * for HTTP. `--port=3000` and `--port 3000` both work; an unknown flag throws a `ConfigError` naming it.
 */
export function parseListenArgs(argv: readonly string[] = process.argv.slice(2)): ListenOptions {
  let values: { http?: boolean; port?: string; host?: string; stateless?: boolean; json?: boolean };
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
  if (!values.http) return { transport: 'stdio' };
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

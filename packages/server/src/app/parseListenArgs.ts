import type { ListenOptions } from './ListenOptions';

/**
 * Reads listen options from command-line flags, so every server starts the same way:
 * no flags (or `--stdio`) for stdio; `--http [--port 3000] [--host 127.0.0.1] [--stateless] [--json]` for HTTP.
 */
export function parseListenArgs(argv: readonly string[] = process.argv.slice(2)): ListenOptions {
  const has = (flag: string) => argv.includes(flag);
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (!has('--http')) return { transport: 'stdio' };
  const port = Number(value('--port') ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Toolwright: --port must be a port number (0-65535), got '${value('--port')}'.`);
  return {
    transport: 'http',
    port,
    ...(value('--host') !== undefined && { host: value('--host') }),
    stateless: has('--stateless'),
    jsonResponse: has('--json'),
  };
}

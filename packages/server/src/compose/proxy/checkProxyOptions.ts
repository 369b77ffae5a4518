import { ConfigError } from '@toolwright/core';
import type { ProxyOptions } from './ProxyOptions';

/** Checks `proxyServer()`'s options; throws a `ConfigError` that says what to fix. */
export function checkProxyOptions(options: ProxyOptions): void {
  if (typeof options !== 'object' || options === null) throw new ConfigError("Toolwright: proxyServer() takes { url } or { command, args }: proxyServer({ url: 'https://mcp.example.com/mcp' }).");
  const hasUrl = 'url' in options && options.url !== undefined;
  const hasCommand = 'command' in options && options.command !== undefined;
  if (hasUrl === hasCommand) throw new ConfigError('Toolwright: proxyServer() needs exactly one of `url` (a Streamable HTTP endpoint) and `command` (a server to start over stdio).');
  if (hasUrl) {
    let url: URL;
    try {
      url = new URL((options as { url: string | URL }).url);
    } catch {
      throw new ConfigError(`Toolwright: proxyServer()'s url ${JSON.stringify(String((options as { url: unknown }).url))} is not an absolute URL. Give one such as 'https://mcp.example.com/mcp'.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`Toolwright: proxyServer()'s url must be http: or https:, not ${url.protocol}.`);
  } else if (typeof (options as { command: unknown }).command !== 'string' || (options as { command: string }).command === '') {
    throw new ConfigError("Toolwright: proxyServer()'s `command` must be a non-empty string (the program to start), with its arguments in `args`.");
  }
  for (const key of ['requestTimeoutMs', 'listTimeoutMs', 'maxMessageBytes', 'maxSessions', 'idleSessionMs', 'maxLogLinesPerSecond'] as const) {
    const value: unknown = options[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) <= 0)) {
      throw new ConfigError(`Toolwright: proxyServer()'s ${key} is ${typeof value === 'string' ? JSON.stringify(value) : String(value)}. Give a positive integer.`);
    }
  }
  if (options.protocol !== undefined && !['auto', '2025-11-25', '2026-07-28'].includes(options.protocol)) {
    throw new ConfigError(`Toolwright: proxyServer()'s protocol is ${JSON.stringify(options.protocol)}. Give 'auto', '2025-11-25' or '2026-07-28'.`);
  }
}

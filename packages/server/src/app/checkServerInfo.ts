import { ConfigError } from '@toolwright/core';
import { SERVER_INFO_SHAPE, shapeProblem } from '@toolwright/core/internal';

const EXAMPLE = "createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools] })";

/**
 * Checks what `createApp` sends clients about the server, before anything is built. Every client
 * checks `serverInfo` against MCP's schema at `initialize`: an app without a name or version, or
 * with a `title` or icon of another type (from JavaScript, or a cast), would build and then fail
 * every connection with the client's own error. Refused here with a `ConfigError` naming the option.
 */
export function checkServerInfo(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(`Toolwright: createApp takes one options object, e.g. ${EXAMPLE} (got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}).`);
  }
  const { name, version } = options as { name?: unknown; version?: unknown };
  for (const [key, value, example] of [
    ['name', name, "name: 'weather'"],
    ['version', version, "version: '1.0.0'"],
  ] as const) {
    if (typeof value !== 'string' || value.trim() === '') {
      const got = value === undefined ? 'missing' : typeof value === 'string' ? (value === '' ? 'an empty string' : 'blank') : `${value === null ? 'null' : `a ${typeof value}`}, not a string`;
      throw new ConfigError(`Toolwright: createApp's \`${key}\` is ${got}. Clients receive it in serverInfo.${key} and refuse a server without it: give a non-empty string, e.g. ${example}.`);
    }
  }
  const problem = shapeProblem(options, SERVER_INFO_SHAPE);
  if (problem) throw new ConfigError(`Toolwright: createApp's option ${problem}. Clients check the server's info at initialize and refuse it whole: give it the type MCP gives it.`);
}

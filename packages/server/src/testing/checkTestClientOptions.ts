import { ConfigError } from '@toolwright/core';
import { refuseUnknownOptions } from '@toolwright/core/internal';
import { optionValueText } from '../ground/optionValueText';
import type { CommonTestClientOptions, HttpTestClientOptions, MemoryTestClientOptions, StdioTestClientOptions, TestClientOptions } from './createTestClient';

/** Every option of each transport: the compiler fails here when a type gains or loses one. */
const COMMON = { protocol: true, era: true, elicitation: true, sampling: true, roots: true, auth: true, capabilities: true, clientInfo: true } as const satisfies Record<
  keyof CommonTestClientOptions,
  true
>;
const MEMORY = { ...COMMON, transport: true, overrides: true } as const satisfies Record<keyof MemoryTestClientOptions, true>;
const HTTP = { ...COMMON, transport: true, bearer: true, headers: true, listen: true } as const satisfies Record<keyof HttpTestClientOptions, true>;
const STDIO = { ...COMMON, transport: true, command: true, args: true, cwd: true, env: true, stderr: true } as const satisfies Record<keyof StdioTestClientOptions, true>;

type Transport = 'memory' | 'http' | 'stdio';
const NAMES: Readonly<Record<Transport, readonly string[]>> = { memory: Object.keys(MEMORY), http: Object.keys(HTTP), stdio: Object.keys(STDIO) };
/** How each transport is named in a message: memory is the default. */
const SPELLED: Readonly<Record<Transport, string>> = { memory: "transport 'memory' (the default)", http: "transport 'http'", stdio: "transport 'stdio'" };
/** What an option of another transport is for, and how to ask for that transport. */
const HOW: Readonly<Record<Transport, string>> = {
  memory: 'pass the app and leave transport out (the app in this process, in memory)',
  http: "pass transport: 'http' (the app on a free port of 127.0.0.1)",
  stdio: "call createTestClient({ transport: 'stdio', command, args }) without an app (a server process)",
};

/**
 * Checks what `createTestClient` was given before it connects: a known `transport`, `era` and
 * `stderr`, and no option the chosen transport does not have. Otherwise a misspelt
 * `transport: 'htp'` would run in memory, and a test meant for HTTP pass without ever serving it.
 */
export function checkTestClientOptions(options: unknown, withApp: boolean): asserts options is TestClientOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(
      `createTestClient: the options must be an object such as { transport: 'http' } or { era: 'modern' }, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : optionValueText(options)}.`,
    );
  }
  const given = options as Record<string, unknown>;
  const { transport = 'memory' } = given;
  if (transport !== 'memory' && transport !== 'http' && transport !== 'stdio') {
    throw new ConfigError(
      `createTestClient: unknown transport ${optionValueText(transport)}. Use 'memory' (the default: the app in this process), 'http' (the app on a free port of 127.0.0.1) or 'stdio' (a server process: createTestClient({ transport: 'stdio', command, args }), without an app).`,
    );
  }
  if (transport === 'stdio' && withApp)
    throw new ConfigError("createTestClient: transport 'stdio' starts a server process: call createTestClient({ transport: 'stdio', command, args }) without an app.");
  if (transport === 'http' && given.overrides !== undefined)
    throw new ConfigError("createTestClient: overrides apply in memory (the default transport), where the test owns the server; over 'http' the listener builds its servers.");
  // An option of another transport is named with the transport it belongs to (one given as undefined is not given).
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || NAMES[transport].includes(name)) continue;
    const owner = (['memory', 'http', 'stdio'] as const).find((other) => NAMES[other].includes(name));
    if (owner) throw new ConfigError(`createTestClient: \`${name}\` is an option of ${SPELLED[owner]}, not of ${SPELLED[transport]}, so it would be ignored. Remove it, or ${HOW[owner]}.`);
  }
  refuseUnknownOptions(transport === 'memory' ? 'createTestClient' : `createTestClient({ transport: '${transport}' })`, given, NAMES[transport], 'the options are on the Testing page of the docs');
  if (given.era !== undefined && given.era !== 'legacy' && given.era !== 'modern')
    throw new ConfigError(`createTestClient: unknown era ${optionValueText(given.era)}. Use 'legacy' (2025-11-25, the default) or 'modern' (2026-07-28), or give protocol instead.`);
  if (transport === 'stdio' && given.stderr !== undefined && given.stderr !== 'inherit' && given.stderr !== 'ignore')
    throw new ConfigError(`createTestClient: unknown stderr ${optionValueText(given.stderr)}. Use 'inherit' (the server's logs shown, the default) or 'ignore' (dropped).`);
}

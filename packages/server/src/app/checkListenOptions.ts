import { ConfigError } from '@toolwright/core';
import { refuseUnknownOptions } from '@toolwright/core/internal';
import type { HttpListenOptions, StdioListenOptions } from './ListenOptions';

/** Every option of `app.listen({ transport: 'stdio' })`: the compiler fails here when the type gains or loses one. */
const STDIO = { transport: true, exitOnClose: true, drainTimeoutMs: true, authInfo: true, stdin: true, stdout: true } as const satisfies Record<keyof StdioListenOptions, true>;

/** The names each transport takes; the endpoint's are loaded with the HTTP listener (a stdio start runs no module of http/). */
const namesOf = (transport: 'stdio' | 'http'): readonly string[] =>
  transport === 'stdio' ? Object.keys(STDIO) : (require('../http/endpointOptionNames') as typeof import('../http/endpointOptionNames')).HTTP_LISTENER_OPTION_NAMES;

/**
 * Checks what `app.listen` was given before it starts anything: one options object with a known
 * `transport`, and no option that transport does not have (a misspelt `allowedHosts` or `auth`
 * would otherwise be ignored, and the server serve without the defence it names).
 */
export function checkListenOptions(options: unknown): asserts options is StdioListenOptions | HttpListenOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(
      `Toolwright: app.listen takes one options object: app.listen({ transport: 'stdio' }) or app.listen({ transport: 'http', port: 3000 }) (got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}).`,
    );
  }
  const { transport } = options as { transport?: unknown };
  if (transport !== 'stdio' && transport !== 'http') {
    throw new ConfigError(`Toolwright: unknown transport ${transport === undefined ? '(none given)' : `'${String(transport)}'`}. Use 'stdio' or 'http'.`);
  }
  refuseUnknownOptions(
    `app.listen({ transport: '${transport}' })`,
    options,
    namesOf(transport),
    transport === 'http' ? 'the options are on the Streamable HTTP page of the docs' : 'the options are on the Transports page of the docs',
  );
}

import { ConfigError } from '@toolwright/core';
import { refuseUnknownOptions, SERVER_INFO_SHAPE, shapeProblem } from '@toolwright/core/internal';
import type { AppOptions } from './AppOptions';

const EXAMPLE = "createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools] })";

/** Every option `createApp` takes: the compiler fails here when `AppOptions` gains or loses one. */
const KNOWN = {
  name: true,
  version: true,
  title: true,
  description: true,
  websiteUrl: true,
  icons: true,
  instructions: true,
  tools: true,
  mount: true,
  extensions: true,
  services: true,
  onStart: true,
  onShutdown: true,
  container: true,
  coerce: true,
  cwd: true,
  logger: true,
  pageSize: true,
  logLevel: true,
  listChangedDebounceMs: true,
  cache: true,
  middleware: true,
  timeoutMs: true,
  toolTimeoutMs: true,
  guardTimeoutMs: true,
  requestState: true,
  telemetry: true,
  fastPaths: true,
  maxUriLength: true,
  maxLogLength: true,
  scopeHints: true,
  oauth: true,
} as const satisfies Record<keyof AppOptions, true>;
const KNOWN_NAMES: readonly string[] = Object.keys(KNOWN);

/** The options whose value is one kind of thing, checked here; the others have checks of their own where they are used. */
const KINDS: readonly (readonly [keyof AppOptions, 'boolean' | 'function' | 'string' | 'object', string])[] = [
  ['coerce', 'boolean', 'coerce: true'],
  ['fastPaths', 'boolean', 'fastPaths: false'],
  ['scopeHints', 'boolean', 'scopeHints: true'],
  ['onStart', 'function', 'onStart: async () => { await db.connect(); }'],
  ['onShutdown', 'function', 'onShutdown: async () => { await db.close(); }'],
  ['cwd', 'string', 'cwd: __dirname'],
  ['cache', 'object', 'cache: { lists: { ttlMs: 60_000 } }'],
  ['requestState', 'object', 'requestState: { keys: [process.env.STATE_KEY] }'],
  ['telemetry', 'object', 'telemetry: { recordArguments: true }'],
  ['oauth', 'object', 'oauth: createOAuthServer({ ... })'],
];

/**
 * Checks `createApp`'s options before anything is built, each refusal a `ConfigError` naming the
 * option and the fix:
 * - an option `createApp` does not know (a typo such as `timeoutMS` would otherwise be ignored);
 * - what every client checks in `serverInfo` at `initialize`: without a name or version, or with a
 *   `title` or icon of another type (from JavaScript, or a cast), the app would build and every
 *   connection then fail with the client's own error;
 * - options of another kind than they take (`coerce: 'yes'`, `onStart: 'init'`, `services: [42]`).
 */
export function checkAppOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(`Toolwright: createApp takes one options object, e.g. ${EXAMPLE} (got ${describe(options)}).`);
  }
  refuseUnknownOptions('createApp', options, KNOWN_NAMES, 'the options are listed on the App options page of the docs');
  const values = options as Record<string, unknown>;
  for (const [key, example] of [
    ['name', "name: 'weather'"],
    ['version', "version: '1.0.0'"],
  ] as const) {
    const value = values[key];
    if (typeof value !== 'string' || value.trim() === '') {
      const got = value === undefined ? 'missing' : typeof value === 'string' ? (value === '' ? 'an empty string' : 'blank') : `${describe(value)}, not a string`;
      throw new ConfigError(`Toolwright: createApp's \`${key}\` is ${got}. Clients receive it in serverInfo.${key} and refuse a server without it: give a non-empty string, e.g. ${example}.`);
    }
  }
  const problem = shapeProblem(options, SERVER_INFO_SHAPE);
  if (problem) throw new ConfigError(`Toolwright: createApp's option ${problem}. Clients check the server's info at initialize and refuse it whole: give it the type MCP gives it.`);
  for (const [key, kind, example] of KINDS) {
    const value = values[key];
    if (value === undefined || kindOf(value) === kind) continue;
    throw new ConfigError(`Toolwright: createApp's \`${key}\` is ${describe(value)}, not ${kind === 'object' ? 'an object' : `a ${kind}`}. Write e.g. ${example}, or leave it out.`);
  }
  const services = values.services;
  if (services !== undefined) {
    if (!Array.isArray(services)) throw new ConfigError(`Toolwright: createApp's \`services\` is ${describe(services)}, not a list of classes. Write e.g. services: [Database], or leave it out.`);
    const index = services.findIndex((service) => typeof service !== 'function');
    if (index >= 0) {
      throw new ConfigError(
        `Toolwright: createApp's \`services[${index}]\` is ${describe(services[index])}, not a class. Pass the classes whose @OnStart()/@OnShutdown() methods run with the app (an undefined one is often a circular import).`,
      );
    }
  }
}

function kindOf(value: unknown): string {
  return value === null || Array.isArray(value) ? 'list or null' : typeof value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
  return `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`;
}

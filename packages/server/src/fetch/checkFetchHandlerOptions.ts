import type { HandlerOptionCheck } from '../ground/HandlerOptionCheck';
import { refuseUnknownOptions } from '@toolwright/core/internal';
import type { EndpointOptions } from '../http/EndpointOptions';
import { ENDPOINT_OPTION_NAMES } from '../http/endpointOptionNames';
import type { FetchHandlerOptions } from './FetchHandlerOptions';

/** The fetch handler's own options, beside the endpoint's: the compiler fails here when `FetchHandlerOptions` gains one. */
const OWN_OPTIONS = { logError: true } as const satisfies Record<Exclude<keyof FetchHandlerOptions, keyof EndpointOptions<Request>>, true>;
const OPTION_NAMES = [...ENDPOINT_OPTION_NAMES, ...Object.keys(OWN_OPTIONS)];

/**
 * Throws a `ConfigError` when `options` has a name that neither `createFetchHandler` nor `check.own`
 * takes, naming the nearest one: a misspelt `allowedHosts` or `auth` would otherwise be ignored, and
 * the endpoint served without the defence it names. `createFetchHandler` checks its own options; an
 * adapter that passes its options on checks them first, so the error names the call the app made:
 * `checkFetchHandlerOptions(options, { call: 'toolwrightMiddleware (@toolwright/hono)', own: ['drainTimeoutMs'], docsPage: 'Hono' })`.
 */
export function checkFetchHandlerOptions(options: object, check: HandlerOptionCheck = { call: 'createFetchHandler' }): void {
  const known = check.own ? [...OPTION_NAMES, ...check.own] : OPTION_NAMES;
  refuseUnknownOptions(check.call, options, known, `the options are on the ${check.docsPage ?? 'Fetch handler'} page of the docs`);
}

import type { HandlerOptionCheck } from '../ground/HandlerOptionCheck';
import { refuseUnknownOptions } from '@toolwright/core/internal';
import { HTTP_HANDLER_OPTION_NAMES } from './endpointOptionNames';

/**
 * Throws a `ConfigError` when `options` has a name that neither `createHttpHandler` nor `check.own`
 * takes, naming the nearest one: a misspelt `allowedHosts` or `auth` would otherwise be ignored, and
 * the endpoint served without the defence it names. `createHttpHandler` checks its own options; an
 * adapter that passes its options on checks them first, so the error names the call the app made:
 * `checkHttpHandlerOptions(options, { call: 'toolwrightMiddleware (@toolwright/express)', own: ['drainTimeoutMs'], docsPage: 'Express' })`.
 */
export function checkHttpHandlerOptions(options: object, check: HandlerOptionCheck = { call: 'createHttpHandler' }): void {
  const known = check.own ? [...HTTP_HANDLER_OPTION_NAMES, ...check.own] : HTTP_HANDLER_OPTION_NAMES;
  refuseUnknownOptions(check.call, options, known, `the options are on the ${check.docsPage ?? 'Streamable HTTP'} page of the docs`);
}

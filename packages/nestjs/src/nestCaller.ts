import type { LoggerService } from '@nestjs/common';
import type { AuthInfo } from '@toolwright/core';
import type { AuthInfoFrom } from './ToolwrightModuleOptions';
import { nestRefusal, type GuardRefusal } from './nestRefusal';
import { ConfigError } from '@toolwright/core';

/** The node request the endpoint serves, where Toolwright reads the caller (`req.auth`, the SDK's convention). */
export interface CallerCarrier {
  auth?: AuthInfo;
}

/**
 * Runs the module's `authInfoFrom` on a request the global guards allowed and puts the caller it
 * names on the node request the endpoint serves (`raw.auth`), where every era, the legacy SSE
 * paths, sessions (bound to the caller) and `ctx.authInfo` read it; `undefined` is an anonymous
 * caller, whatever was on the request before. An error it throws is answered as a guard's; a
 * value that is not an `AuthInfo` is a 500, logged with what is wrong with it.
 */
export function nestCaller(authInfoFrom: AuthInfoFrom, logger: LoggerService): (request: object, raw: CallerCarrier, where: string) => Promise<GuardRefusal | undefined> {
  return async (request, raw, where) => {
    let given: unknown;
    try {
      given = await authInfoFrom(request as Parameters<AuthInfoFrom>[0]);
      const wrong = given === undefined ? undefined : whatIsWrong(given);
      if (wrong)
        throw new ConfigError(
          `authInfoFrom returned ${wrong}. Return { token, clientId, scopes } (an AuthInfo: strings, scopes a string array, extra.sub the user), or undefined for an anonymous caller.`,
        );
    } catch (error) {
      return nestRefusal(error, 'the ToolwrightModule option authInfoFrom', where, logger);
    }
    raw.auth = given as AuthInfo | undefined;
    return undefined;
  };
}

/** What keeps a value from being an `AuthInfo` Toolwright can bind sessions and rules to, or undefined when it is one. */
function whatIsWrong(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object`;
  const info = value as Partial<Record<keyof AuthInfo, unknown>>;
  if (typeof info.token !== 'string') return `an object whose token is ${typeof info.token}, not a string`;
  if (typeof info.clientId !== 'string' || info.clientId === '') return 'an object without a clientId (a non-empty string)';
  if (!Array.isArray(info.scopes) || !info.scopes.every((scope) => typeof scope === 'string')) return 'an object whose scopes is not an array of strings';
  if (info.expiresAt !== undefined && (typeof info.expiresAt !== 'number' || !Number.isFinite(info.expiresAt))) return 'an object whose expiresAt is not a number of seconds';
  if (info.extra !== undefined && (typeof info.extra !== 'object' || info.extra === null)) return 'an object whose extra is not an object';
  return undefined;
}

import type { Class } from './Class';

/** How long an instance of a service lives: the app's life (the default), a session's, or one request's. */
export type ServiceLifetime = 'app' | 'session' | 'request';

/** What a constructor parameter marked `@FromCall(...)` receives: the call's context, its caller, or its session. */
export type CallValue = 'context' | 'caller' | 'session';

/** Reflect metadata keys (own metadata of the class). */
export const LIFETIME_KEY = 'toolwright:lifetime';
export const CALL_VALUES_KEY = 'toolwright:call-values';

/** The lifetime `@Scoped` gave the class; 'app' when it has none. */
export function lifetimeOf(cls: Class): ServiceLifetime {
  return (Reflect.getOwnMetadata(LIFETIME_KEY, cls) as ServiceLifetime | undefined) ?? 'app';
}

/** The constructor parameters of `cls` marked `@FromCall`, by index. */
export function callValuesOf(cls: Class): ReadonlyMap<number, CallValue> {
  return (Reflect.getOwnMetadata(CALL_VALUES_KEY, cls) as Map<number, CallValue> | undefined) ?? new Map();
}

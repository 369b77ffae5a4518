import { LIFETIME_KEY, type ServiceLifetime } from '../metadata/ServiceLifetime';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Gives a class a shorter life than the app's: a new instance per `'request'` (each tool
 * call, resource read and prompt get) or per `'session'` (a 2025-era session; on stdio the
 * connection; a 2026-07-28 request has no session, so there it lives for the request).
 * Toolwright builds it from its constructor types, asking the app's container for
 * app-lifetime dependencies, and calls its `dispose()` (else its `[Symbol.asyncDispose]()` or
 * `[Symbol.dispose]()`, if any) when the request or session ends. A class that injects a
 * scoped service must be scoped itself.
 *
 * @example
 * ＠Scoped('request')
 * class Transaction { constructor(private readonly db: Database, ＠FromCall('caller') caller: AuthInfo) {} dispose() { ... } }
 */
export function Scoped(lifetime: Exclude<ServiceLifetime, 'app'>): ClassDecorator {
  return ((target: object, context?: unknown) => {
    refuseStandardDecorator(`@Scoped('${lifetime}')`, context);
    Reflect.defineMetadata(LIFETIME_KEY, lifetime, target);
  }) as ClassDecorator;
}

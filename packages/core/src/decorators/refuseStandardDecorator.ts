import { ConfigError } from '../errors/ConfigError';

/**
 * Throws when a Toolwright decorator is called the standard (TC39) way: with
 * `experimentalDecorators` off, TypeScript passes a context object (`{ kind, name, ... }`)
 * as the second argument, drops parameter decorators and emits no `design:*` metadata, so
 * nothing Toolwright would read is recorded. Failing here, at class definition, names the
 * setting instead of a later "has no @Tool methods".
 */
export function refuseStandardDecorator(decorator: string, second: unknown): void {
  if (typeof second !== 'object' || second === null || !('kind' in second)) return;
  const { kind, name } = second as { kind?: unknown; name?: unknown };
  const on = typeof name === 'string' ? ` on ${String(kind)} '${name}'` : '';
  throw new ConfigError(
    `${decorator} was called as a standard (TC39) decorator${on}, but Toolwright needs TypeScript's legacy decorators and the type metadata they emit. ` +
      'Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json, and compile with tsc (or swc with legacyDecorator and decoratorMetadata); esbuild, tsx and vitest emit no decorator metadata.',
  );
}

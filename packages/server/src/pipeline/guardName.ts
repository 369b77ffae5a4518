import type { Guard } from '@toolwright/core';

/** How a log line names a guard: `guard class TenantGuard`, `guard function isAdmin`, or an anonymous one. */
export function guardName(guard: Guard): string {
  const name = typeof guard.name === 'string' && guard.name !== '' ? guard.name : undefined;
  if (typeof (guard as { prototype?: { canActivate?: unknown } }).prototype?.canActivate === 'function') return `guard class ${name ?? '(anonymous)'}`;
  return name ? `guard function ${name}` : 'an anonymous guard function';
}

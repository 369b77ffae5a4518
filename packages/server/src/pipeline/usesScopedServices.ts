import { type Class, type Middleware, type Registry } from '@toolwright/core';
import { lifetimeOf } from '@toolwright/core/internal';

/** Whether a served class, or a middleware or guard class, has a request or session lifetime: then calls open a container. */
export function usesScopedServices(registry: Registry, appMiddleware: readonly Middleware[]): boolean {
  const members = [...registry.tools, ...registry.resources, ...registry.resourceTemplates, ...registry.prompts];
  const classes: unknown[] = [...appMiddleware, ...members.flatMap((m) => [m.target, ...(m.pipeline?.middleware ?? []), ...(m.pipeline?.guards ?? [])])];
  return classes.some((c) => typeof c === 'function' && lifetimeOf(c as Class) !== 'app');
}

import { ConfigError, type ContainerLike, type Guard, type MemberAccess } from '@toolwright/core';
import { isGuardClass, lifetimeOf } from '@toolwright/core/internal';

const scopedGuards = new WeakMap<readonly Guard[], boolean>();

/** Whether one of `guards` is a class marked `@Scoped`, built per check by a request scope (read once per member's guards). */
export function hasScopedGuard(guards: readonly Guard[]): boolean {
  let scoped = scopedGuards.get(guards);
  if (scoped === undefined) {
    scoped = guards.some((guard) => isGuardClass(guard) && lifetimeOf(guard) !== 'app');
    scopedGuards.set(guards, scoped);
  }
  return scoped;
}

/**
 * What builds guard classes when one is `@Scoped`: the app's container builds the unscoped ones,
 * once for the app as always; `scope()` (the call's container, opened at first need) builds the
 * scoped ones and what they inject.
 */
export function guardContainer(app: ContainerLike, scope: () => ContainerLike): ContainerLike {
  return { get: (cls) => (lifetimeOf(cls) === 'app' ? app : scope()).get(cls) };
}

/** The `@FromCall('context')` of a class built while guards decide: there is no call context yet, so it is refused, naming the member and the fix. */
export function noContextForGuards(access: MemberAccess): never {
  throw new ConfigError(
    `A guard of ${access.kind} '${access.name}' (or a service it injects) takes @FromCall('context'), but guards decide before the call's context exists. ` +
      `Read what the guard needs from its MemberAccess argument, or take @FromCall('caller') or @FromCall('session') instead.`,
  );
}

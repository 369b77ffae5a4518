import type { ContainerLike } from '../container/ContainerLike';
import type { Class } from '../metadata/Class';
import type { Guard, GuardClass, GuardFn } from './Guard';
import type { MemberAccess } from './MemberCall';

/** How the caller waits for a guard's pending verdict: the verdict itself, or a wait that ends sooner (a deadline, a cancel) by rejecting. */
export type GuardWait = (verdict: PromiseLike<unknown>, guard: Guard) => PromiseLike<unknown>;

/**
 * Whether every guard lets `access` through, in order, stopping at the first refusal.
 * A class guard is built by the container. Synchronous while the guards are; a guard that
 * throws refuses (and the error is the caller's to log). A pending verdict is awaited
 * through `wait` (default: as it is), which names the guard being waited for.
 */
export function checkGuards(guards: readonly Guard[], access: MemberAccess, container: ContainerLike, wait?: GuardWait): boolean | Promise<boolean> {
  for (let i = 0; i < guards.length; i++) {
    const verdict = runGuard(guards[i], access, container);
    if (verdict === false) return false;
    if (verdict !== true) {
      const pending = Promise.resolve(verdict);
      return Promise.resolve(wait ? wait(pending, guards[i]) : pending).then((ok) => (ok === true ? checkGuards(guards.slice(i + 1), access, container, wait) : false));
    }
  }
  return true;
}

function runGuard(guard: Guard, access: MemberAccess, container: ContainerLike): unknown {
  if (isGuardClass(guard)) return container.get(guard).canActivate(access);
  return (guard as GuardFn)(access);
}

/** A class whose instances have `canActivate(access)`; a plain function has no such prototype method. */
export function isGuardClass(guard: Guard): guard is Class<GuardClass> {
  return typeof (guard as { prototype?: { canActivate?: unknown } }).prototype?.canActivate === 'function';
}

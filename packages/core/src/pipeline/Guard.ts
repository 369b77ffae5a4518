import type { Class } from '../metadata/Class';
import type { MemberAccess } from './MemberCall';

/**
 * Decides whether a caller may see and use a member. Called when a list is served (to hide
 * the member) and before every call (to refuse it), with the same `access` both times, so
 * a guard decides on who asks, never on arguments.
 */
export type GuardFn = (access: MemberAccess) => boolean | Promise<boolean>;

/** A guard class: built by the app's container (so it gets injected services), then `canActivate` runs. */
export interface GuardClass {
  canActivate(access: MemberAccess): boolean | Promise<boolean>;
}

/** A guard function, or a class the container builds. */
export type Guard = GuardFn | Class<GuardClass>;

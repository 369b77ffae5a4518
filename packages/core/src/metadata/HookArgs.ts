import type { Class } from './Class';
import { readOwnList } from './ownMetadata';

/** Reflect metadata key for `@OnStart` / `@OnShutdown` records (own metadata of the class). */
export const HOOKS_KEY = 'toolwright:hooks';

/** What `@OnStart` and `@OnShutdown` record. */
export interface HookArgs {
  readonly when: 'start' | 'shutdown';
  readonly methodName: string;
}

/** The hook methods of a class and its ancestors, ancestors first. */
export function readHooks(cls: Class): HookArgs[] {
  const chain: Class[] = [];
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c as Class);
  const seen = new Set<string>();
  return chain.flatMap((owner) => readOwnList<HookArgs>(HOOKS_KEY, owner)).filter((h) => !seen.has(`${h.when}:${h.methodName}`) && seen.add(`${h.when}:${h.methodName}`));
}

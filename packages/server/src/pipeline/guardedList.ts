import type { Connection } from './Connection';
import type { ServerContext } from '../sdk/sdk';
import { passesMemberGuards } from './passesMemberGuards';
import type { PipelineEnv } from './PipelineEnv';
import type { MemberRef } from './ServedMember';

const hasGuards = new WeakMap<object, boolean>();

/**
 * A list page without the members whose guards refuse this caller. A page none of whose
 * members has guards is returned as is (one WeakMap lookup: pages are cached objects).
 * The guards of all members decide at once, each within `listGuardLimits`: a member whose
 * guard has not decided by then is left out, and the rest of the list is answered.
 */
export function guardedList<K extends string, T, P extends { readonly [k in K]: readonly T[] }>(
  page: P,
  key: K,
  refOf: (item: T) => MemberRef | undefined,
  sdk: ServerContext,
  connection: Connection,
  env: PipelineEnv,
): P | Promise<P> {
  let guarded = hasGuards.get(page);
  if (guarded === undefined) {
    guarded = page[key].some((item) => (refOf(item)?.member.pipeline?.guards.length ?? 0) > 0);
    hasGuards.set(page, guarded);
  }
  if (!guarded) return page;
  const items = page[key];
  const verdicts = items.map((item) => {
    const ref = refOf(item);
    const guards = ref?.member.pipeline?.guards;
    return ref && guards && guards.length > 0 ? passesMemberGuards(ref, guards, sdk, connection, env) : true;
  });
  return Promise.all(verdicts).then((ok) => ({ ...page, [key]: items.filter((_, i) => ok[i]) }));
}

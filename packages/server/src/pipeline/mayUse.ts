import { callerOf, canAccess } from '../auth/canAccess';
import type { Connection } from './Connection';
import type { ServerContext } from '../sdk/sdk';
import { passesMemberGuards } from './passesMemberGuards';
import type { PipelineEnv } from './PipelineEnv';
import type { MemberRef } from './ServedMember';

/**
 * Whether this request's caller may use the member at all (its access rules and guards), for
 * what comes before a call: completing its arguments, subscribing to a resource. Its guards
 * decide as for a list (`passesMemberGuards`).
 */
export async function mayUse(ref: MemberRef, sdk: ServerContext, connection: Connection, env: PipelineEnv): Promise<boolean> {
  if (!canAccess(ref.member.access, callerOf(sdk))) return false;
  const guards = ref.member.pipeline?.guards;
  return !guards?.length || passesMemberGuards(ref, guards, sdk, connection, env);
}

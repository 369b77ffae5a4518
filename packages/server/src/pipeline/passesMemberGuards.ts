import type { Guard } from '@toolwright/core';
import type { ServerContext } from '../sdk/sdk';
import type { Connection } from './Connection';
import { guardContainer, hasScopedGuard, noContextForGuards } from './guardContainer';
import { memberAccessOf } from './memberAccessOf';
import { listGuardLimits, passesGuards } from './passesGuards';
import type { CallContainer, PipelineEnv } from './PipelineEnv';
import type { MemberRef } from './ServedMember';

/**
 * Whether `guards` let this request's caller see or use the member, before any call of it (a
 * list, a completion, a subscription), within the limits of a list (`listGuardLimits`). A
 * `@Scoped` guard class is built by a request scope of this check's own, opened at first need
 * and disposed once every guard has settled (a guard that missed its deadline may still be
 * running when the check answers); unscoped guard classes, by the app's container.
 */
export async function passesMemberGuards(ref: MemberRef, guards: readonly Guard[], sdk: ServerContext, connection: Connection, env: PipelineEnv): Promise<boolean> {
  const access = memberAccessOf(ref, sdk, connection);
  const limits = listGuardLimits(sdk.mcpReq.signal, ref, env);
  if (!hasScopedGuard(guards)) return (await passesGuards(guards, access, env, limits)).passed;
  let opened: CallContainer | undefined;
  const scope = () => (opened ??= env.openContainer(access, connection, () => noContextForGuards(access))).container;
  const { passed, settled } = await passesGuards(guards, access, env, limits, guardContainer(env.container, scope));
  const used = opened;
  if (used) void settled.then(() => used.release());
  return passed;
}

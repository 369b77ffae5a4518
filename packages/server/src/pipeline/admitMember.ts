import type { MemberAccess, ToolContext } from '@toolwright/core';
import { callerOf, canAccess } from '../auth/canAccess';
import type { ServerContext } from '../sdk/sdk';
import type { Connection } from './Connection';
import { guardContainer, hasScopedGuard, noContextForGuards } from './guardContainer';
import { memberAccessOf } from './memberAccessOf';
import { memberTimeoutOf } from './memberTimeoutOf';
import { guardTimeoutOf, passesGuards } from './passesGuards';
import type { CallContainer, PipelineEnv } from './PipelineEnv';
import type { MemberRef } from './ServedMember';

/**
 * A caller that a member's access rules and guards let through in one request (`admitMember`).
 * The request's calls of the member take it instead of running the guards again (`serveMember`).
 */
export interface MemberAdmission {
  /** Who asks for which member in the request the guards decided on. */
  readonly access: MemberAccess;
  /** How long the guards took to decide, in ms: the member's timeout counts their time, and no one else's. */
  readonly guardsTook: number;
  /**
   * The call's container when a `@Scoped` guard class opened it, for the first call that takes
   * it (`takeContainer`); a later call of the same request opens its own.
   */
  takeContainer(): CallContainer | undefined;
  /** Sets the context the taken container's classes read as `@FromCall('context')` (the call's, once it exists). */
  bindContext(context: ToolContext | undefined): void;
  /** Releases the container the guards opened when no call took it (an extension that never ran the call, say). */
  releaseUntaken(): void;
}

/** A member and the error a caller its rules or guards refuse gets (the answer for a name the app does not serve). */
export interface AdmittedMember extends MemberRef {
  readonly unknown: () => Error;
}

/**
 * Runs a member's access rules and guards once for this request, as its call does: the guards
 * decide within the member's timeout (which counts their time) or, without one, within
 * its `guardTimeoutMs`, and a `@Scoped` guard class is built by the call's container, opened
 * here. Rejects with `member.unknown()` when they refuse the caller.
 */
export async function admitMember(member: AdmittedMember, sdk: ServerContext, connection: Connection, env: PipelineEnv): Promise<MemberAdmission> {
  const served = member.member;
  if (served.access && !canAccess(served.access, callerOf(sdk))) throw member.unknown();
  const access = memberAccessOf(member, sdk, connection);
  const started = Date.now();
  let context: ToolContext | undefined;
  let opened: CallContainer | undefined;
  let taken = false;
  let guardsTook = 0;
  const admission: MemberAdmission = {
    access,
    get guardsTook() {
      return guardsTook;
    },
    takeContainer: () => {
      if (taken) return undefined;
      taken = true;
      return opened;
    },
    bindContext: (ctx) => void (context = ctx),
    releaseUntaken: () => {
      if (taken) return;
      taken = true;
      opened?.release();
    },
  };
  const guards = served.pipeline?.guards ?? [];
  if (guards.length === 0) return admission;
  const open = () => (opened ??= env.openContainer(access, connection, () => context ?? noContextForGuards(access))).container;
  const container = hasScopedGuard(guards) ? guardContainer(env.container, open) : env.container;
  const guardTimeoutMs = guardTimeoutOf(served, env);
  const timeoutMs = memberTimeoutOf(member, env) ?? guardTimeoutMs;
  let decided: Awaited<ReturnType<typeof passesGuards>>;
  try {
    decided = await passesGuards(guards, access, env, { signal: sdk.mcpReq.signal, timeoutMs, guardTimeoutMs }, container);
  } catch (error) {
    // The decision itself failed (a logger that throws while it records a guard's error): no call takes the container.
    opened?.release();
    throw error;
  }
  const { passed, settled } = decided;
  guardsTook = Date.now() - started;
  if (passed) return admission;
  // A guard that missed its deadline may still be running: the container it was built by outlives it.
  const scope = opened;
  if (scope) void settled.then(() => scope.release());
  throw member.unknown();
}

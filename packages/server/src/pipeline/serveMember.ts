import { type AuthInfo, type MemberAccess, type MemberCall, type ToolContext } from '@toolwright/core';
import { argumentDepthIssue, composeMiddleware, type CallScope, type MiddlewareChain } from '@toolwright/core/internal';
import { callerOf, canAccess } from '../auth/canAccess';
import type { Connection } from './Connection';
import { createToolContext } from './createToolContext';
import { bindCallRound } from './callRound';
import { runWithRounds, type SdkRound } from './runWithRounds';
import type { InputRequest, ServerContext } from '../sdk/sdk';
import type { InputRequiredAnswer } from '../roundtrip/runRound';
import { memberAccessOf } from './memberAccessOf';
import type { MemberAdmission } from './admitMember';
import { decideAdmission } from './decideAdmission';
import { hasScopedGuard, noContextForGuards } from './guardContainer';
import { memberTimeoutOf } from './memberTimeoutOf';
import type { CallContainer, PipelineEnv } from './PipelineEnv';
import type { MemberRef } from './ServedMember';
import { withTimeout } from './withTimeout';

/** One call of a member, as its protocol handler hands it to the pipeline. */
export interface MemberRequest<R> extends MemberRef {
  /**
   * The error for a name this server does not serve. A caller the member's access rules or
   * guards refuse gets exactly this error, so a hidden member cannot be told from a missing one.
   */
  readonly unknown: () => Error;
  /** The protocol method, for the binding of a 2026-07-28 round's state. */
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The arguments as sent, for the round binding. */
  readonly args: unknown;
  /** For a resource read: the URI asked for. */
  readonly uri?: string;
  /** Runs the compiled member with its context (when it takes one) and the scope (middleware, container). */
  readonly run: (ctx: ToolContext | undefined, scope: CallScope | undefined) => Promise<R>;
  /** The answer when the call outlives its timeout (a result, or a rejection with a protocol error). */
  readonly timedOut: (timeoutMs: number) => R | Promise<R>;
  /**
   * The answer when the guard step fails for another reason than a refusal (already logged):
   * the generic internal error a failing call gets, which gives nothing of the failure away.
   */
  readonly failed: () => R | Promise<R>;
}

export type MemberAnswer<R> = R | InputRequiredAnswer<InputRequest>;

const chains = new WeakMap<object, MiddlewareChain | false>();

/**
 * The one path of every tool call, resource read and prompt get: access rules and guards
 * (a refused caller gets the answer for an unknown name; a guard step that fails otherwise, the
 * generic internal error, logged; guards decide within the member's timeout, which counts
 * their time, or the app's `guardTimeoutMs` without one; a
 * `@Scoped` guard class is built by the call's container, which then opens before them),
 * the call context, 2026-07-28 rounds, the timeout, the per-call container, the middleware
 * chain, and in-flight tracking for the drain. A call ends when its request does (a cancel,
 * a closed connection, its timeout), whether or not its method heeds its signal: its context
 * and per-call container are closed then. A member with none of these (no rules, no
 * `@Ctx()`, no timeout, no middleware, no scoped services) runs its compiled call alone.
 */
export function serveMember<R>(request: MemberRequest<R>, sdk: ServerContext, connection: Connection, env: PipelineEnv): Promise<MemberAnswer<R>> {
  const { member } = request;
  const caller = callerOf(sdk);
  if (member.access && !canAccess(member.access, caller)) throw request.unknown();
  if (runsAlone(request, connection.overrides, env)) return env.inFlight.track(request.run(undefined, undefined));
  const guarded = (member.pipeline?.guards.length ?? 0) > 0;
  return env.inFlight.track(servePiped(request, sdk, connection, env, chainOf(member, env), memberTimeoutOf(request, env), guarded, undefined));
}

/**
 * `serveMember` for a request whose access rules and guards already decided (`admitMember`, in
 * the same request): the call runs without deciding again, and takes over the container a
 * `@Scoped` guard class opened. The member's timeout counts the guards' time (`guardsTook`).
 */
export function serveAdmitted<R>(request: MemberRequest<R>, admission: MemberAdmission, sdk: ServerContext, connection: Connection, env: PipelineEnv): Promise<MemberAnswer<R>> {
  const { member } = request;
  const guarded = (member.pipeline?.guards.length ?? 0) > 0;
  return env.inFlight.track(servePiped(request, sdk, connection, env, chainOf(member, env), memberTimeoutOf(request, env), guarded, admission));
}

/**
 * The fast path of `serveMember` without an SDK request context, for a caller that serves a
 * request before (or instead of) the SDK: the member's compiled call alone, counted in
 * flight, when `caller` may use it and the member runs alone. Undefined otherwise: then the
 * request takes the SDK's path and `serveMember`, which gives the same answer.
 */
export function serveAlone<R>(ref: MemberRef, caller: AuthInfo | undefined, overrides: unknown, env: PipelineEnv, run: () => Promise<R>): Promise<R> | undefined {
  if (ref.member.access && !canAccess(ref.member.access, caller)) return undefined;
  return runsAlone(ref, overrides, env) ? env.inFlight.track(run()) : undefined;
}

/** Whether a member needs nothing of the pipeline (no guard, middleware, context, timeout, scoped services or overrides): its compiled call alone answers. */
function runsAlone(ref: MemberRef, overrides: unknown, env: PipelineEnv): boolean {
  const { member } = ref;
  if (member.usesContext || overrides !== undefined || env.scopes.active || (member.pipeline?.guards.length ?? 0) > 0) return false;
  return memberTimeoutOf(ref, env) === undefined && !chainOf(member, env);
}

async function servePiped<R>(
  request: MemberRequest<R>,
  sdk: ServerContext,
  connection: Connection,
  env: PipelineEnv,
  chain: MiddlewareChain | undefined,
  timeoutMs: number | undefined,
  guarded: boolean,
  admitted: MemberAdmission | undefined,
): Promise<MemberAnswer<R>> {
  const { member } = request;
  const scopedGuard = guarded && hasScopedGuard(member.pipeline!.guards);
  const scoped = scopedGuard || env.scopes.active || connection.overrides !== undefined;
  // The guards decide once per request: here, unless the request's handler had them decide before (`decideAdmission`).
  let admission = admitted;
  if (!admission && guarded) {
    const decided = await decideAdmission(request, sdk, connection, env);
    if ('refusal' in decided) throw decided.refusal;
    if ('failed' in decided) return request.failed();
    admission = decided.admission;
  }
  // Who asks for what: read once, and only when a guard, the container or middleware needs it.
  const access = admission?.access ?? (scoped || chain ? memberAccessOf(request, sdk, connection) : undefined);
  const requestSignal = sdk.mcpReq.signal;
  // The call's container, opened once: by a @Scoped guard class (the admission's), else when the call starts.
  // Its `@FromCall('context')` is the call's context, which exists once the guards have decided.
  let context: ToolContext | undefined;
  // A container the guards opened is the call's to release once the call starts, and released here when it never does.
  const byGuards = admission?.takeContainer();
  let opened: CallContainer | undefined = byGuards;
  const openContainer = () => (opened ??= env.openContainer(access!, connection, () => context ?? noContextForGuards(access!)));
  // The guards' own time counts against the member's timeout (an extension's time before it ran the call does not).
  const left = admission && timeoutMs !== undefined ? Math.max(0, timeoutMs - admission.guardsTook) : timeoutMs;
  const needsContext = member.usesContext || scoped;
  // A mounted app's members log within its own maxLogLength, when it set one.
  const maxLogLength = member.limits?.maxLogLength;
  const contextEnv = maxLogLength === undefined ? env : { ...env, maxLogLength };
  let callStarted = false;
  const attempt = (round: SdkRound | undefined, signal: AbortSignal): Promise<R> => {
    callStarted = true;
    const open = needsContext ? createToolContext(member.name, sdk, connection, contextEnv, signal, round) : undefined;
    context = open?.ctx;
    if (byGuards) admission!.bindContext(context);
    const called = scoped ? openContainer() : undefined;
    const container = called?.container ?? env.container;
    const scope: CallScope | undefined =
      chain || called
        ? {
            ...(called && { container }),
            ...(chain && { around: (args, inner, shape) => chain(bindCallRound(memberCallOf(access!, args, sdk, signal, request.uri, env), round), container, inner, shape) }),
          }
        : undefined;
    const ran = request.run(member.usesContext ? open!.ctx : undefined, scope);
    if (!open && !called) return ran;
    // Closed when the method settles, or when its call ends first (a method may ignore its signal).
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      signal.removeEventListener('abort', close);
      open?.close();
      called?.release();
    };
    signal.addEventListener('abort', close, { once: true });
    return ran.finally(close);
  };
  const once = (round: SdkRound | undefined): Promise<R> =>
    withTimeout(
      left,
      requestSignal,
      (signal) => attempt(round, signal),
      () => request.timedOut(timeoutMs!),
    );
  const answer = (): Promise<MemberAnswer<R>> => {
    if (!member.usesContext) return once(undefined);
    // The round's binding spells the arguments out level by level: arguments too deep for it
    // go straight to the compiled call, which refuses them naming where (MAX_ARGUMENT_DEPTH).
    if (connection.era === 'modern' && argumentDepthIssue(request.args)) return request.run(undefined, undefined);
    return runWithRounds(connection, sdk, env.requestState, request.method, request.uri ?? request.name, request.args, once);
  };
  return byGuards ? answer().finally(() => callStarted || byGuards.release()) : answer();
}

/** The app's middleware and the member's, composed once per member; undefined when there is none. */
function chainOf(member: MemberRef['member'], env: PipelineEnv): MiddlewareChain | undefined {
  let chain = chains.get(member);
  if (chain === undefined) {
    const list = [...env.middleware, ...(member.pipeline?.middleware ?? [])];
    chain = list.length > 0 && composeMiddleware(list);
    chains.set(member, chain);
  }
  return chain || undefined;
}

function memberCallOf(access: MemberAccess, args: Record<string, unknown>, sdk: ServerContext, signal: AbortSignal, uri: string | undefined, env: PipelineEnv): MemberCall {
  return { ...access, requestId: sdk.mcpReq.id, args, uri, meta: sdk.mcpReq._meta, signal, logger: env.logger };
}

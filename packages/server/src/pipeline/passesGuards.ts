import { type ContainerLike, type Guard, type MemberAccess } from '@toolwright/core';
import { checkGuards, type GuardWait } from '@toolwright/core/internal';
import { guardName } from './guardName';
import { memberTimeoutOf } from './memberTimeoutOf';
import type { PipelineEnv } from './PipelineEnv';
import type { MemberRef, ServedMember } from './ServedMember';

/**
 * How long a member's guards may take to decide when the member has no timeout, and at most
 * for a list (well inside the SDK client's 60 s request timeout, so one slow guard never
 * costs a caller the whole list), unless the app's `guardTimeoutMs` says otherwise.
 */
export const DEFAULT_GUARD_TIMEOUT_MS = 10_000;

/** What bounds the wait for guards: the request's signal (a client's cancel, a closed connection) and a time. */
export interface GuardLimits {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** The member's `guardTimeoutMs` (`guardTimeoutOf`), for the log line of a guard that did not decide in time. */
  readonly guardTimeoutMs: number;
}

/** What the guards decided, and when the last of them has settled. */
export interface GuardOutcome {
  /** Whether every guard let the caller through. */
  readonly passed: boolean;
  /**
   * Settles once no guard is still running: at once, unless the wait for a guard ended before
   * its verdict did (its deadline passed, or the request's signal aborted). A container that
   * built a guard is released only then, so the guard never uses a disposed service.
   */
  readonly settled: Promise<void>;
}

const SETTLED: Promise<void> = Promise.resolve();

/**
 * Whether the guards let `access` through. A guard that throws refuses, and the error goes to
 * the server log; so does a guard that has not decided within `timeoutMs` (the log line names
 * it). Once the request's signal aborts, the wait ends and the caller is refused: its answer
 * is no longer wanted, and a guard that never settles must not hold the request forever.
 * Guard classes are built by `container` (the app's unless a guard is `@Scoped`: `guardContainer`).
 */
export async function passesGuards(
  guards: readonly Guard[],
  access: MemberAccess,
  env: PipelineEnv,
  { signal, timeoutMs, guardTimeoutMs }: GuardLimits,
  container: ContainerLike = env.container,
): Promise<GuardOutcome> {
  const deadline = Date.now() + timeoutMs;
  let late: Guard | undefined;
  // The verdict of a guard the wait stopped waiting for: it may still be running.
  let abandoned: PromiseLike<unknown> | undefined;
  const wait: GuardWait = (verdict, guard) =>
    new Promise((resolve, reject) => {
      const done = (settle: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', ended);
        settle();
      };
      const ended = () =>
        done(() => {
          abandoned = verdict;
          resolve(false);
        });
      const timer = setTimeout(() => {
        late = guard;
        ended();
      }, deadline - Date.now());
      signal.addEventListener('abort', ended, { once: true });
      if (signal.aborted) ended();
      verdict.then(
        (ok) => done(() => resolve(ok)),
        (error: unknown) => done(() => reject(error)),
      );
    });
  const outcome = (passed: boolean): GuardOutcome => ({ passed, settled: abandoned ? settledOf(abandoned) : SETTLED });
  try {
    const ok = await checkGuards(guards, access, container, wait);
    if (late) {
      env.logger.error(
        `${guardName(late)} of ${access.kind} '${access.name}' did not decide within ${timeoutMs} ms; the caller is refused. ` +
          `Make it settle sooner, or give the ${access.kind} a larger timeoutMs (guards run within it; without one, within the app's guardTimeoutMs, ${guardTimeoutMs} ms, which also bounds a list).`,
      );
    }
    return outcome(ok);
  } catch (error) {
    env.logger.error(`a guard of ${access.kind} '${access.name}' threw; the caller is refused`, error);
    return outcome(false);
  }
}

/** Settles (never rejects) once `verdict` has: a guard's late failure is no one's answer any more. */
function settledOf(verdict: PromiseLike<unknown>): Promise<void> {
  return Promise.resolve(verdict).then(
    () => undefined,
    () => undefined,
  );
}

/** How long the member's guards may take without a timeout of its own: its app's `guardTimeoutMs` when it is mounted and that app set one, else the serving app's. */
export function guardTimeoutOf(member: ServedMember, env: Pick<PipelineEnv, 'guardTimeoutMs'>): number {
  return member.limits?.guardTimeoutMs ?? env.guardTimeoutMs;
}

/** The guard limits of a list, a completion or a subscription: the member's timeout, at most its `guardTimeoutMs` (`guardTimeoutOf`). */
export function listGuardLimits(signal: AbortSignal, ref: MemberRef, env: PipelineEnv): GuardLimits {
  const guardTimeoutMs = guardTimeoutOf(ref.member, env);
  return { signal, timeoutMs: Math.min(memberTimeoutOf(ref, env) ?? guardTimeoutMs, guardTimeoutMs), guardTimeoutMs };
}

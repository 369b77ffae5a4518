import type { MemberCall } from '@toolwright/core';
import type { SdkRound } from './runWithRounds';

const rounds = new WeakMap<MemberCall, SdkRound>();

/**
 * The 2026-07-28 round a call's middleware runs in, or undefined outside one (a 2025-era call,
 * a member without `@Ctx()`). The built-in middleware read it: a rate limit spends once per
 * call, not once per round; a cache keeps no result of a round that still asks the client
 * something (a method that caught its question's interrupt returns a result the client never
 * gets); timing reports such a round as interrupted, not failed.
 */
export function callRound(call: MemberCall): SdkRound | undefined {
  return rounds.get(call);
}

/** Records `round` as the round of `call` (see `callRound`), and returns `call`. */
export function bindCallRound(call: MemberCall, round: SdkRound | undefined): MemberCall {
  if (round) rounds.set(call, round);
  return call;
}

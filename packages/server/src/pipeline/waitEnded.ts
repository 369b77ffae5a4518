import { CallInterrupt } from '@toolwright/core';
import { cutText } from '@toolwright/core/internal';

/** How much of a cancellation's reason (the client's words) the message quotes. */
const MAX_REASON = 300;

/**
 * What a tool waiting for the client's answer to its `what` request (`ctx.elicit`, `ctx.sample`,
 * `ctx.listRoots` in the 2025 era) gets when its call ends first, `reason` being its signal's:
 * the client cancelled the call (`notifications/cancelled`), the call's timeout passed, or the
 * connection closed. Nothing went wrong in the tool, so it is a `CallInterrupt` (the framework
 * ending the call), which the invokers pass on rather than log as the tool's failure; nothing is
 * sent for a cancelled request (the SDK answers no request whose signal is aborted), and a timed-out
 * call has had its timeout result already. Its message says what ended the wait, for a tool that
 * catches it (and should rethrow it: `CallInterrupt.is(error)`).
 */
export function waitEnded(what: string, reason: unknown): CallInterrupt {
  const cancelled = (why: string) => `The client cancelled the call${why} while the tool waited for its answer to the ${what} request.`;
  const ended = (how: string) => `The call ${how} while the tool waited for the client's answer to the ${what} request.`;
  let message: string;
  // The SDK aborts a call the client cancelled with the reason it gave (a string), or with none.
  if (typeof reason === 'string') message = cancelled(` (${cutText(reason, MAX_REASON)})`);
  else if (isError(reason, 'AbortError')) message = cancelled('');
  // The call's own timeout (withTimeout): "timed out after N ms".
  else if (isError(reason, 'TimeoutError')) message = ended(reason.message);
  // Its connection closed ("Connection closed"), or whatever else aborted it.
  else if (reason instanceof Error) message = ended(`ended (${cutText(reason.message, MAX_REASON)})`);
  else message = ended('ended');
  return new CallInterrupt(message, reason === undefined ? undefined : { cause: reason });
}

function isError(value: unknown, name: string): value is Error {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === name && typeof (value as { message?: unknown }).message === 'string';
}

import type { RoundState } from './RequestStateCodec';
import { RoundTripError } from './RoundTripError';
import type { StateRoom } from './StateRoom';

/** How many answers the refusal names, largest first. */
const NAMED = 3;
const encoder = new TextEncoder();

/**
 * The refusal of a round whose sealed state (`bytes` long) would not fit `room`: JSON-RPC
 * -32602, as for any round the server cannot go on with, naming the limit and the answers that
 * take the most of the state (their `inputResponses` keys and sizes), so the client learns at
 * once why the call cannot finish instead of being handed a state it can never send back.
 */
export function stateTooLarge(answers: RoundState['answers'], bytes: number, room: StateRoom): RoundTripError {
  const sizes = Object.keys(answers)
    .map((key) => ({ key, size: encoder.encode(JSON.stringify(answers[key]![1]) ?? '').length }))
    .sort((a, b) => b.size - a.size);
  const named = sizes.slice(0, NAMED).map(({ key, size }) => `inputResponses['${key}'] (${size} bytes)`);
  const rest = sizes.slice(NAMED);
  if (rest.length > 0) named.push(`${rest.length} more (${rest.reduce((sum, { size }) => sum + size, 0)} bytes)`);
  return new RoundTripError(
    `The answers to this call's questions would make a requestState of ${bytes} bytes, ${room.why}. A requestState carries every answer accepted so far, encrypted, at about 4/3 of its size; ` +
      `the largest: ${named.join(', ')}. Send smaller answers, or ${room.raise}; then start the call again without requestState.`,
  );
}

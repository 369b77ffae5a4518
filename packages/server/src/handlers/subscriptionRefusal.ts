import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';

/** Resource subscriptions one connection (a session) may hold. */
export const MAX_SUBSCRIPTIONS = 100;
/** The longest URI one may subscribe to, in characters. */
export const MAX_SUBSCRIBED_URI_LENGTH = 2048;
/** Whether `text` holds a C0 control character or DEL. */
const hasControl = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
};

/**
 * Why a URI cannot be subscribed to whatever it names: it holds control characters (a line
 * break could smuggle several URIs into a store that lists them by lines), it is longer than
 * any subscribed URI may be, or the connection already holds the most subscriptions. Undefined
 * when it may be (existence, scopes and guards are checked apart).
 */
export function subscriptionRefusal(uri: string, held: ReadonlySet<string>): ProtocolError | undefined {
  if (hasControl(uri))
    return new ProtocolError(ErrorCodes.InvalidParams, 'Invalid params: a subscribed URI cannot hold control characters (such as a line break). Send the URI as resources/list gives it.');
  if (uri.length > MAX_SUBSCRIBED_URI_LENGTH) {
    return new ProtocolError(ErrorCodes.InvalidParams, `Invalid params: a subscribed URI may be at most ${MAX_SUBSCRIBED_URI_LENGTH} characters long. Subscribe to a shorter URI.`);
  }
  if (!held.has(uri) && held.size >= MAX_SUBSCRIPTIONS) {
    return new ProtocolError(ErrorCodes.InvalidParams, `Invalid params: this session already holds the most subscriptions it may (${MAX_SUBSCRIPTIONS}). Unsubscribe from a URI first.`);
  }
  return undefined;
}

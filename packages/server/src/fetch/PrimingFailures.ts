import { ToolwrightError } from '@toolwright/core';
import { sessionRules } from '../http/sessionRules';
import { jsonAnswer } from './jsonAnswer';

/**
 * A session's priming events whose store failed, until the POST they were for is answered.
 *
 * The SDK's web-standard transport stores a POST stream's priming event before it hands the
 * requests to the server, and when the store throws it answers HTTP 400 "Parse error" (-32700,
 * the error as `data`): the client takes its request for malformed and does not retry. The
 * node listener answers 503 with Retry-After (`sessionRules.primingFailed`): nothing reached the
 * server, the request may be sent again. `store` makes such a failure an error of its own, with
 * a text no other error has; `answer` finds that text in the SDK's 400 (its `data` is
 * `String(error)`, pinned in web-transport-facts.test.ts) and gives the node listener's answer instead.
 */
export class PrimingFailures {
  /** The text of each failure's error (the SDK's `data`), and the store's reason. */
  private readonly pending = new Map<string, string>();
  private count = 0;

  /** Stores a priming event with `storeEvent`; a failure is thrown again as an error `answer` recognises. */
  async store(storeEvent: () => Promise<string>): Promise<string> {
    try {
      return await storeEvent();
    } catch (error) {
      const why = (error as Error)?.message ?? String(error);
      const failure = new ToolwrightError(`Toolwright: the event store failed to store priming event #${++this.count} of this session (${why}); the POST is answered 503.`, { cause: error });
      this.pending.set(String(failure), why);
      throw failure;
    }
  }

  /** The SDK's answer to a POST, or the node listener's 503 if it is the SDK's 400 for a priming event that was not stored. */
  async answer(response: Response, forget: () => void): Promise<Response> {
    if (response.status !== 400 || this.pending.size === 0) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: { data?: unknown } } | undefined;
    const data = body?.error?.data;
    const why = typeof data === 'string' ? this.pending.get(data) : undefined;
    if (why === undefined) return response;
    this.pending.delete(data as string);
    forget();
    return jsonAnswer(sessionRules.primingFailed(why));
  }
}

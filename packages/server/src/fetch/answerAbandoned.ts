import type { JSONRPCMessage, RequestId, Transport } from '../sdk/sdk';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';

/**
 * Answers the calls `ids` of a 2025-era web-standard transport (the SDK's), which shutdown
 * abandoned once its drain timeout passed, each with a -32000 error that gives `reason` and
 * carries the call's id. The transport routes it as any answer: into the POST's JSON body, or as
 * the last event of its SSE stream, which it then ends. Its run is not stopped here: closing the
 * transport does that (`ctx.signal` aborts), and the answer it would have sent goes nowhere.
 */
export async function answerAbandoned(transport: Transport, ids: Iterable<RequestId>, reason: string): Promise<void> {
  for (const id of [...ids]) {
    try {
      await transport.send({ jsonrpc: '2.0', id, error: { code: SHUTTING_DOWN, message: reason } } as JSONRPCMessage);
    } catch {
      // The POST of that call is gone already (its client hung up): there is nobody left to answer.
    }
  }
}

import { createWebStandardTransport, type WebStandardTransport } from '../sdk/createWebStandardTransport';
import type { ServerFactory } from '../serving/ServerFactory';
import { answerAbandoned } from './answerAbandoned';
import type { FetchMode } from './FetchMode';
import { requestIdsOf } from './requestIdsOf';
import { trackSessionRequests } from './trackSessionRequests';
import { whenBodyEnds } from './whenBodyEnds';

/**
 * Stateless Streamable HTTP (2025-11-25) over `Request`/`Response`: every POST gets its own
 * transport and server, closed once its answer is out. The POSTs being answered are kept (each
 * transport with its body) for shutdown, which may have to abandon their calls.
 */
export function createFetchStateless(app: ServerFactory, options: { jsonResponse: boolean }): FetchMode {
  /** The transport of each POST being answered, with the POST's parsed body. */
  const running = new Map<WebStandardTransport, unknown>();
  return {
    async handle(request, body, auth) {
      const transport = createWebStandardTransport({ sessionId: undefined, jsonResponse: options.jsonResponse, eventStore: undefined, retryMs: undefined });
      // A batch that cancels one of its own requests: the SDK answers nothing for that request, and would hold the POST open (in JSON mode, unanswered) for good.
      if (Array.isArray(body) && body.some(isCancellation)) trackSessionRequests(transport, { sessionId: undefined, jsonResponse: options.jsonResponse });
      const server = app.createServer();
      running.set(transport, body);
      const end = () => {
        running.delete(transport);
        return server.close();
      };
      let response: Response;
      try {
        await server.connect(transport);
        response = await transport.handleRequest(request, { parsedBody: body, ...(auth && { authInfo: auth }) });
      } catch (error) {
        await end();
        throw error;
      }
      return whenBodyEnds(response, end);
    },
    async abandon(reason) {
      await Promise.all(
        [...running].map(async ([transport, body]) => {
          await answerAbandoned(transport, requestIdsOf(body), reason);
          // Stops the runs now (their `ctx.signal` aborts), not once the runtime has read the answer to its end.
          await transport.close();
        }),
      );
    },
    sessionCount: 0,
    close: async () => {},
  };
}

/** A `notifications/cancelled` notification (a request of that name cancels nothing). */
function isCancellation(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'notifications/cancelled' && !('id' in message);
}

import { createWebStandardTransport } from '../sdk/createWebStandardTransport';
import type { ServerFactory } from '../serving/ServerFactory';
import type { FetchMode } from './FetchMode';
import { whenBodyEnds } from './whenBodyEnds';

/** Stateless Streamable HTTP (2025-11-25) over `Request`/`Response`: every POST gets its own transport and server, closed once its answer is out. */
export function createFetchStateless(app: ServerFactory, options: { jsonResponse: boolean }): FetchMode {
  return {
    async handle(request, body, auth) {
      const transport = createWebStandardTransport({ sessionId: undefined, jsonResponse: options.jsonResponse, eventStore: undefined, retryMs: undefined });
      const server = app.createServer();
      await server.connect(transport);
      let response: Response;
      try {
        response = await transport.handleRequest(request, { parsedBody: body, ...(auth && { authInfo: auth }) });
      } catch (error) {
        await server.close();
        throw error;
      }
      return whenBodyEnds(response, () => void server.close());
    },
    sessionCount: 0,
    close: async () => {},
  };
}

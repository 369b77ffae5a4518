import { fastPathsOf } from '../lanes/fastPathsOf';
import type { ServerFactory } from '../serving/ServerFactory';
import { createStreamableTransport, type StreamableTransport, type StreamableTransportKind } from './createStreamableTransport';
import type { McpRequest, ModeHandler, TrackPost } from './ModeHandler';

export interface StatelessHandlerOptions {
  transportKind: StreamableTransportKind;
  jsonResponse: boolean;
  maxBufferedBytes: number | undefined;
  trackPost: TrackPost;
}

/** Stateless Streamable HTTP (2025-11-25): every POST gets its own transport and server, no session. */
export function createStatelessHandler(app: ServerFactory, options: StatelessHandlerOptions): ModeHandler {
  /** The requests being answered, to abandon on shutdown. */
  const transports = new Set<StreamableTransport>();
  return {
    async handle({ req, res, body }: McpRequest): Promise<void> {
      options.trackPost(res);
      const transport = createStreamableTransport(options.transportKind, {
        sessionId: undefined,
        jsonResponse: options.jsonResponse,
        eventStore: undefined,
        retryMs: undefined,
        maxBufferedBytes: options.maxBufferedBytes,
      });
      transports.add(transport);
      // Our transport: plain tool calls may be answered without building a server (see FastPaths).
      const fastPaths = options.transportKind === 'toolwright' ? fastPathsOf(app) : undefined;
      let exchange: { close(): Promise<void> };
      if (fastPaths) exchange = fastPaths.serveStateless(transport, () => app.createServer(), ignoreError);
      else {
        const server = app.createServer();
        exchange = server;
        await server.connect(transport);
      }
      res.once('close', () => {
        transports.delete(transport);
        void exchange.close();
      });
      return transport.handleRequest(req, res, body);
    },
    async abandon(reason) {
      await Promise.all([...transports].map((t) => t.abandon?.(reason)));
    },
    close: async () => {},
  };
}

/** A stateless server made on demand has no `onerror` either: what the SDK would report there goes nowhere. */
function ignoreError(): void {}

import type { ServerFactory } from '../serving/ServerFactory';
import { createModernHttp, type ModernHttp, type ModernHttpOptions } from '../serving/createModernHttp';
import { firstMessage } from './jsonRpcShape';
import type { McpRequest, ModeHandler, TrackPost } from './ModeHandler';

export interface ModernHandlerOptions extends ModernHttpOptions {
  trackPost: TrackPost;
}

/**
 * The 2026-07-28 era of the endpoint (no sessions; see `createModernHttp`). Made on its first
 * request, so 2025-only traffic never loads it.
 */
export function createModernHandler(app: ServerFactory, options: ModernHandlerOptions): ModeHandler {
  const { trackPost, ...era } = options;
  let modern: ModernHttp | undefined;
  return {
    async handle({ req, res, body, auth }: McpRequest): Promise<void> {
      // A subscriptions/listen stream stays open until the client or shutdown ends it: shutdown does not wait for it.
      if (firstMessage(body)?.method !== 'subscriptions/listen') trackPost(res);
      modern ??= createModernHttp((context) => app.createServer(context), { ...era, tools: app });
      return modern.handle(req, res, body, auth);
    },
    async abandon(reason) {
      modern?.abandon(reason);
    },
    async close() {
      await modern?.close();
    },
  };
}

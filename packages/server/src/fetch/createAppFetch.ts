import type { ServerFactory } from '../serving/ServerFactory';
import { rpcRefusal } from '../http/HttpRefusal';
import { createFetchHandler, type FetchHandler } from './createFetchHandler';
import { defaultLogError } from './defaultLogError';
import { jsonAnswer } from './jsonAnswer';
import { createAppStarter } from '../serving/createAppStarter';

/**
 * `app.fetch`: the app's default fetch handler (`createFetchHandler(app)`, every option at its
 * default), made on the first request, after the app's start hooks ran. A start hook that fails
 * answers the requests that waited for it with a 500 (its reason goes to the app's `logger`, or
 * `console.error`, never to the client; once until a start succeeds), and the next request starts
 * the app again: a database that was down when the first request came is tried again, as a
 * listener started anew would. The handler holds the app as a listener does, for good (a fetch
 * handler has no close): another listener closing does not stop the app under it.
 */
export function createAppFetch(app: ServerFactory & { start(): Promise<void> }): (request: Request) => Promise<Response> {
  const starter = createAppStarter(app, (error) => defaultLogError(app.logger)(`toolwright fetch: the app did not start: ${(error as Error)?.message ?? String(error)}`));
  let handler: FetchHandler | undefined;
  return async (request) => {
    if (handler === undefined) {
      try {
        await starter.start();
      } catch {
        return jsonAnswer(rpcRefusal(500, -32603, 'Internal error: the server failed to start. Its log has the details.'));
      }
      handler ??= createFetchHandler(app);
    }
    return handler(request);
  };
}

import type { ServerFactory } from '../serving/ServerFactory';
import { rpcRefusal } from '../http/HttpRefusal';
import { createFetchHandler, type FetchHandler } from './createFetchHandler';
import { defaultLogError } from './defaultLogError';
import { jsonAnswer } from './jsonAnswer';

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
  let ready: Promise<FetchHandler> | undefined;
  let reported = false;
  return async (request) => {
    const starting = (ready ??= holdAndStart(app));
    let handler: FetchHandler;
    try {
      handler = await starting;
      reported = false;
    } catch (error) {
      if (ready === starting) ready = undefined;
      if (!reported) {
        reported = true;
        defaultLogError(app.logger)(`toolwright fetch: the app did not start: ${(error as Error)?.message ?? String(error)}`);
      }
      return jsonAnswer(rpcRefusal(500, -32603, 'Internal error: the server failed to start. Its log has the details.'));
    }
    return handler(request);
  };
}

/** Takes the app's listener hold, then starts it; lets go when the start fails (the next request takes it again). */
async function holdAndStart(app: ServerFactory & { start(): Promise<void> }): Promise<FetchHandler> {
  const release = app.openListener();
  try {
    await app.start();
  } catch (error) {
    await release();
    throw error;
  }
  return createFetchHandler(app);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ToolLogger } from '@toolwright/core';
import { responseClosed } from '@toolwright/core/internal';
import { json, oauthError } from './oauthResponses';
import { writeWebResponse } from './nodeAdapter';

/**
 * What the node listener does when serving a request failed, so that it never rejects (node's
 * `http.Server` drops a listener's promise: a rejection would be unhandled and end the process).
 * `stage` says what failed: `'read'`, reading the request (a body stream that failed, a method or target a web `Request` cannot carry); `'answer'`,
 * answering it (an endpoint that threw, a response that could not be written, the `next`
 * listener). When the client is gone (the connection closed, or the request ended before its
 * body), there is no one to answer: it is logged at debug level. Otherwise it is logged and
 * answered: 400 `invalid_request` for a request that could not be read, 500 `server_error`
 * with no detail for any other failure; a response already under way is cut off instead. A
 * response already ended (`next` answered in full, then rejected) is only logged: node still
 * sends what it holds of it, and the client gets the whole answer it was given.
 */
export async function answerNodeFailure(req: IncomingMessage, res: ServerResponse, stage: 'read' | 'answer', error: unknown, log: ToolLogger): Promise<void> {
  const where = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]}`;
  if (clientGone(req, res)) {
    log.debug(`toolwright oauth: ${where}: the client closed the connection before it was answered (${messageOf(error)})`);
    return;
  }
  if (stage === 'read') log.warn(`toolwright oauth: ${where}: the request could not be read, answered 400: ${messageOf(error)}`);
  else log.error(`toolwright oauth: ${where} failed${res.writableEnded ? ' after it was answered' : ''}: ${(error as Error | undefined)?.stack ?? String(error)}`);
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer =
    stage === 'read'
      ? oauthError('invalid_request', 'the request could not be read (its method, its target or its body): check it and send it again')
      : json({ error: 'server_error', error_description: 'the authorization server failed; its log has the details' }, 500);
  try {
    await writeWebResponse(res, answer);
  } catch {
    res.destroy();
  }
}

/** The client is gone: its connection closed, or its request ended before the body did. */
function clientGone(req: IncomingMessage, res: ServerResponse): boolean {
  // An HTTP/2 response has no `destroyed`: `responseClosed` reads its stream.
  return responseClosed(res) || (req.destroyed === true && !req.complete);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { rpcRefusal } from '../http/HttpRefusal';
import { sessionRules } from '../http/sessionRules';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { reusedRequestId, reusedRequestIdMessage } from '../rpc/reusedRequestId';
import type { SessionTransport } from '../http/HttpSession';
import type { WebStandardTransport } from '../sdk/createWebStandardTransport';
import type { JSONRPCMessage, RequestId } from '../sdk/sdk';
import { answerAbandoned } from './answerAbandoned';
import { jsonAnswer } from './jsonAnswer';

/** The requests of one POST, from the POST until each is answered or cancelled. */
interface Post {
  unsettled: number;
  /** One of its requests the client cancelled, if any: the SDK sends no answer for it. */
  cancelled: RequestId | undefined;
  /** JSON responses: the answers sent so far, and what gives the POST its answer when the SDK's would never come. */
  readonly answers: JSONRPCMessage[];
  answer?: (response: Response) => void;
}

/**
 * What a session's web-standard transport (the SDK's) is given, as `NodeStreamableTransport`
 * does itself on node, so that no POST of the session waits for ever (a stateless request's
 * transport, `sessionId` undefined, is given it when its batch cancels one of its own requests):
 * - a POST whose request reuses the id of one not answered yet is refused (HTTP 400, -32600):
 *   answers are routed by id, so it could never be answered (see `reusedRequestId`);
 * - a POST whose requests are all settled, one of them cancelled by the client (in a later POST
 *   or in the same batch), ends: the SDK sends nothing for a cancelled request and would hold
 *   its POST open until the client hung up. Its SSE stream is closed (`closeSSEStream`); a JSON response carries the answers there
 *   were (202 with no body when there were none), and `closeSSEStream` drops the SDK's wait for
 *   it, which would otherwise keep the request for as long as the session lives;
 * - a JSON response still waiting when the session closes is answered 404 (`sessionRules.closedBeforeAnswer`);
 * - `abandon` answers every request still running with a -32000 error, on shutdown (its drain
 *   timeout passed), as `NodeStreamableTransport.abandon` does; closing the session then stops the runs.
 */
export function trackSessionRequests(transport: WebStandardTransport & Pick<SessionTransport, 'abandon'>, session: { sessionId: string | undefined; jsonResponse: boolean }): void {
  const running = new Map<RequestId, Post>();
  const end = (post: Post): void => {
    // Ends the SDK's own wait for the POST: its SSE stream, or in JSON mode the resolver that holds the request for the session's life.
    transport.closeSSEStream(post.cancelled!);
    if (!post.answer) return;
    const headers: Record<string, string> = session.sessionId === undefined ? {} : { 'mcp-session-id': session.sessionId };
    if (post.answers.length === 0) return post.answer(new Response(null, { status: 202, headers }));
    post.answer(Response.json(post.answers.length === 1 ? post.answers[0] : post.answers, { status: 200, headers }));
  };
  const cancelled = (message: unknown): void => {
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    // Only a notification cancels: a request of that name (it has an id) is answered -32601 and cancels nothing.
    const id = m.method === 'notifications/cancelled' && !('id' in m) ? (m.params?.requestId as RequestId) : undefined;
    const post = id === undefined ? undefined : running.get(id);
    if (!post) return;
    running.delete(id!);
    post.cancelled ??= id;
    if (--post.unsettled === 0) end(post);
  };

  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    const id = (message as { id?: RequestId }).id;
    const post = id === undefined || 'method' in message ? undefined : running.get(id);
    if (!post) return send(message, options);
    running.delete(id!);
    if (post.answer) post.answers.push(message);
    await send(message, options);
    if (--post.unsettled === 0 && post.cancelled !== undefined) end(post);
  };
  // A cancellation settles its request once the SDK handed it to the server, wherever it came from:
  // a later POST, the POST of the request itself (a batch), another instance (`deliver`). The
  // server's reader is installed on connect, just before `start`: wrapped then, it runs first.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const read = transport.onmessage;
    transport.onmessage = (message, extra) => {
      read?.(message, extra);
      cancelled(message);
    };
    return start();
  };

  transport.abandon = (reason) => answerAbandoned(transport, running.keys(), reason);

  const close = transport.close.bind(transport);
  transport.close = async () => {
    // The SDK ends a closed session's SSE streams, and leaves its JSON responses waiting.
    for (const post of new Set(running.values())) post.answer?.(jsonAnswer(sessionRules.closedBeforeAnswer));
    running.clear();
    return close();
  };

  const handle = transport.handleRequest.bind(transport);
  transport.handleRequest = async (request, options) => {
    if (request.method !== 'POST') return handle(request, options);
    const ids: RequestId[] = [];
    for (const message of Array.isArray(options.parsedBody) ? options.parsedBody : [options.parsedBody]) {
      const kind = jsonRpcKind(message);
      if (kind === 'request') ids.push((message as { id: RequestId }).id);
    }
    const reused = reusedRequestId(ids, running);
    if (reused !== undefined) return jsonAnswer(rpcRefusal(400, -32600, reusedRequestIdMessage(reused)));
    if (ids.length === 0) return handle(request, options);
    const post: Post = { unsettled: ids.length, cancelled: undefined, answers: [] };
    for (const id of ids) running.set(id, post);
    const answered = session.jsonResponse ? new Promise<Response>((resolve) => (post.answer = resolve)) : undefined;
    let response: Response | undefined;
    try {
      response = await (answered ? Promise.race([handle(request, options), answered]) : handle(request, options));
      return response;
    } finally {
      // Refused (or failed) before reaching the server: those requests will get no answer.
      if (response === undefined || response.status >= 300) for (const id of ids) if (running.get(id) === post) running.delete(id);
    }
  };
}

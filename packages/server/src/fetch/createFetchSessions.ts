import type { AuthInfo } from '@toolwright/core';
import { createSessionPool, type SessionCall } from '../http/createSessionPool';
import type { EventStoreFactory } from '../http/EventStore';
import type { InitializeRateLimit } from '../http/InitializeRateLimit';
import type { SessionLimits } from '../http/SessionStore';
import type { SessionSharing } from '../http/SessionSharing';
import type { ServerFactory } from '../serving/ServerFactory';
import { createWebSessionTransport } from './createWebSessionTransport';
import type { FetchMode } from './FetchMode';
import { jsonAnswer } from './jsonAnswer';
import { whenBodyEnds } from './whenBodyEnds';

export interface FetchSessionsOptions {
  jsonResponse: boolean;
  eventStores: EventStoreFactory | undefined;
  sseRetryMs: number | undefined;
  limits: SessionLimits;
  initializeRate: InitializeRateLimit | undefined;
  clientAddressOf: ((request: Request) => string | undefined) | undefined;
}

/**
 * Stateful Streamable HTTP (2025-11-25) over `Request`/`Response`: the endpoint's session pool
 * (`createSessionPool`, the node listener's own) finds or opens the session, within the limits,
 * bound to the caller who opened it; its web-standard transport answers. `sharing` says where
 * sessions are recorded and found: this isolate's memory, or a cluster any instance serves
 * them from.
 */
export function createFetchSessions(app: ServerFactory, options: FetchSessionsOptions, sharing: SessionSharing): FetchMode {
  const pool = createSessionPool(
    app,
    { ...options, createTransport: (sessionId, eventStore) => createWebSessionTransport({ sessionId, jsonResponse: options.jsonResponse, eventStore, retryMs: options.sseRetryMs }) },
    sharing,
  );

  const callOf = (request: Request, body: unknown, auth: AuthInfo | undefined): SessionCall => ({
    method: request.method,
    body,
    auth,
    sessionId: request.headers.get('mcp-session-id') ?? undefined,
    protocolVersion: request.headers.get('mcp-protocol-version') ?? undefined,
    clientAddress: () => options.clientAddressOf?.(request),
  });

  return {
    async handle(request, body, auth) {
      const outcome = await pool.resolve(callOf(request, body, auth));
      if ('answer' in outcome) return jsonAnswer(outcome.answer);
      const end = pool.begin(outcome.session);
      let response: Response;
      try {
        response = await outcome.session.transport.handleRequest(request, { parsedBody: outcome.body, ...(auth && { authInfo: auth }) });
      } catch (error) {
        end(500);
        throw error;
      }
      return whenBodyEnds(response, () => end(response.status));
    },
    failQuestions: (request, body, auth) => pool.failQuestions(callOf(request, body, auth)),
    get sessionCount() {
      return pool.size;
    },
    async abandon(reason) {
      await Promise.all([...pool.values()].map((session) => session.transport.abandon(reason)));
    },
    close: () => pool.close(),
  };
}

import type { AuthInfo } from '@toolwright/core';
import type { createMcpHandler } from '../sdk/sdk';
import { createSdkMcpHandler } from '../sdk/createSdkMcpHandler';
import { sdkServer } from '../sdk/sdkServer';
import { extendedListen, type ExtendedListens } from './extendedListen';
import { listenedResources, listenRefusal, listenRefusalMessage } from './listenRefusal';
import type { McpServerHandle, ServerFactory, ServerSetup } from './ServerFactory';
import { paramHeaderMismatch } from './paramHeaderMismatch';
import { AbandonableCalls } from './AbandonableCalls';
import { callIdOf } from './callIdOf';

/** The 2026-07-28 requests of one endpoint, answered over web `Request`/`Response`. */
export interface ModernFetch {
  /** Answers a request whose HTTP rules passed; `body` is its parsed body, `request` carries method, headers and the abort signal. */
  fetch(request: Request, body: unknown, authInfo: AuthInfo | undefined): Promise<Response>;
  /**
   * Answers every call still running with a -32000 error giving `reason` (shutdown gave up
   * waiting for it) and stops it; `subscriptions/listen` streams are left to `close`. Does
   * nothing when made with `abandonable: false`.
   */
  abandon(reason: string): void;
  close(): Promise<void>;
}

export interface ModernFetchOptions {
  /** Answer with one JSON body instead of an SSE stream. */
  jsonResponse: boolean;
  /** The endpoint's body limit (`maxBodyBytes`): a round's state must fit the client's retry (`ServerSetup.maxRequestBytes`). */
  maxRequestBytes: number;
  /** Tells the SDK's `subscriptions/listen` streams of every change; returns the function that stops it. */
  subscribe(notifier: ReturnType<typeof createMcpHandler>['notify']): () => void;
  onerror(error: Error): void;
  /** Where the SDK's warnings as it makes its handler go (with `jsonResponse`: notifications sent before a result are dropped). */
  warn(message: string): void;
  /** Whether `abandon` can answer the calls being answered (default true); false where the caller abandons them itself (node's responses). */
  abandonable?: boolean;
  /** The app's tools, for the `Mcp-Param-*` header check of a `tools/call` (SEP-2243); without it, none is made. */
  tools?: Pick<ServerFactory, 'toolAccess' | 'toolParamHeaders'>;
}

/**
 * The 2026-07-28 era over web `Request`/`Response`: the SDK's per-request handler
 * (`createMcpHandler`, no 2025-era traffic), one server instance per request, behind the HTTP
 * rules of the endpoint. The resources a `subscriptions/listen` names pass the app's
 * `resources/subscribe` checks first (`listenRefusal`), so no caller hears of a resource it
 * may not read. A `tools/call` whose `Mcp-Param-*` headers disagree with its arguments is
 * refused before the SDK dispatches it (`paramHeaderMismatch`), as the SDK's entry does for
 * the tools of an `McpServer`. Runtime-neutral: the fetch handler calls it as it is.
 */
export function createModernFetch(factory: (setup: ServerSetup) => McpServerHandle, options: ModernFetchOptions): ModernFetch {
  const { maxRequestBytes } = options;
  const handler = createSdkMcpHandler(
    () => sdkServer(factory({ era: 'modern', maxRequestBytes })),
    {
      legacy: 'reject',
      responseMode: options.jsonResponse ? 'json' : 'auto',
      onerror: options.onerror,
    },
    options.warn,
  );
  const unsubscribe = options.subscribe(handler.notify);
  const extendedListens: ExtendedListens = new Set();
  const calls = options.abandonable === false ? undefined : new AbandonableCalls();
  return {
    async fetch(request, body, authInfo) {
      const listened = listenedResources(body);
      if (listened) {
        const refused = await listenRefusal(factory, listened, authInfo);
        if (refused) return Response.json(listenRefusalMessage(body, refused));
      }
      const mismatch = options.tools && paramHeaderMismatch(options.tools, body, request.headers, authInfo);
      if (mismatch) return mismatch;
      const sdk = () => handler.fetch(request, authInfo ? { parsedBody: body, authInfo } : { parsedBody: body });
      // A listen naming an extension's keys (the tasks extension's taskIds) gets the extensions' notifications merged in.
      const extended = extendedListen(factory, body, authInfo, extendedListens, sdk);
      const answered = extended && (await extended);
      if (answered) return answered;
      const response = await sdk();
      return calls ? calls.answer(callIdOf(body), response) : response;
    },
    abandon(reason) {
      calls?.abandon(reason);
    },
    async close() {
      for (const close of [...extendedListens]) close();
      unsubscribe();
      await handler.close();
    },
  };
}

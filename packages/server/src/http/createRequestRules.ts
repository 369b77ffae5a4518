import type { AuthInfo } from '@toolwright/core';
import type { ProtectedResourceMetadata } from '../auth/protectedResourceMetadata';
import { isModernMessage } from '../sdk/isModernMessage';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../sdk/sdk';
import type { ServerFactory } from '../serving/ServerFactory';
import { acceptsMediaType } from './acceptsMediaType';
import { createHostPolicy } from './hostPolicy';
import { CLOSING_REFUSAL, rpcRefusal, type HttpRefusal } from './HttpRefusal';
import { isJsonMediaType } from './isJsonMediaType';
import { calledTool, hasRequest, invalidMessageOf, isRoundAnswer } from './jsonRpcShape';
import { createOriginPolicy } from './originPolicy';
import { scopeRefusal } from './scopeRefusal';

export interface RequestRulesOptions {
  readonly mcpPath: string;
  readonly stateless: boolean;
  readonly allowedHosts: readonly string[] | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly metadata: ProtectedResourceMetadata | undefined;
}

/** What the MCP endpoint decides about a request before any mode handler sees it; each rule answers a refusal, or undefined to go on. */
export interface RequestRules {
  /** Only POST, GET and DELETE (only POST when stateless). */
  method(method: string): HttpRefusal | undefined;
  /** The Host rule (DNS rebinding): `arrivedOnLoopback` when the connection came in on a loopback address, or when the runtime cannot tell. */
  host(host: string | undefined, arrivedOnLoopback: boolean): HttpRefusal | undefined;
  /** The Origin rule: browsers send Origin, so a foreign web page cannot drive the server. */
  origin(origin: string | undefined): HttpRefusal | undefined;
  /** Accept and Content-Type of a POST. */
  postHeaders(accept: string | undefined, contentType: string | undefined): HttpRefusal | undefined;
  /** Accept of a GET (the server's SSE stream). */
  getHeaders(accept: string | undefined): HttpRefusal | undefined;
  /** A parsed POST body: its messages, the drain, and the scopes of the tool it calls. */
  body(body: unknown, auth: AuthInfo | undefined, closing: boolean): HttpRefusal | undefined;
  /** Whether a POST is for the 2026-07-28 era (then served without a session). */
  isModern(versionHeader: string | undefined, body: unknown): boolean;
  /** An MCP-Protocol-Version of a 2025-era request that no supported revision has. */
  version(versionHeader: string | undefined): HttpRefusal | undefined;
  /** The answer to a GET (or HEAD) outside the endpoint that this server serves (RFC 9728 metadata, health), or undefined. */
  other(method: string, path: string, closing: boolean, health: boolean): HttpRefusal | undefined;
  /** Nothing is served at `path`. */
  notFound(path: string): HttpRefusal;
}

const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
/** The Accept header the SDK's clients send on every POST: accepted as it is, without parsing it. */
const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * Compiles the HTTP rules of one MCP endpoint once, over plain values (method, header values,
 * path, parsed body), so the node listener and the fetch handler decide alike. Refusals name a
 * header, never echo its value: the client knows what it sent, and the answer stays small.
 */
export function createRequestRules(app: ServerFactory, options: RequestRulesOptions): RequestRules {
  const { mcpPath, stateless, metadata } = options;
  const hostAllowed = createHostPolicy(options.allowedHosts);
  const originAllowed = createOriginPolicy(options.allowedOrigins);
  return {
    method(method) {
      if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
        return rpcRefusal(405, -32000, `Method not allowed: use POST (messages), GET (the server's SSE stream) or DELETE (end the session) on ${mcpPath}.`, {
          Allow: stateless ? 'POST' : 'GET, POST, DELETE',
        });
      }
      if (stateless && method !== 'POST') {
        return rpcRefusal(405, -32000, 'Method not allowed: this server is stateless (no sessions, no server-initiated stream); use POST.', { Allow: 'POST' });
      }
      return undefined;
    },
    host(host, arrivedOnLoopback) {
      if (hostAllowed(host, arrivedOnLoopback)) return undefined;
      return rpcRefusal(403, -32000, 'Forbidden: the Host header names a host this server does not answer to. Reach it by a loopback name, or list the name in allowedHosts.');
    },
    origin(origin) {
      if (originAllowed(origin)) return undefined;
      return rpcRefusal(403, -32000, 'Forbidden: the Origin header names a web origin that is not allowed. List it in allowedOrigins to let that page call this server.');
    },
    postHeaders(accept, contentType) {
      if (accept !== ACCEPT_BOTH && (!acceptsMediaType(accept, 'application/json') || !acceptsMediaType(accept, 'text/event-stream'))) {
        return rpcRefusal(406, -32000, 'Not Acceptable: the Accept header must list both application/json and text/event-stream.');
      }
      if (!isJsonContentType(contentType)) return rpcRefusal(415, -32000, 'Unsupported Media Type: send the body with Content-Type: application/json.');
      return undefined;
    },
    getHeaders(accept) {
      if (acceptsMediaType(accept, 'text/event-stream')) return undefined;
      return rpcRefusal(406, -32000, 'Not Acceptable: the Accept header of a GET must list text/event-stream.');
    },
    body(body, auth, closing) {
      const invalid = invalidMessageOf(body);
      if (invalid) return { status: 400, body: invalid };
      // While draining, only the client's answers get in: responses to the server's requests, and 2026-07-28 retries carrying input responses.
      if (closing && hasRequest(body) && !isRoundAnswer(body)) return CLOSING_REFUSAL;
      // Scopes are checked here too, so a caller missing them gets HTTP 403 with the scopes to request.
      const tool = metadata ? calledTool(body) : undefined;
      if (tool === undefined) return undefined;
      const refusal = scopeRefusal(app, metadata!.challengeParam, tool, auth);
      return refusal && { status: refusal.status, body: refusal.body, headers: { 'WWW-Authenticate': refusal.challenge } };
    },
    isModern(versionHeader, body) {
      return isModernMessage(body) || (typeof versionHeader === 'string' && versionHeader.trim() >= '2026-07-28');
    },
    version(versionHeader) {
      if (versionHeader === undefined || SUPPORTED.has(versionHeader)) return undefined;
      return rpcRefusal(400, -32000, `Bad Request: the MCP-Protocol-Version header names no supported version. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`);
    },
    other(method, path, closing, health) {
      // HEAD as GET (RFC 9110 §9.3.2): the runtime leaves the body out.
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      if (metadata?.document && metadata.paths.includes(path)) {
        return { status: 200, body: metadata.document, headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=3600' } };
      }
      if (health && (path === '/healthz' || path === '/readyz')) {
        if (path === '/readyz' && closing) return { status: 503, body: { status: 'shutting down' } };
        // No session count here: anyone can read these; the process reads it from the handler's `sessionCount`.
        return { status: 200, body: { status: 'ok' } };
      }
      return undefined;
    },
    notFound(path) {
      return { status: 404, body: { error: 'not_found', error_description: `Nothing is served at ${path}. The MCP endpoint is ${mcpPath}.` } };
    },
  };
}

/** `application/json`, optionally with parameters (`isJsonMediaType`); a missing Content-Type is not. */
function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && isJsonMediaType(value);
}

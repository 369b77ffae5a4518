import { Pending } from '../ground/Pending';
import { ConfigError, type ToolLogger } from '@toolwright/core';
import { joinedHeader } from '@toolwright/core/internal';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { McpServerHandle, ServerFactory } from '../serving/ServerFactory';
import type { AuthOutcome } from '../auth/authenticateRequest';
import { LegacySseTransport } from './LegacySseTransport';
import { principalOf } from './principalOf';
import { readJsonBody } from './readJsonBody';
import type { RequestLogEntry } from './requestLog';
import { authRefusal } from './authRefusal';
import { refuseClosing, sendAnswer, sendRpcError } from './respond';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import type { InitializeRateLimit } from './InitializeRateLimit';
import { sessionOwnerOf } from './sessionOwnerOf';

const STREAM_PATH = '/sse';
const MESSAGES_PATH = '/messages';

export interface LegacySseOptions {
  /** The Streamable HTTP endpoint, which must not be one of the legacy paths. */
  mcpPath: string;
  maxBodyBytes: number;
  /** Most bytes a stream may hold unsent (its client reads too slowly, or not at all) before it is dropped. */
  maxBufferedBytes: number;
  bodyTimeoutMs: number;
  authenticate: ((req: IncomingMessage) => Promise<AuthOutcome>) | undefined;
  /** True once the server started shutting down: new streams and requests are then refused. */
  isClosing(): boolean;
  /** The endpoint's session limits, which its streams count against too: each stream is a session. */
  limits: { readonly maxSessions: number; readonly maxSessionsPerPrincipal: number };
  initializeRate: InitializeRateLimit | undefined;
  clientAddressOf: ((req: IncomingMessage) => string | undefined) | undefined;
  /** Where what failed is logged (the endpoint's: the app's logger, or stderr). */
  failures: ToolLogger;
}

interface LegacySession {
  readonly server: McpServerHandle;
  readonly transport: LegacySseTransport;
  readonly principal: string | undefined;
  /** Whose share of sessions it counts against: the principal, or an anonymous caller's client address. */
  readonly owner: string;
  /** Ends the stream (and with it the session). */
  end(): void;
}

/**
 * The HTTP+SSE transport of spec 2024-11-05, for old clients: `GET /sse` opens the stream
 * (one SDK `Server` per stream) and names the URL to POST messages to. Behind the same
 * Host/Origin checks and authentication as the Streamable HTTP endpoint.
 */
export function createLegacySse(app: ServerFactory, options: LegacySseOptions) {
  const { mcpPath, authenticate } = options;
  const sessions = new Map<string, LegacySession>();
  /** The running calls of every stream, drained on shutdown. */
  const calls = new Pending<string>();
  if (mcpPath === STREAM_PATH || mcpPath === MESSAGES_PATH) {
    throw new ConfigError(`Toolwright: legacySse serves ${STREAM_PATH} and ${MESSAGES_PATH}; move the Streamable HTTP endpoint (path) elsewhere, e.g. '/mcp'.`);
  }

  return {
    handles: (path: string) => path === STREAM_PATH || path === MESSAGES_PATH,

    async handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, entry: Partial<RequestLogEntry>): Promise<void> {
      const closing = options.isClosing();
      if (authenticate) {
        const outcome = await authenticate(req);
        if (!outcome.ok) {
          entry.error = outcome.detail;
          return sendAnswer(res, authRefusal(outcome));
        }
        req.auth = outcome.authInfo;
      }
      const path = req.url!.split('?')[0];
      if (path === STREAM_PATH) {
        if (closing) return refuseClosing(res);
        if (req.method !== 'GET') return sendRpcError(res, 405, -32000, `Method not allowed: open the legacy stream with GET ${STREAM_PATH}.`, { Allow: 'GET' });
        const principal = principalOf(req.auth);
        const owner = sessionOwnerOf(principal, (options.clientAddressOf ?? ((r) => r.socket?.remoteAddress))(req));
        const wait = options.initializeRate?.take(owner) ?? 0;
        if (wait > 0) {
          return sendRpcError(res, 429, -32000, `Too many requests: this caller opened streams faster than sessions.initializeRate allows. Retry after ${wait} s, or reuse the stream you have.`, {
            'Retry-After': String(wait),
          });
        }
        // One stream more than the caller's share ends the caller's own oldest, never another's.
        const own = [...sessions.values()].filter((s) => s.owner === owner);
        const oldest = own.length >= options.limits.maxSessionsPerPrincipal ? own[0] : undefined;
        if (!oldest && sessions.size >= options.limits.maxSessions) {
          return sendRpcError(res, 503, -32000, 'Service unavailable: the server holds sessions.maxSessions sessions. Retry later.', { 'Retry-After': '30' });
        }
        if (oldest) {
          sessions.delete(oldest.transport.sessionId);
          oldest.end();
        }
        const transport = new LegacySseTransport(res, MESSAGES_PATH, calls, options.maxBufferedBytes);
        const server = app.createServer();
        sessions.set(transport.sessionId, { server, transport, principal, owner, end: () => res.end() });
        entry.session = transport.sessionId;
        res.once('close', () => {
          sessions.delete(transport.sessionId);
          void server.close();
        });
        await server.connect(transport);
        return;
      }
      if (req.method !== 'POST') return sendRpcError(res, 405, -32000, `Method not allowed: send messages with POST ${MESSAGES_PATH}?sessionId=...`, { Allow: 'POST' });
      const id = new URLSearchParams(req.url!.slice(path.length + 1)).get('sessionId') ?? '';
      const session = sessions.get(id);
      entry.session = id;
      if (!session || session.principal !== principalOf(req.auth)) {
        return sendRpcError(res, 404, -32001, `Session not found: open a stream with GET ${STREAM_PATH} and post to the URL it names.`);
      }
      const read = await readJsonBody(req, joinedHeader(req, 'content-type'), options.maxBodyBytes, options.bodyTimeoutMs);
      if (!read.ok) {
        if (read.log) options.failures.error(read.log);
        return sendRpcError(res, read.status, read.code, read.message, read.headers);
      }
      // While draining, the client's answers (to the server's sampling, elicitation) and notifications still come in; new requests do not.
      if (closing && jsonRpcKind(read.value) === 'request') return refuseClosing(res);
      session.transport.handlePost(req, res, read.value);
    },

    /** Resolves once no call of any stream is running, or after `timeoutMs`. */
    idle(timeoutMs: number): Promise<boolean> {
      return calls.drain(timeoutMs);
    },

    /** Answers every call still running with an error, on shutdown. */
    async abandon(reason: string): Promise<void> {
      await Promise.all([...sessions.values()].map((s) => s.transport.abandon(reason)));
    },

    async closeAll(): Promise<void> {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.server.close()));
    },
  };
}

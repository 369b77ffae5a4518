import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { RequestLogEntry } from './requestLog';

/** A request to the MCP endpoint that passed every HTTP rule of `createHttpHandler`, handed to the handler of its mode. */
export interface McpRequest {
  readonly req: IncomingMessage & { auth?: AuthInfo };
  readonly res: ServerResponse;
  /** The parsed POST body; undefined for GET and DELETE. */
  readonly body: unknown;
  readonly auth: AuthInfo | undefined;
  /** The request's log line, which the handler may complete (`session`). */
  readonly entry: Partial<RequestLogEntry>;
}

/** Serves the requests of one mode (stateful, stateless, 2026-07-28) of the MCP endpoint. */
export interface ModeHandler {
  handle(request: McpRequest): Promise<void>;
  /** Answers every call still running with an error, on shutdown (the drain gave up waiting). */
  abandon(reason: string): Promise<void>;
  /** Ends everything the mode still holds (sessions, streams). */
  close(): Promise<void>;
}

/** Counts a POST until its response (JSON or SSE stream) is over, so shutdown can wait for it. */
export type TrackPost = (res: ServerResponse) => void;

import type { AuthInfo } from '@toolwright/core';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '../sdk/sdk';

/** What `detachedCall` needs of the app: a server for one 2026-07-28 exchange, as a given caller. */
export type DetachedServers = (setup: { era: 'modern'; authInfo?: AuthInfo }) => { connect(transport: Transport): Promise<void>; close(): Promise<void> };

/** The `tools/call` params of a run outside any request (`_meta` carries its 2026-07-28 envelope). */
export interface DetachedCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: Record<string, unknown>;
}

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/**
 * Runs one `tools/call` of the app outside any request, as `caller`: a fresh 2026-07-28
 * server of the app is connected to a transport that lives in this process only, gets the
 * request, and its answer is the result (a JSON-RPC error rejects with a `ProtocolError` of the
 * same code). The call takes the path a client's call takes (the SDK's dispatch, access rules,
 * guards, middleware, validation, rounds); the server asks the transport nothing back (it has
 * no client to ask), so notifications the run sends are dropped unless the app routes them.
 */
export async function detachedCall(servers: DetachedServers, params: DetachedCallParams, caller: AuthInfo | undefined): Promise<Record<string, unknown>> {
  const server = servers({ era: 'modern', ...(caller && { authInfo: caller }) });
  const transport = new InProcess();
  await server.connect(transport);
  try {
    const _meta = { ...params._meta, [PROTOCOL_VERSION]: params._meta?.[PROTOCOL_VERSION] ?? '2026-07-28' };
    return await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...params, _meta } });
  } finally {
    await server.close();
  }
}

/** A transport between a server and this process: one request in, its answer out. */
class InProcess implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private settle: { resolve(result: Record<string, unknown>): void; reject(error: Error): void } | undefined;

  async start(): Promise<void> {}

  request(message: JSONRPCMessage): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
      const deliver = this.onmessage;
      if (!deliver) return reject(new ProtocolError(ErrorCodes.InternalError, 'The server did not connect to its in-process transport.'));
      deliver(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const answer = message as { id?: unknown; method?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
    if (answer.method !== undefined || answer.id !== 1 || !this.settle) return;
    const { resolve, reject } = this.settle;
    this.settle = undefined;
    if (answer.error) reject(new ProtocolError(answer.error.code, answer.error.message, answer.error.data));
    else resolve(answer.result ?? {});
  }

  async close(): Promise<void> {
    this.settle?.reject(new ProtocolError(ErrorCodes.InternalError, 'The server closed before it answered.'));
    this.settle = undefined;
    this.onclose?.();
  }
}

import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '@modelcontextprotocol/server';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { EarlyAnswers } from './EarlyAnswers';
import { modernToolResult } from './modernToolResult';
import type { ModernDirectCalls } from './ModernDirectCalls';
import type { Deliver } from './serveDirectCalls';

/** The `_meta` keys of the 2026-07-28 envelope: a plain call's `_meta` holds these and nothing else. */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * Serves a 2026-07-28 stdio connection's plain `tools/call` requests straight from the
 * transport, before the SDK's stdio entry sees them; every other message goes on to it.
 *
 * A plain call is `{ name, arguments?, _meta: envelope }` (no round-trip state, no progress
 * token, nothing else) for a tool that runs alone (see `serveAlone`), with an envelope the
 * SDK has accepted on this connection before (see `ModernDirectCalls`). For it the SDK would
 * only run zod over the message five times, build a context, validate the request and the
 * result, and stamp the result; the answer here is the SDK's own, byte for byte, and a
 * result it cannot vouch for goes to the SDK for encoding (see `modernToolResult`). No
 * answer once the client cancelled the request or the connection closed.
 *
 * `lane` is shared with the server instances the SDK makes for the connection (see `ToolwrightServer.attachLane`).
 */
export function serveModernCalls(transport: Transport, lane: ModernDirectCalls, toSdk: Deliver, onerror: (error: Error) => void): void {
  const early = new EarlyAnswers(transport, onerror);
  transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const m = message as { method?: unknown; id?: RequestId; params?: unknown };
    if (m.method === 'tools/call' && extra?.classification === undefined && jsonRpcKind(message) === 'request') {
      const id = m.id!;
      const envelope = plainCallEnvelope(m.params);
      const calls = envelope === undefined || early.has(id) ? undefined : lane.servingFor(envelope);
      const answer = calls?.direct(m.params, extra?.authInfo);
      if (calls && answer) {
        const handOver = () => {
          lane.handOver(id, answer);
          toSdk(message, extra);
        };
        early.serve(id, answer, {
          result: (result) => {
            const wire = modernToolResult(result, calls.serverInfo());
            return wire ? transport.send({ result: wire, jsonrpc: '2.0', id } as JSONRPCMessage) : handOver();
          },
          error: handOver,
        });
        return;
      }
      lane.toSdk(id, envelope);
    } else early.observe(m);
    toSdk(message, extra);
  };
}

/** The envelope of a plain call's params, serialized as sent; undefined for params that carry anything more. */
function plainCallEnvelope(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  for (const key in params) if (!PARAMS_KEYS.has(key)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  for (const key in meta) if (!ENVELOPE_KEYS.has(key)) return undefined;
  return JSON.stringify(meta);
}

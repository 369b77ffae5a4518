import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '@modelcontextprotocol/server';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { EarlyAnswers } from './EarlyAnswers';
import { modernToolResult } from './modernToolResult';
import { plainCallEnvelope } from './plainCallEnvelope';
import type { ModernDirectCalls } from './ModernDirectCalls';
import type { Deliver } from './serveDirectCalls';

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

import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { jsonRpcKind } from '../src/rpc/jsonRpcKind';

/**
 * Issue 13: the HTTP transport's hand-written JSON-RPC classification against the SDK's
 * message schemas, in the order the SDK's `Protocol` tries them. A message one accepts and
 * the other does not would either be answered twice or left hanging.
 */
function sdkKind(message: unknown): string | undefined {
  if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) return 'response';
  if (isJSONRPCRequest(message)) return 'request';
  if (isJSONRPCNotification(message)) return 'notification';
  return undefined;
}

const odd = fc.constantFrom(null, true, 1.5, -1, 0, 'x', [], {}, [1]);
const id = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', ''), odd);
const meta = fc.oneof(
  odd,
  fc.record({ progressToken: fc.oneof(id, odd), 'io.modelcontextprotocol/related-task': fc.oneof(fc.record({ taskId: fc.oneof(fc.constant('t'), odd) }), odd), other: odd }, { requiredKeys: [] }),
);
const object = fc.oneof(odd, fc.record({ _meta: meta, x: odd }, { requiredKeys: [] }));
const method = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('tools/call', 'notifications/initialized') }, odd);
const message = fc.oneof(
  odd,
  fc.record({ jsonrpc: fc.constant('2.0'), method, id, params: object }, { requiredKeys: ['jsonrpc', 'method', 'id'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), method, params: object, extra: odd }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: object }, { requiredKeys: ['jsonrpc', 'id', 'result'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.record({ code: fc.oneof(fc.constant(-32602), odd), message: fc.constant('m') }) }, { requiredKeys: ['jsonrpc', 'error'] }),
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.constantFrom('1.0', 2)),
      method: fc.oneof(fc.constantFrom('tools/call', 'notifications/initialized', ''), odd),
      id,
      params: object,
      result: object,
      error: fc.oneof(odd, fc.record({ code: fc.oneof(fc.integer({ min: -32700, max: 0 }), odd), message: fc.oneof(fc.constant('m'), odd), data: odd }, { requiredKeys: [] })),
      extra: odd,
    },
    { requiredKeys: [] },
  ),
);

describe('issue 13: JSON-RPC classification agrees with the SDK message schemas', () => {
  it('classifies generated messages as the SDK Protocol does', () => {
    const seen = new Set<string | undefined>();
    fc.assert(
      fc.property(message, (m) => {
        const kind = jsonRpcKind(m);
        seen.add(kind);
        expect({ m, kind }).toEqual({ m, kind: sdkKind(m) });
      }),
      { numRuns: 5000 },
    );
    // The generator reaches every kind, not only refusals.
    expect(seen).toEqual(new Set(['request', 'notification', 'response', undefined]));
  });
});

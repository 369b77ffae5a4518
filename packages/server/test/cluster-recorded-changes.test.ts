import type { SessionTransport } from '../src/http/HttpSession';
import { recordAcceptedChanges } from '../src/http/clusterMessages';
import type { JSONRPCMessage } from '../src/sdk/sdk';

/**
 * What a cluster records of a session's requests (`recordAcceptedChanges`): the change a
 * request makes (log level, subscriptions) is recorded when its success goes out. A request the
 * client cancelled gets no answer, so its change is forgotten at the cancellation: it neither
 * stays for the session's life (one entry per cancelled request) nor is recorded by the
 * success of a later request that reuses its id.
 */
function sessionTransport(): { transport: SessionTransport; sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  const transport = {
    onmessage: () => {},
    send: async (message: JSONRPCMessage) => void sent.push(message),
  } as unknown as SessionTransport;
  return { transport, sent };
}

describe('recordAcceptedChanges', () => {
  it('records the change of a request answered with success', async () => {
    const { transport } = sessionTransport();
    const recorded: unknown[] = [];
    recordAcceptedChanges(transport, async (change) => void recorded.push(change));
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    expect(recorded).toEqual([{ logLevel: 'debug' }]);
  });

  it('forgets the change of a cancelled request: a later request with its id records nothing of it', async () => {
    const { transport, sent } = sessionTransport();
    const recorded: unknown[] = [];
    recordAcceptedChanges(transport, async (change) => void recorded.push(change));
    for (let id = 1; id <= 3; id++) {
      transport.onmessage?.({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri: `file:///${id}` } } as JSONRPCMessage);
      transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } } as JSONRPCMessage);
    }
    // The ids again, now for pings the server answers with success.
    for (let id = 1; id <= 3; id++) {
      transport.onmessage?.({ jsonrpc: '2.0', id, method: 'ping' } as JSONRPCMessage);
      await transport.send({ jsonrpc: '2.0', id, result: {} } as JSONRPCMessage);
    }
    expect(recorded).toEqual([]);
    expect(sent).toHaveLength(3);
  });
});

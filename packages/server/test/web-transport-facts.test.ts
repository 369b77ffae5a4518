import { createWebStandardTransport, SDK_GET_STREAM_ID } from '../src/sdk/createWebStandardTransport';
import type { EventStore } from '../src/http/EventStore';

/**
 * What Toolwright relies on in the SDK's web-standard transport and the SDK does not export:
 * the stream id its event store is given for a session's GET stream (the fetch handler maps it
 * to the cluster's `GET_STREAM_ID`), and how it answers a POST whose priming event its store
 * failed to keep (`PrimingFailures` recognises that answer). A new SDK that differs fails here first.
 */
describe("the SDK's web-standard transport", () => {
  it(`stores the GET stream's events under '${SDK_GET_STREAM_ID}'`, async () => {
    const streams: string[] = [];
    const store: EventStore = {
      storeEvent: async (streamId) => {
        streams.push(streamId);
        return String(streams.length);
      },
      replayEventsAfter: async () => SDK_GET_STREAM_ID,
    };
    const transport = createWebStandardTransport({ sessionId: 'facts', jsonResponse: false, eventStore: store, retryMs: undefined });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(streams).toEqual([SDK_GET_STREAM_ID]);
    await transport.close();
  });

  it('answers a POST whose priming event the store fails to keep with 400 -32700, String(error) as data, before the server sees the request', async () => {
    const failure = new Error('priming #1 failed');
    const store: EventStore = {
      storeEvent: async (_streamId, message) => {
        if (!('jsonrpc' in message)) throw failure;
        return 'kept';
      },
      replayEventsAfter: async () => SDK_GET_STREAM_ID,
    };
    const transport = createWebStandardTransport({ sessionId: undefined, jsonResponse: false, eventStore: store, retryMs: undefined });
    const seen: unknown[] = [];
    transport.onmessage = (message) => void seen.push(message);
    await transport.start();
    const body = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const response = await transport.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) }), { parsedBody: body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700, data: String(failure) } });
    expect(seen).toEqual([]);
    await transport.close();
  });
});

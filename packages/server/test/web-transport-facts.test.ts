import { createWebStandardTransport, SDK_GET_STREAM_ID } from '../src/sdk/createWebStandardTransport';
import type { EventStore } from '../src/http/EventStore';

/**
 * What Toolwright relies on in the SDK's web-standard transport and the SDK does not export:
 * the stream id its event store is given for a session's GET stream (the fetch handler maps it
 * to the cluster's `GET_STREAM_ID`). A new SDK that names it otherwise fails here first.
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
});

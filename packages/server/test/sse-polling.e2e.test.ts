import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { InMemoryEventStore, type EventStoreFactory } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import type { HttpEndpoint } from './fixtures/httpEndpoints';
import { connectClient, initializeBody, messagesOf, openRawSession, post, textOf } from './fixtures/httpHelpers';
import { serveFetch } from './fixtures/serveFetch';

class PollingTools {
  @Tool({ description: 'Lets go of its stream, works a little, then answers.' })
  async poll(@Ctx() ctx: ToolContext) {
    const closed = ctx.closeStream();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return `closed: ${closed}`;
  }

  @Tool({ description: 'Answers at once.' })
  echo() {
    return 'echo';
  }
}

/** What both endpoints are given here: resumability (an event store per session) and the `retry:` of priming events. */
interface StreamOptions {
  eventStore?: EventStoreFactory | false;
  sseRetryMs?: number;
}

/** The node listener and the fetch handler (behind a node:http bridge), each opened with the same options. */
const ENDPOINTS: readonly (readonly [label: string, open: (app: App, options: StreamOptions) => Promise<HttpEndpoint>])[] = [
  ['node listener', (app, options) => app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, sessions: { initializeRate: false }, ...options })],
  [
    'fetch handler',
    async (app, options) => {
      const handler = createFetchHandler(app, { logError: () => {}, sessions: { initializeRate: false }, ...options });
      const served = await serveFetch(handler);
      return { url: `${served.url}/mcp`, close: () => handler.close().then(() => served.close()) };
    },
  ],
];

const callPoll = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'poll', arguments: {} } });
const callEcho = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });

describe.each(ENDPOINTS)('SSE polling: ctx.closeStream(), %s with an event store', (_, open) => {
  let endpoint: HttpEndpoint;
  beforeAll(async () => {
    const app = await createApp({ name: 'polling', version: '1.0.0', tools: [PollingTools] });
    endpoint = await open(app, { eventStore: () => new InMemoryEventStore(), sseRetryMs: 20 });
  });
  afterAll(() => endpoint.close());

  it('ends the call’s stream after the priming event, before the result; a GET with Last-Event-ID gets the result', async () => {
    const session = await openRawSession(endpoint.url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(endpoint.url, callPoll(7), headers);
    const first = await call.text();
    expect(first).toMatch(/^id: (\S+)\nretry: 20\ndata: \n\n$/);
    const lastEventId = /^id: (\S+)/.exec(first)![1];

    const resumed = await fetch(endpoint.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId } });
    expect(resumed.status).toBe(200);
    expect(await messagesOf(resumed)).toEqual([{ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'closed: true' }] } }]);
  });

  it('is transparent to the SDK client, which reconnects by itself from the priming event', async () => {
    const { client } = await connectClient(endpoint.url);
    expect(textOf(await client.callTool({ name: 'poll', arguments: {} }))).toBe('closed: true');
    await client.close();
  });
});

describe('SSE polling where there is no stream to close', () => {
  it('returns false, and the call goes on', async () => {
    const app = await createApp({ name: 'polling', version: '1.0.0', tools: [PollingTools] });
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'poll', arguments: {} }))).toBe('closed: false');
    await client.close();
    const json = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, jsonResponse: true });
    const { client: viaJson } = await connectClient(json.url);
    expect(textOf(await viaJson.callTool({ name: 'poll', arguments: {} }))).toBe('closed: false');
    await viaJson.close();
    await json.close();
    // The fetch handler keeps no events unless given a store: no priming event, nothing to resume from.
    const [, openFetch] = ENDPOINTS[1];
    const fetchEndpoint = await openFetch(app, {});
    const { client: viaFetch } = await connectClient(fetchEndpoint.url);
    expect(textOf(await viaFetch.callTool({ name: 'poll', arguments: {} }))).toBe('closed: false');
    await viaFetch.close();
    await fetchEndpoint.close();
  });
});

/** One HTTP answer as the client saw it. */
interface Answer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  text: string;
}

const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  contentType: response.headers.get('content-type'),
  retryAfter: response.headers.get('retry-after'),
  text: await response.text(),
});

/** An event store that fails to store priming events (an empty message), or the other events, while `down` says so. */
class FlakyStore extends InMemoryEventStore {
  static down: 'priming' | 'messages' | undefined;
  override async storeEvent(streamId: string, message: Parameters<InMemoryEventStore['storeEvent']>[1]): Promise<string> {
    if (FlakyStore.down === ('jsonrpc' in message ? 'messages' : 'priming')) throw new Error('store unreachable');
    return super.storeEvent(streamId, message);
  }
}

/** A session: its initialize answer, and the headers of its later requests. */
async function openSession(url: string, version: string): Promise<{ initialize: Answer; headers: Record<string, string> }> {
  const response = await post(url, initializeBody(1, version));
  const session = response.headers.get('mcp-session-id')!;
  const initialize = await answerOf(response);
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': version };
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  return { initialize, headers };
}

interface Scenario {
  readonly title: string;
  readonly options: () => StreamOptions;
  /** The exchange, each answer as the client saw it. */
  readonly run: (url: string, app: App) => Promise<Answer[]>;
  /** What the node listener's answers are (the fetch handler's must be the same). */
  readonly expected: (answers: Answer[]) => void;
}

const PRIMING = /^id: (\d+)\n(?:retry: 20\n)?data: \n\n/;
/** The event ids of an SSE body, in order, each with whether its data is empty (a priming event). */
const eventsOf = (text: string) => [...text.matchAll(/^id: (\d+)\n(?:retry: \d+\n)?data: (.*)$/gm)].map((m) => ({ id: Number(m[1]), empty: m[2] === '' }));

const SCENARIOS: readonly Scenario[] = [
  {
    title: 'a 2025-11-25 session with sseRetryMs: every POST stream opens with id, retry and empty data, then its messages with later ids',
    options: () => ({ eventStore: () => new InMemoryEventStore(), sseRetryMs: 20 }),
    run: async (url) => {
      const { initialize, headers } = await openSession(url, '2025-11-25');
      return [initialize, await answerOf(await post(url, callEcho(2), headers))];
    },
    expected: ([initialize, call]) => {
      for (const answer of [initialize, call]) {
        expect(answer.text).toMatch(/^id: \d+\nretry: 20\ndata: \n\nevent: message\nid: \d+\ndata: \{/);
        const events = eventsOf(answer.text);
        expect(events.map((e) => e.empty)).toEqual([true, false]);
        expect(events[1].id).toBeGreaterThan(events[0].id);
      }
      expect(eventsOf(initialize.text)[1].id).toBeLessThan(eventsOf(call.text)[0].id);
    },
  },
  {
    title: 'a 2025-11-25 session without sseRetryMs: the priming event has no retry field',
    options: () => ({ eventStore: () => new InMemoryEventStore() }),
    run: async (url) => {
      const { headers } = await openSession(url, '2025-11-25');
      return [await answerOf(await post(url, callEcho(2), headers))];
    },
    expected: ([call]) => expect(call.text).toMatch(/^id: (\d+)\ndata: \n\nevent: message\nid: \d+\ndata: \{.*"echo".*\}\n\n$/),
  },
  {
    title: 'a 2025-06-18 session: events carry ids, and there is no priming event',
    options: () => ({ eventStore: () => new InMemoryEventStore(), sseRetryMs: 20 }),
    run: async (url) => {
      const { initialize, headers } = await openSession(url, '2025-06-18');
      return [initialize, await answerOf(await post(url, callEcho(2), headers))];
    },
    expected: (answers) => {
      for (const answer of answers) expect(answer.text).toMatch(/^event: message\nid: \d+\ndata: \{/);
    },
  },
  {
    title: 'a POST without MCP-Protocol-Version (2025-03-26 assumed): no priming event',
    options: () => ({ eventStore: () => new InMemoryEventStore(), sseRetryMs: 20 }),
    run: async (url) => {
      const { headers } = await openSession(url, '2025-11-25');
      return [await answerOf(await post(url, callEcho(2), { 'mcp-session-id': headers['mcp-session-id'] }))];
    },
    expected: ([call]) => expect(call.text).toMatch(/^event: message\nid: \d+\ndata: \{/),
  },
  {
    // The version is the client's, not yet negotiated: the SDK primes only for a version it supports.
    title: 'an initialize asking for a later version than any supported: answered 2025-11-25, without a priming event',
    options: () => ({ eventStore: () => new InMemoryEventStore(), sseRetryMs: 20 }),
    run: async (url) => [await answerOf(await post(url, initializeBody(1, '2099-01-01')))],
    expected: ([initialize]) => {
      expect(initialize.text).toMatch(/^event: message\nid: 1\ndata: \{.*"protocolVersion":"2025-11-25"/);
    },
  },
  {
    title: 'no event store: no priming event and no event ids',
    options: () => ({ eventStore: false, sseRetryMs: 20 }),
    run: async (url) => {
      const { initialize, headers } = await openSession(url, '2025-11-25');
      return [initialize, await answerOf(await post(url, callEcho(2), headers))];
    },
    expected: (answers) => {
      for (const answer of answers) expect(answer.text).toMatch(/^event: message\ndata: \{[^\n]*\}\n\n$/);
    },
  },
  {
    title: 'a priming event the store fails to keep: 503 with Retry-After, and the same request succeeds once the store is back',
    options: () => ({ eventStore: () => new FlakyStore(), sseRetryMs: 20 }),
    run: async (url) => {
      const { headers } = await openSession(url, '2025-11-25');
      FlakyStore.down = 'priming';
      let refused: Answer;
      try {
        refused = await answerOf(await post(url, callEcho(2), headers));
      } finally {
        FlakyStore.down = undefined;
      }
      return [refused, await answerOf(await post(url, callEcho(2), headers))];
    },
    expected: ([refused, retried]) => {
      expect(refused).toEqual({
        status: 503,
        contentType: 'application/json',
        retryAfter: '1',
        text: JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: "Service unavailable: the event store failed to store this stream's first event (store unreachable). Retry shortly." },
          id: null,
        }),
      });
      expect(retried.status).toBe(200);
      expect(retried.text).toMatch(/^id: \d+\nretry: 20\ndata: \n\nevent: message\nid: \d+\ndata: \{.*"echo".*"id":2\}\n\n$/);
    },
  },
  {
    title: 'a message the store fails to keep: sent without an id (it cannot be replayed), and the call is answered',
    options: () => ({ eventStore: () => new FlakyStore(), sseRetryMs: 20 }),
    run: async (url) => {
      const { headers } = await openSession(url, '2025-11-25');
      FlakyStore.down = 'messages';
      try {
        return [await answerOf(await post(url, callEcho(2), headers))];
      } finally {
        FlakyStore.down = undefined;
      }
    },
    expected: ([call]) => {
      expect(call.status).toBe(200);
      expect(call.text).toMatch(/^id: \d+\nretry: 20\ndata: \n\nevent: message\ndata: \{.*"echo".*"id":2\}\n\n$/);
    },
  },
  {
    title: "the session's GET stream: no priming event; its first event is the first notification, with an id",
    options: () => ({ eventStore: () => new InMemoryEventStore(), sseRetryMs: 20 }),
    run: async (url, app) => {
      const { headers } = await openSession(url, '2025-11-25');
      const stream = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
      const reader = stream.body!.getReader();
      app.tools.disable('echo');
      let text = '';
      try {
        while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      } finally {
        await reader.cancel();
        app.tools.enable('echo');
      }
      return [{ status: stream.status, contentType: stream.headers.get('content-type'), retryAfter: null, text: text.slice(0, text.indexOf('\n\n') + 2) }];
    },
    expected: ([get]) => {
      expect(get.status).toBe(200);
      expect(get.text).toMatch(/^event: message\nid: \d+\ndata: \{[^\n]*"method":"notifications\/tools\/list_changed"[^\n]*\}\n\n$/);
    },
  },
];

/**
 * Priming events (spec 2025-11-25, SSE polling): with an event store, the node listener (its own
 * transport) and the fetch handler (the SDK's web-standard one) answer alike, byte for byte. A
 * POST's SSE stream opens with an event id and empty data (and `retry:` if `sseRetryMs` is set)
 * before its first message, for a client of a supported version from 2025-11-25 on; a store
 * that cannot keep that event gets 503 with Retry-After from both.
 */
describe.each(SCENARIOS)('priming events, node listener and fetch handler alike: $title', ({ options, run, expected }) => {
  it('gives the same answers on both endpoints', async () => {
    const answers: Answer[][] = [];
    for (const [, open] of ENDPOINTS) {
      const app = await createApp({ name: 'priming', version: '1.0.0', tools: [PollingTools], listChangedDebounceMs: 1 });
      const endpoint = await open(app, options());
      try {
        answers.push(await run(endpoint.url, app));
      } finally {
        await endpoint.close();
      }
    }
    const [node, fetched] = answers;
    expected(node);
    expect(fetched).toEqual(node);
    // Every priming event is its stream's first event, and data is empty.
    for (const answer of node) if (PRIMING.test(answer.text)) expect(eventsOf(answer.text)[0].empty).toBe(true);
  });
});

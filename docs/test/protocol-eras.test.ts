import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { createTripApp } from '../snippets/eras/server';
import { Bookings, TripTools } from '../snippets/eras/trip.tools';
import { textOf } from './helpers';

const SEATS = { action: 'accept' as const, content: { cabin: 'economy', count: 2 } };
const TIP = { role: 'assistant' as const, content: { type: 'text' as const, text: 'Take the night train.' }, model: 'm' };
const BOOKED = 'Booked 2 economy seat(s) to Paris. Take the night train.';

describe('protocol eras page', () => {
  let app: App;
  let listener: HttpListener;
  let bookings: Bookings;
  let runs = 0;

  beforeAll(async () => {
    // The page's class, counting how often its method runs.
    const tools = new TripTools((bookings = new Bookings()));
    const bookTrip = tools.bookTrip.bind(tools);
    tools.bookTrip = (...args) => (runs++, bookTrip(...args));
    app = await createApp({ name: 'trips', version: '1.0.0', tools: [TripTools], container: { get: <T>() => tools as T }, requestState: { keys: ['k'.repeat(32)] } });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it('runs the method once for a 2025-era session, asking the client with requests', async () => {
    const client = new LegacyClient({ name: 'legacy', version: '1' }, { capabilities: { elicitation: {}, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => SEATS);
    client.setRequestHandler(CreateMessageRequestSchema, () => TIP);
    await client.connect(new LegacyHttp(new URL(listener.url)));
    runs = 0;
    expect(textOf(await client.callTool({ name: 'book_trip', arguments: { to: 'Paris' } }))).toBe(BOOKED);
    expect(runs).toBe(1);
    await client.close();
  });

  it('runs it again per round for a 2026-07-28 client, both questions in one round, and books once', async () => {
    const client = new ModernClient({ name: 'modern', version: '1' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', () => SEATS);
    client.setRequestHandler('sampling/createMessage', () => TIP);
    await client.connect(new ModernHttp(new URL(listener.url)));
    runs = 0;
    bookings.made.length = 0;
    expect(textOf(await client.callTool({ name: 'book_trip', arguments: { to: 'Paris' } }))).toBe(BOOKED);
    expect(runs).toBe(2);
    expect(bookings.made).toEqual(['Paris: 2 economy (Take the night train.)']);
    await client.close();
  });
});

describe('protocol eras page: the state between rounds', () => {
  const OLD = 'o'.repeat(32);
  const NEW = 'n'.repeat(32);
  const listeners: HttpListener[] = [];
  const instance = async (env: NodeJS.ProcessEnv) => {
    const listener = await (await createTripApp(env)).listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    listeners.push(listener);
    return listener.url;
  };
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  let id = 0;
  /** One 2026-07-28 tools/call of book_trip, as raw JSON-RPC over HTTP. */
  async function bookTrip(url: string, extra: Record<string, unknown> = {}) {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'book_trip' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'book_trip', arguments: { to: 'Rome' }, ...extra, _meta: meta } }),
    });
    const body = await res.text();
    const line = res.headers.get('content-type')?.startsWith('text/event-stream')
      ? body
          .split('\n')
          .filter((l) => l.startsWith('data:') && l.length > 6)
          .pop()!
          .slice(5)
      : body;
    return JSON.parse(line) as { result?: { requestState?: string; inputRequests?: object; content?: unknown }; error?: { code: number; message: string } };
  }
  const answers = { 'elicit-1': SEATS, 'sample-2': TIP };

  it('lets a round that started on one instance finish on another, across a key rotation; a dropped key is refused', async () => {
    const before = await instance({ STATE_KEY: OLD });
    const during = await instance({ STATE_KEY: NEW, OLD_STATE_KEY: OLD });
    const after = await instance({ STATE_KEY: NEW });
    const r1 = await bookTrip(before);
    expect(Object.keys(r1.result!.inputRequests!)).toEqual(['elicit-1', 'sample-2']);
    const r2 = await bookTrip(during, { inputResponses: answers, requestState: r1.result!.requestState });
    expect(textOf(r2.result)).toBe('Booked 2 economy seat(s) to Rome. Take the night train.');
    const again = await bookTrip(before);
    const refused = await bookTrip(after, { inputResponses: answers, requestState: again.result!.requestState });
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringMatching(/integrity check/) });
  });

  it('says at startup what is wrong with a key', async () => {
    await expect(createTripApp({ STATE_KEY: 'short' })).rejects.toThrow('requestState.keys[0] has 5 bytes; a key needs at least 32');
  });
});

import 'reflect-metadata';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { ASKS, Asking, MALFORMED, seen } from './fixtures/hostileAnswers';
import { messagesOf, post } from './fixtures/httpHelpers';
import { openLegacySseSession, type LegacySseSession } from './fixtures/openLegacySseSession';
import { serveFetch } from './fixtures/serveFetch';

/**
 * A 2025-11-25 client's malformed answers (see MALFORMED) to the requests a tool sends it, POSTed
 * raw over Streamable HTTP on 127.0.0.1 and over the legacy HTTP+SSE transport. The POST is
 * refused (400, -32600) as before; the question it answers now fails at once with the ToolError
 * the stdio path gives (client-answers-hostile.e2e.test.ts), where it waited for its timeout (10
 * minutes for a form). Only the session the POST names is touched, and only a question it has open.
 */
let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'asking', version: '1.0.0', tools: [Asking] });
});

type Message = Record<string, unknown> & { id?: unknown; method?: string; result?: { isError?: boolean; content?: { text: string }[] } };
type Answer = { result: string } | { error: string };

const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
/** How long a test waits for an event the server should send at once: the question's own timeout is 10 minutes. */
const PROMPTLY_MS = 5_000;

/** The raw JSON text of a client's answer to request `id`. */
const answerText = (id: unknown, answer: Answer) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},${'result' in answer ? `"result":${answer.result}` : `"error":${answer.error}`}}`;
const failedText = (tool: string, reason: string) => `The client did not answer the ${ASKS[tool].what} request: its response is not valid JSON-RPC: ${reason}`;
const refusal = (reason: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${reason}` } });

/** The JSON-RPC messages of an SSE response, read as they come. */
function sseOf(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    /** The first message `match` accepts, within PROMPTLY_MS. */
    async next(match: (message: Message) => boolean, what: string): Promise<Message> {
      const deadline = Date.now() + PROMPTLY_MS;
      for (;;) {
        const found = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]) as Message).find(match);
        if (found) return found;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not come within ${PROMPTLY_MS} ms; the stream so far:\n${text}`)), deadline - Date.now())),
        );
        const { value, done } = await Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
        if (done) throw new Error(`the stream ended before ${what}:\n${text}`);
        text += value;
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

/** A raw 2025-11-25 client of one Streamable HTTP session, initialized with every capability a tool may ask for. */
async function openSession(url: string) {
  const init = await post(url, { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: CAPABILITIES, clientInfo: { name: 'raw', version: '1' } } });
  expect(init.status).toBe(200);
  await init.text();
  const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  let calls = 0;
  return {
    headers,
    /** Calls `tool` and waits for the request it sends the client on the call's stream. */
    async startCall(tool: string) {
      const id = `call-${++calls}`;
      const stream = sseOf(await post(url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } }, headers));
      const request = await stream.next((m) => typeof m.method === 'string' && m.id !== undefined, `the request '${tool}' sends the client`);
      return { request, answer: () => stream.next((m) => m.id === id && m.method === undefined, `the answer to ${id}`).finally(stream.cancel) };
    },
    /** POSTs raw JSON text in this session (or with other headers); the status and the JSON it was answered with. */
    async send(text: string, sendHeaders: Record<string, string> = headers) {
      const response = await post(url, text, sendHeaders);
      const body = await response.text();
      return { status: response.status, body: body === '' ? undefined : (JSON.parse(body) as unknown) };
    },
    async stillServes() {
      expect(await messagesOf(await post(url, { jsonrpc: '2.0', id: 'ping', method: 'ping' }, headers))).toEqual([{ jsonrpc: '2.0', id: 'ping', result: {} }]);
    },
  };
}

const servers: readonly [string, () => Promise<{ url: string; close(): Promise<unknown> }>][] = [
  ['the Node listener', () => app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false })],
  ["the Node listener with the SDK's transport", () => app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, httpTransport: 'sdk' })],
  [
    'the fetch handler',
    async () => {
      const handler = createFetchHandler(app, { logError: () => undefined });
      const served = await serveFetch(handler);
      return { url: `${served.url}/mcp`, close: () => Promise.all([handler.close(), served.close()]) };
    },
  ],
];

describe.each(servers)("2025-11-25 over Streamable HTTP, %s: a client's malformed answer", (_name, serve) => {
  let server: { url: string; close(): Promise<unknown> };
  let session: Awaited<ReturnType<typeof openSession>>;
  beforeAll(async () => {
    server = await serve();
    session = await openSession(server.url);
  });
  afterAll(() => server.close());

  test.each(['raw', 'url', 'sample', 'roots'].flatMap((tool) => MALFORMED.map(([what, answer, reason]) => [tool, what, answer, reason] as const)))(
    '%s: %s is refused (400) and fails the question at once, saying why',
    async (tool, _what, answer, reason) => {
      const call = await session.startCall(tool);
      const posted = await session.send(answerText(call.request.id, answer));
      expect(posted).toEqual({ status: 400, body: refusal(reason) });
      expect(JSON.stringify(posted.body)).not.toMatch(/s3cr3t|secret\.js/);
      const message = failedText(tool, reason);
      expect((await call.answer()).result).toEqual({ content: [{ type: 'text', text: message }], isError: true });
      expect(seen.at(-1)).toBe(message);
      await session.stillServes();
    },
  );

  it('in a batch, fails its question too; the batch is refused whole, as before', async () => {
    const call = await session.startCall('raw');
    const [, answer, reason] = MALFORMED[0];
    const posted = await session.send(`[{"jsonrpc":"2.0","id":"in-batch","method":"ping"},${answerText(call.request.id, answer)}]`);
    expect(posted).toEqual({ status: 400, body: refusal(reason) });
    expect((await call.answer()).result?.content?.[0].text).toBe(failedText('raw', reason));
    await session.stillServes();
  });

  it('reaches no other session, no session the POST does not name or names at another version, and no question not open', async () => {
    const call = await session.startCall('raw');
    const other = await openSession(server.url);
    const [, answer, reason] = MALFORMED[0];
    const text = answerText(call.request.id, answer);
    // Another session, no session, an unknown one, the session at another version: each refused as before, the question untouched.
    for (const headers of [other.headers, {}, { ...session.headers, 'mcp-session-id': 'no-such-session' }, { ...session.headers, 'mcp-protocol-version': '2025-06-18' }]) {
      expect(await session.send(text, headers)).toEqual({ status: 400, body: refusal(reason) });
    }
    // Ids of no open question of this session, Object.prototype member names too.
    for (const id of ['never-sent', 424242, '__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(await session.send(answerText(id, answer))).toEqual({ status: 400, body: refusal(reason) });
    await other.stillServes();
    // The question still waits: a good answer ends it.
    expect((await session.send(answerText(call.request.id, { result: '{"action":"decline"}' }))).status).toBe(202);
    expect((await call.answer()).result?.content?.[0].text).toBe('decline');
    // A malformed answer to the question now answered changes nothing.
    expect((await session.send(text)).status).toBe(400);
    await session.stillServes();
  });
});

describe('2025-11-25 over the legacy HTTP+SSE transport', () => {
  it("a client's malformed answer is refused (400) and fails the question at once, saying why", async () => {
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, legacySse: true });
    let session: LegacySseSession | undefined;
    try {
      session = await openLegacySseSession(listener.url, '2025-11-25', CAPABILITIES);
      const { send, nextData } = session;
      expect((await send('{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"raw","arguments":{}}}')).status).toBe(202);
      const request = JSON.parse(await nextData((data) => data.includes('"method":"elicitation/create"'))) as Message;
      const [, answer, reason] = MALFORMED[0];
      // Ids of no open question first: nothing happens.
      expect((await send(answerText('never-sent', answer))).status).toBe(400);
      const refused = await send(answerText(request.id, answer));
      expect(refused.status).toBe(400);
      await refused.text();
      const answered = nextData((data) => data.includes('"id":"call"'));
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the call was not answered within ${PROMPTLY_MS} ms`)), PROMPTLY_MS).unref());
      expect((JSON.parse(await Promise.race([answered, late])) as Message).result).toEqual({ content: [{ type: 'text', text: failedText('raw', reason) }], isError: true });
    } finally {
      await session?.close();
      await listener.close();
    }
  });
});

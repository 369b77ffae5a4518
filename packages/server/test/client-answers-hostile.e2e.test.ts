import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createTestClient } from '@toolwright/server/testing';
import { ASKS, Asking, deep, keys, MALFORMED, Person, seen, TEXT, WRONG_SHAPES } from './fixtures/hostileAnswers';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { listenInMemory } from './fixtures/memoryStdio';
import { serveFetch } from './fixtures/serveFetch';
import { waitFor } from './fixtures/waitFor';

/**
 * A 2025-11-25 client's answers to the requests a tool sends it through `ctx.elicit`,
 * `ctx.elicitUrl`, `ctx.sample` and `ctx.listRoots`, written as raw JSON lines (stdio, in
 * memory), where the SDK client would refuse to send them: wrong shapes, hostile keys, huge and
 * deep values, JSON-RPC errors of any size, answers to ids never sent, twice, or too late.
 * The tool sees a value the SDK's schema parsed, or a `ToolError` that names the field; the
 * wire carries an `isError` result of a few hundred bytes, never a schema dump or a stack;
 * the session keeps serving and keeps nothing of an answer nobody waits for. Over HTTP, the
 * SDK v2 client's own answers (it checks elicitation and sampling results, not roots) land the
 * same way. The 2026-07-28 twin is input-responses-hostile.e2e.test.ts.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'asking', version: '1.0.0', tools: [Asking] });
});

type Message = Record<string, unknown> & { id?: unknown; method?: string; result?: { isError?: boolean; content?: { text: string }[]; structuredContent?: unknown } };
type Session = Awaited<ReturnType<typeof listenInMemory>>;

/** A 2025-11-25 stdio session in memory, initialized with every capability a tool may ask for. */
async function openSession(): Promise<Session> {
  const session = await listenInMemory(app);
  const capabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
  session.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } } });
  await session.answer('init');
  session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return session;
}

let calls = 0;
/** Calls `tool` and waits for the request it sends the client; the call's id and that request. */
async function startCall(session: Session, tool: string): Promise<{ call: string; request: Message }> {
  const call = `call-${++calls}`;
  const from = session.out.length;
  session.send({ jsonrpc: '2.0', id: call, method: 'tools/call', params: { name: tool, arguments: {} } });
  const request = await waitFor(() => (session.out.slice(from) as Message[]).find((m) => typeof m.method === 'string' && m.id !== undefined), `the request '${tool}' sends the client`);
  return { call, request };
}

/** Calls `tool`, answers its request with the raw `result` (or `error`) JSON text, and returns the call's answer. */
async function callAnswered(session: Session, tool: string, answer: { result: string } | { error: string }): Promise<Message> {
  const { call, request } = await startCall(session, tool);
  const id = JSON.stringify(request.id);
  session.sendLine('result' in answer ? `{"jsonrpc":"2.0","id":${id},"result":${answer.result}}` : `{"jsonrpc":"2.0","id":${id},"error":${answer.error}}`);
  return (await session.answer(call)) as Message;
}

async function stillServes(session: Session): Promise<void> {
  const id = `ping-${++calls}`;
  session.send({ jsonrpc: '2.0', id, method: 'ping' });
  expect(await session.answer(id)).toEqual({ jsonrpc: '2.0', id, result: {} });
}

const textOf = (answer: Message) => answer.result?.content?.[0]?.text ?? '';
const notValid = (tool: string, problem: string) => `The client's answer to the ${ASKS[tool].what} request is not a valid ${ASKS[tool].method} result: ${problem}.`;
describe("2025-11-25: a client's hostile answers to the server's requests", () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => session.close());

  test.each(WRONG_SHAPES)('%s: %s is refused naming the field', async (tool, _what, result, problem) => {
    const message = notValid(tool, problem);
    const answer = await callAnswered(session, tool, { result });
    expect(answer.result).toEqual({ content: [{ type: 'text', text: message }], isError: true });
    expect(seen.at(-1)).toBe(message);
    await stillServes(session);
  });

  test.each(['raw', 'url', 'sample', 'roots'].flatMap((tool) => MALFORMED.map(([what, answer, reason]) => [tool, what, answer, reason] as const)))(
    '%s: %s fails the question at once, saying why',
    async (tool, _what, answer, reason) => {
      const from = session.out.length;
      const message = `The client did not answer the ${ASKS[tool].what} request: its response is not valid JSON-RPC: ${reason}`;
      expect((await callAnswered(session, tool, answer)).result).toEqual({ content: [{ type: 'text', text: message }], isError: true });
      expect(seen.at(-1)).toBe(message);
      // The client hears what was wrong with its message too; nothing it sent is echoed.
      expect(session.out.slice(from)).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${reason}` } });
      expect(JSON.stringify(session.out.slice(from))).not.toMatch(/s3cr3t|secret\.js/);
      await stillServes(session);
    },
  );

  it('a DTO form refuses a value of the wrong type and an undeclared key, whatever its name; __proto__ never reaches it', async () => {
    expect(textOf(await callAnswered(session, 'dto', { result: '{"action":"accept","content":{"name":5}}' }))).toBe(
      "The user's answer does not fit the form:\n- name: must be a string (got number 5)",
    );
    expect(textOf(await callAnswered(session, 'dto', { result: '{"action":"accept","content":{"name":"Ada","extra":"x"}}' }))).toBe(
      "The user's answer does not fit the form:\n- extra: is not allowed (unknown property)",
    );
    const many = await callAnswered(session, 'dto', { result: `{"action":"accept","content":${keys(10_000, '"x"')}}` });
    expect(many.result?.isError).toBe(true);
    expect(textOf(many).length).toBeLessThan(2_000);
    // Keys the form does not declare are refused whatever they are named (before, constructor and hasOwnProperty were dropped unseen).
    expect(textOf(await callAnswered(session, 'dto', { result: '{"action":"accept","content":{"name":"Ada","constructor":"x","hasOwnProperty":"y"}}' }))).toBe(
      "The user's answer does not fit the form:\n- constructor: is not allowed (unknown property)\n- hasOwnProperty: is not allowed (unknown property)",
    );
    // __proto__ is dropped by the SDK's parse.
    const hostile = '{"action":"accept","content":{"name":"Ada","__proto__":{"polluted":"yes"}}}';
    expect(textOf(await callAnswered(session, 'dto', { result: hostile }))).toBe('hello Ada');
    const { content } = seen.at(-1) as { content: Person };
    expect(content).toBeInstanceOf(Person);
    expect(Object.keys(content).filter((key) => (content as unknown as Record<string, unknown>)[key] !== undefined)).toEqual(['name']);
    expect(Object.hasOwn(content, 'constructor') || Object.hasOwn(content, 'hasOwnProperty')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a raw schema takes what JSON Schema allows (an undeclared key, a lone surrogate) and never a __proto__ key', async () => {
    await callAnswered(session, 'raw', { result: '{"action":"accept","content":{"name":"\\ud800","extra":"x","__proto__":{"polluted":"yes"}}}' });
    const { content } = seen.at(-1) as { content: Record<string, unknown> };
    expect(content).toEqual({ name: '\ud800', extra: 'x' });
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.hasOwn(content, '__proto__')).toBe(false);
    expect(content.polluted).toBeUndefined();
  });

  it('a declined or cancelled form carries no content, whatever the client sent with it', async () => {
    expect(textOf(await callAnswered(session, 'raw', { result: '{"action":"decline","content":{"name":"Ada"}}' }))).toBe('decline');
    expect(seen.at(-1)).toEqual({ action: 'decline' });
  });

  it("a sampling reply keeps the spec's extra keys, drops __proto__, and goes back out as it came", async () => {
    const answer = await callAnswered(session, 'sample', { result: `{"role":"assistant","content":${TEXT},"model":"m","stopReason":"endTurn","vendor":{"x":1},"__proto__":{"polluted":"yes"}}` });
    const reply = seen.at(-1) as Record<string, unknown>;
    expect(reply).toEqual({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm', stopReason: 'endTurn', vendor: { x: 1 } });
    expect(Object.getPrototypeOf(reply)).toBe(Object.prototype);
    expect(answer.result?.isError).toBeUndefined();
    expect(JSON.parse(textOf(answer))).toEqual(reply);
  });

  it('100,000 roots are listed; a JSON-RPC error of 5 MB is quoted in 300 characters', async () => {
    const roots = Array.from({ length: 100_000 }, (_, i) => `{"uri":"file:///r${i}","name":"r${i}","x":{"a":[1]}}`).join(',');
    expect(textOf(await callAnswered(session, 'roots', { result: `{"roots":[${roots}]}` }))).toBe('{"count":100000}');
    expect((seen.at(-1) as unknown[])[0]).toEqual({ uri: 'file:///r0', name: 'r0' });

    const huge = await callAnswered(session, 'dto', { error: `{"code":-32603,"message":"${'m'.repeat(5_000_000)}","data":{"stack":"at /srv/app.js:1","__proto__":{"polluted":"yes"}}}` });
    expect(huge.result?.isError).toBe(true);
    expect(textOf(huge)).toBe(`The client did not answer the elicitation request: ${'m'.repeat(299)}…`);
    const deepData = await callAnswered(session, 'raw', { error: `{"code":1,"message":"No.","data":${deep(100_000)}}` });
    expect(textOf(deepData)).toBe('The client did not answer the elicitation request: No.');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await stillServes(session);
  });
});

describe('2025-11-25: answers nobody waits for', () => {
  it('answers to ids never sent (large, deep), a second answer, and answers after a cancel or a timeout change nothing and are not kept', async () => {
    const session = await openSession();
    try {
      await stillServes(session);
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 100; i++) session.sendLine(`{"jsonrpc":"2.0","id":${10_000 + i},"result":{"x":"${'a'.repeat(1_000_000)}"}}`);
      session.sendLine(`{"jsonrpc":"2.0","id":777,"result":{"x":${deep(100_000)}}}`);
      session.sendLine(`{"jsonrpc":"2.0","id":778,"error":{"code":1,"message":"m","data":${deep(100_000)}}}`);
      session.sendLine('{"jsonrpc":"2.0","id":"never-sent","result":{"action":"accept","content":{"name":"Eve"}}}');
      await stillServes(session);
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      // 100 MB of answers went by: a few MB is noise, a kept answer is a megabyte each.
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);

      // An answer longer than a stdio line may be (16 MB) is refused unread; the call waits on, and a good answer still ends it.
      const oversized = await startCall(session, 'raw');
      session.sendLine(`{"jsonrpc":"2.0","id":${JSON.stringify(oversized.request.id)},"result":{"action":"accept","content":{"name":"${'a'.repeat(20_000_000)}"}}}`);
      await waitFor(() => (session.out as Message[]).some((m) => m.id === null), 'the refusal of the oversized line');
      expect((session.out as Message[]).find((m) => m.id === null)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Message too large: a single line may hold at most 16777216 bytes.' },
      });
      session.send({ jsonrpc: '2.0', id: oversized.request.id, result: { action: 'accept', content: { name: 'Ada' } } });
      expect(textOf((await session.answer(oversized.call)) as Message)).toBe('accept');

      // Two answers to one request: the first counts.
      const twice = await startCall(session, 'raw');
      session.send({ jsonrpc: '2.0', id: twice.request.id, result: { action: 'accept', content: { name: 'first' } } });
      session.send({ jsonrpc: '2.0', id: twice.request.id, result: { action: 'decline' } });
      expect(textOf((await session.answer(twice.call)) as Message)).toBe('accept');
      expect(seen.at(-1)).toEqual({ action: 'accept', content: { name: 'first' } });
      await stillServes(session);

      // Cancelled: the server withdraws its request, and the late answer finds no one.
      const cancelled = await startCall(session, 'raw');
      session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: cancelled.call } });
      await waitFor(() => (session.out as Message[]).some((m) => m.method === 'notifications/cancelled'), 'the withdrawn request');
      session.send({ jsonrpc: '2.0', id: cancelled.request.id, result: { action: 'accept', content: { name: 'late' } } });
      await stillServes(session);
      expect((session.out as Message[]).some((m) => m.id === cancelled.call)).toBe(false);

      // Timed out: the call is answered as such, and the late answer changes nothing.
      const hurried = await startCall(session, 'hurried');
      expect(textOf((await session.answer(hurried.call)) as Message)).toBe("Tool 'hurried' timed out after 200 ms.");
      session.send({ jsonrpc: '2.0', id: hurried.request.id, result: { action: 'accept', content: { name: 'late' } } });
      await stillServes(session);
      expect((session.out as Message[]).filter((m) => m.id === hurried.call)).toHaveLength(1);

      // Malformed answers to ids never sent, or to a request answered already: refused (-32600), and nothing else happens.
      session.sendLine(`{"jsonrpc":"2.0","id":779,"error":"${'e'.repeat(1_000_000)}"}`);
      session.sendLine(`{"jsonrpc":"2.0","id":"never-sent","result":${deep(100_000)}}`);
      session.sendLine(`{"jsonrpc":"2.0","id":${JSON.stringify(twice.request.id)},"error":{"code":"x"}}`);
      await stillServes(session);
    } finally {
      await session.close();
    }
  });
});

describe('2025-11-25 over HTTP on 127.0.0.1', () => {
  /** The app behind the Node listener and behind the web-standard fetch handler (the SDK's own web transport). */
  const servers: readonly [string, () => Promise<{ url: string; close(): Promise<unknown> }>][] = [
    ['the Node listener', () => app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false })],
    [
      'the fetch handler',
      async () => {
        const handler = createFetchHandler(app, { logError: () => undefined });
        const served = await serveFetch(handler);
        return { url: `${served.url}/mcp`, close: () => Promise.all([handler.close(), served.close()]) };
      },
    ],
  ];

  test.each(servers)('%s takes answers to ids it never sent, deep ones too (202), keeps the batch they came in, and serves on', async (_name, serve) => {
    const server = await serve();
    try {
      const session = await openRawSession(server.url);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      for (const id of [1, 'x', 10_000]) {
        const posted = await post(server.url, { jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'Eve' } } }, headers);
        expect(posted.status).toBe(202);
      }
      // Before: the SDK threw wording its "unknown message ID" report (HTTP 500 from the Node listener, 400 with the RangeError from the fetch handler).
      for (const answer of [`"result":{"x":${deep(100_000)}}`, `"error":{"code":1,"message":"m","data":${deep(100_000)}}`]) {
        const posted = await post(server.url, `{"jsonrpc":"2.0","id":5,${answer}}`, headers);
        expect({ status: posted.status, body: await posted.text() }).toEqual({ status: 202, body: '' });
      }
      const batch = await post(server.url, `[{"jsonrpc":"2.0","id":6,"result":{"x":${deep(100_000)}}},{"jsonrpc":"2.0","id":"in-batch","method":"ping"}]`, headers);
      expect(await messagesOf(batch)).toContainEqual({ jsonrpc: '2.0', id: 'in-batch', result: {} });
      const huge = await post(server.url, `{"jsonrpc":"2.0","id":7,"result":{"x":"${'a'.repeat(5_000_000)}"}}`, headers);
      expect(huge.status).toBe(413);
      expect(await messagesOf(await post(server.url, { jsonrpc: '2.0', id: 'ping', method: 'ping' }, headers))).toEqual([{ jsonrpc: '2.0', id: 'ping', result: {} }]);
    } finally {
      await server.close();
    }
  });

  it("its handlers' bad elicitation and sampling results become its own -32602 errors, quoted short; its roots go unchecked and are refused here", async () => {
    const client = await createTestClient(app, {
      transport: 'http',
      elicitation: () => ({ action: 'maybe' }) as never,
      sampling: () => ({ role: 'system', content: { type: 'text', text: 'x'.repeat(100_000) }, model: 'm' }) as never,
      roots: [{ uri: 'https://example.com/' }],
    });
    try {
      const elicited = (await client.callTool({ name: 'raw', arguments: {} })) as Message['result'];
      expect(elicited?.isError).toBe(true);
      expect(elicited?.content?.[0].text).toMatch(/^The client did not answer the elicitation request: Invalid elicitation result: /);
      expect(elicited?.content?.[0].text.length).toBeLessThanOrEqual('The client did not answer the elicitation request: '.length + 300);
      const sampled = (await client.callTool({ name: 'sample', arguments: {} })) as Message['result'];
      expect(sampled?.content?.[0].text).toMatch(/^The client did not answer the sampling request: Invalid sampling result: /);
      expect(sampled?.content?.[0].text.length).toBeLessThanOrEqual('The client did not answer the sampling request: '.length + 300);
      const listed = (await client.callTool({ name: 'roots', arguments: {} })) as Message['result'];
      expect(listed).toEqual({ content: [{ type: 'text', text: notValid('roots', "roots[0].uri must be a string that starts with 'file://'") }], isError: true });
      expect(await client.ping()).toEqual({});
    } finally {
      await client.close();
    }
  });
});

import 'reflect-metadata';
import { BuildError, Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { base64Header } from './fixtures/base64Header';
import { HeaderTools } from './fixtures/header.tools';
import { readAnswer } from './fixtures/readAnswer';

/**
 * Mcp-Param headers (SEP-2243, 2026-07-28): `@Param({ header })` and `@Property({ header })`
 * put `x-mcp-header` in the input schema; a 2026-07-28 HTTP `tools/call` whose headers and body
 * disagree is refused with HTTP 400 and -32020, on the node listener and the fetch handler alike.
 */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Post = (
  headers: Record<string, string>,
  body: unknown,
) => Promise<{ status: number; body: { result?: { content?: { text: string }[]; isError?: boolean }; error?: { code: number; message: string; data?: unknown } } }>;

function callOf(post: Post) {
  let id = 1;
  return (name: string, args: Record<string, unknown>, params: Record<string, string>) =>
    post(
      { 'mcp-method': 'tools/call', 'mcp-name': name, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [`Mcp-Param-${k}`, v])) },
      { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta: ENVELOPE } },
    );
}

const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };

describe('Mcp-Param headers', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'headers', version: '1.0.0', tools: [HeaderTools] });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  const handlers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(handlers.map((h) => h.close()));
    await listener.close();
  });

  it('advertises x-mcp-header on the parameters and DTO properties that declare it', async () => {
    const client = await createTestClient(app, { protocol: '2026-07-28' });
    try {
      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema as { properties: Record<string, Record<string, unknown>> }]));
      expect(tools.get('run_job')!.properties.region).toEqual({ type: 'string', 'x-mcp-header': 'Region' });
      expect(tools.get('run_job')!.properties.priority).toMatchObject({ type: 'integer', 'x-mcp-header': 'Priority' });
      expect(tools.get('run_job')!.properties.query).not.toHaveProperty('x-mcp-header');
      expect(tools.get('route')!.properties.tenant).toMatchObject({ type: 'string', 'x-mcp-header': 'Tenant' });
    } finally {
      await client.close();
    }
  });

  it("accepts the SDK client's own calls, which send the headers", async () => {
    const client = await createTestClient(app, { protocol: '2026-07-28', transport: 'http' });
    try {
      expect(JSON.parse(await toolText(client.callTool({ name: 'run_job', arguments: { region: 'zürich ', priority: 3, urgent: true } })))).toEqual({
        region: 'zürich ',
        priority: 3,
        urgent: true,
        query: null,
      });
    } finally {
      await client.close();
    }
  });

  const entries: [string, () => Post][] = [
    ['node listener', () => async (headers, body) => readAnswer(await fetch(listener.url, { method: 'POST', headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) }))],
    [
      'fetch handler',
      () => {
        const handler = createFetchHandler(app);
        handlers.push(handler);
        return async (headers, body) => readAnswer(await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) })));
      },
    ],
  ];

  describe.each(entries)('over the %s', (_, make) => {
    let call: ReturnType<typeof callOf>;
    beforeAll(() => {
      call = callOf(make());
    });
    const refused = (answer: Awaited<ReturnType<Post>>, header: string) => {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: -32020, data: { mismatch: { header } } });
    };

    it('accepts headers that agree with the body: plain, Base64-wrapped, numbers by value, booleans', async () => {
      for (const [args, headers] of [
        [{ region: 'eu' }, { Region: 'eu' }],
        [{ region: 'Hello' }, { Region: base64Header('Hello') }],
        [{ region: ' zürich\t' }, { Region: base64Header(' zürich\t') }],
        [
          { region: 'eu', priority: 42 },
          { Region: 'eu', Priority: '42.0' },
        ],
        [
          { region: 'eu', urgent: false },
          { Region: 'eu', Urgent: 'false' },
        ],
        // Not the whole sentinel: the text itself.
        [{ region: 'SGVsbG8=' }, { Region: 'SGVsbG8=' }],
        [{ region: '=?base64?SGVsbG8=' }, { Region: '=?base64?SGVsbG8=' }],
        // An argument the body leaves out (or sends as null) needs no header.
        [{ region: 'eu', query: 'x' }, { Region: 'eu' }],
      ] as const) {
        const answer = await call('run_job', args, headers);
        expect([answer.status, answer.body.error]).toEqual([200, undefined]);
      }
      expect((await call('route', { tenant: 'acme' }, { Tenant: 'acme' })).body.result?.content?.[0].text).toBe('tenant=acme');
    });

    it('refuses a header that disagrees, is missing, or is broken Base64, with 400 and -32020', async () => {
      refused(await call('run_job', { region: 'eu' }, { Region: 'us' }), 'Mcp-Param-Region');
      refused(await call('run_job', { region: 'eu' }, {}), 'Mcp-Param-Region');
      refused(await call('run_job', { region: 'Hello' }, { Region: '=?base64?SGVsbG8?=' }), 'Mcp-Param-Region');
      refused(await call('run_job', { region: 'Hello' }, { Region: '=?base64?SGVs!!!bG8=?=' }), 'Mcp-Param-Region');
      refused(await call('run_job', { region: 'eu', priority: 2 }, { Region: 'eu', Priority: '3' }), 'Mcp-Param-Priority');
      refused(await call('run_job', { region: 'eu', urgent: true }, { Region: 'eu', Urgent: 'TRUE' }), 'Mcp-Param-Urgent');
      refused(await call('route', { tenant: 'acme' }, { Tenant: 'other' }), 'Mcp-Param-Tenant');
      // Invalid UTF-8 inside valid Base64.
      refused(await call('run_job', { region: 'x' }, { Region: '=?base64?/w==?=' }), 'Mcp-Param-Region');
    });

    it('never echoes the values, and tells nothing of a tool the caller may not use', async () => {
      const answer = await call('run_job', { region: 'secret-eu' }, { Region: 'secret-us' });
      expect(JSON.stringify(answer.body)).not.toMatch(/secret/);
      // Unknown to this anonymous caller: the SDK's answer for an unknown tool, not a header refusal.
      const hidden = await call('secret', { zone: 'a' }, { Zone: 'b' });
      expect(hidden.status).not.toBe(400);
      expect(hidden.body.error?.code ?? hidden.body.result?.isError).not.toBe(-32020);
    });

    it('leaves Object.prototype member names alone', async () => {
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        const answer = await call(name, { region: 'eu' }, { Region: 'us' });
        expect(answer.body.error?.code).not.toBe(-32020);
      }
      const answer = await call('run_job', { region: 'eu', constructor: 'x' }, { Region: 'eu' });
      expect(answer.body.error).toBeUndefined();
    });
  });

  it('fails the build for declarations a client would drop, naming each', async () => {
    class Bad {
      @Tool({ description: 'Bad headers.' })
      bad(@Param('a', { header: 'Has Space' }) a: string, @Param('b', { header: 'Score' }) b: number, @Param('c', { header: 'dup' }) c: string, @Param('d', { header: 'DUP' }) d: string) {
        return [a, b, c, d].join();
      }
    }
    const failed = await createApp({ name: 'bad', version: '1', tools: [Bad] }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BuildError);
    const message = (failed as Error).message;
    expect(message).toMatch(/"Has Space", which is not an HTTP header name/);
    expect(message).toMatch(/x-mcp-header 'Score' on a "number" property/);
    expect(message).toMatch(/'DUP', already declared as 'dup'/);
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { connectClient, initializeBody, post, textOf } from './fixtures/httpHelpers';

/**
 * The node handler mounted behind a body parser (Koa's, or any other that reads the stream and
 * keeps what it parsed): a spent stream gets an immediate 500, and the server's log says how to
 * fix the mount, not a wait for bytes that never come and a 408 blaming the client. A parser that hands the
 * parsed body on as `req.body` is served as usual, on the same server.
 */
describe('a request body read before the node handler', () => {
  /** Longer than jest's test timeout (30 s): a handler that waited for the body instead of answering at once fails the test. */
  const BODY_MS = 120_000;
  let server: Server;
  let handler: HttpHandler;
  let url: string;

  beforeAll(async () => {
    const app = await createApp({ name: 'spent', version: '1.0.0', tools: [HttpTools] });
    handler = createHttpHandler(app, { requestLogLevel: 'silent', timeouts: { bodyMs: BODY_MS } });
    server = createServer((req: IncomingMessage & { body?: unknown }, res) => {
      // A body parser: it reads the whole stream, and hands the JSON on unless told to keep it.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (chunks.length > 0 && req.headers['x-keep-body'] === undefined) req.body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        void handler(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await handler.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers a spent stream at once with 500 and -32603, logs the fix, then keeps serving', async () => {
    const logged: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((line) => logged.push(String(line)) > 0);
    const response = await post(url, initializeBody(), { 'x-keep-body': '1' }).finally(() => stderr.mockRestore());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32603,
        message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.',
      },
    });
    expect(logged.filter((line) => line.includes('Mount the endpoint before the body parser, or set req.body to the parsed JSON.'))).toHaveLength(1);

    const { client } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'whoami', arguments: { value: 'handed on' } }))).toContain('"value":"handed on"');
    await client.close();
  });
});

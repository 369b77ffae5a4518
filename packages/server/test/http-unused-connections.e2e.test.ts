import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from '@toolwright/server';
import { createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { HttpTools, nextSlowCall } from './fixtures/http.tools';
import { connectionsLeftAfter, leaveAfterASession, openUnusedConnection } from './fixtures/unusedConnections';

/**
 * Regression: the endpoint on a node:http server of one's own (as Express, Fastify and Nest
 * mount it: `handler.close()`, then `server.close()`). A connection accepted that never sent a
 * request held `server.close()` open until the client dropped it: Node's
 * fetch opens one when a 2025-11-25 client closes its GET stream, and drops it after the
 * server's keep-alive hint, 3 s later here, 70 s on Fastify.
 */
async function serve(): Promise<{ server: Server; url: string; handler: HttpHandler; close: () => Promise<void> }> {
  const app = await createApp({ name: 'own-server', version: '1.0.0', tools: [HttpTools] });
  const handler = createHttpHandler(app, { requestLogLevel: 'silent' });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const close = async (): Promise<void> => {
    await handler.close({ drainTimeoutMs: 5000 });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { server, url, handler, close };
}

const textOf = (result: unknown): string | undefined => (result as { content: { text?: string }[] }).content[0]?.text;

describe('createHttpHandler on your own node:http server: closing after clients left', () => {
  it('handler.close() then server.close() finishes at once after a 2025-11-25 client with a session and a GET stream closed', async () => {
    const served = await serve();
    await leaveAfterASession(served.server, served.url, { name: 'slow', arguments: { ms: 1 } });
    expect(await connectionsLeftAfter(served.server, served.close)).toBe(0);
  });

  it('a connection that never sent a request does not hold the close; a running call still finishes and answers', async () => {
    const served = await serve();
    const client = new Client({ name: 'caller', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const unused = await openUnusedConnection(served.server);
    try {
      const started = nextSlowCall();
      const call = client.callTool({ name: 'slow', arguments: { ms: 600 } });
      await started;
      const left = connectionsLeftAfter(served.server, served.close);
      // Answered, not abandoned: the close waited for the call, then ended the unused connection.
      expect(textOf(await call)).toBe('slept 600');
      expect(await left).toBe(0);
    } finally {
      unused.destroy();
      await client.close();
    }
  });

  it('leaves such a connection to a server that keeps listening: it may still carry a request', async () => {
    const served = await serve();
    await (await fetch(served.url.replace('/mcp', '/elsewhere'))).text();
    const unused = await openUnusedConnection(served.server);
    const ended = new Promise<string>((resolve) => unused.once('close', () => resolve('closed')));
    await served.handler.close();
    const outcome = await Promise.race([ended, new Promise<string>((resolve) => setTimeout(() => resolve('open'), 200))]);
    expect(outcome).toBe('open');
    unused.write('GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    let answer = '';
    unused.on('data', (chunk: Buffer) => void (answer += chunk.toString('latin1')));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
    await new Promise<void>((resolve) => served.server.close(() => resolve()));
  });
});

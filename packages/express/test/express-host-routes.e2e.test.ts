import 'reflect-metadata';
import express from 'express';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/express';
import { GreeterTools } from './fixtures/greeterTools';
import { listenExpress } from './fixtures/listenExpress';

/**
 * Mounted in an Express app, the middleware checks the Host of its own routes (the endpoint) and hands
 * every other request to the app, as it does with a URL's length: a Host with user information, or two
 * Host headers, at one of the app's routes is Express's to answer, not a JSON-RPC 400 of Toolwright's.
 */

/** Sends `head` (request line and headers, no body) on a new connection; resolves with the status line and body. */
function exchange(port: number, head: string[]): Promise<{ status: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: data.split('\r\n', 1)[0], body: data.slice(data.indexOf('\r\n\r\n') + 4) }));
    socket.write(`${[...head, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  });
}

describe('Express 5: the Host checks of the endpoint leave the app’s own routes to Express', () => {
  let server: Server;
  let port: number;
  let mcp: ReturnType<typeof toolwrightMiddleware>;
  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const web = express();
    mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent' });
    web.use(mcp);
    web.get('/api/hello', (_req, res) => void res.send('hello from express'));
    const listening = await listenExpress(web);
    server = listening.server;
    port = Number(new URL(listening.base).port);
  });
  afterAll(async () => {
    await mcp.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const hosts = (path: string) => ({
    'a Host with user information': [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}@attacker.example`],
    'two Host headers': [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Host: evil.example'],
  });

  it.each(['a Host with user information', 'two Host headers'] as const)("%s at the app's own route: Express answers it", async (kind) => {
    const answer = await exchange(port, hosts('/api/hello')[kind]);
    expect(answer).toEqual({ status: 'HTTP/1.1 200 OK', body: 'hello from express' });
  });

  it.each([
    ['a Host with user information', 'carries user information'],
    ['two Host headers', 'more than one Host header'],
  ] as const)('%s at the endpoint: 400, as from the listener', async (kind, says) => {
    const answer = await exchange(port, [...hosts('/mcp')[kind], 'Accept: application/json, text/event-stream']);
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining(says) } });
  });
});

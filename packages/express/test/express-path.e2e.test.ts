import 'reflect-metadata';
import express from 'express';
import type { Server } from 'node:http';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/express';
import { GreeterTools } from './fixtures/greeterTools';
import { ERAS, connectEra, post } from './fixtures/mcpClients';
import { listenExpress } from './fixtures/listenExpress';

/**
 * The endpoint's `path` as the handler serves it: written without its leading slash, or with
 * characters a URL percent-encodes, it is still the path the middleware treats as the endpoint
 * (the body express.json() already read is adopted, within maxBodyBytes, as at '/mcp').
 */
describe.each([
  ['mcp', '/mcp'],
  ['/outils métier', '/outils%20m%C3%A9tier'],
])('Express 5, path %j behind express.json()', (path, served) => {
  let server: Server;
  let mcp: ReturnType<typeof toolwrightMiddleware>;
  let url: string;
  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const web = express();
    web.use(express.json({ limit: '1mb' }));
    mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent', path, maxBodyBytes: 1024, timeouts: { bodyMs: 2000 } });
    web.use(mcp);
    await mcp.ready;
    const listening = await listenExpress(web);
    server = listening.server;
    url = `${listening.base}${served}`;
  });
  afterAll(async () => {
    await mcp.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each(ERAS)('serves a %s client there', async (era) => {
    const client = await connectEra(era, url);
    try {
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
    } finally {
      await client.close();
    }
  });

  it('holds maxBodyBytes on the body express.json() read', async () => {
    const large = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }));
    expect(large.status).toBe(413);
  });
});

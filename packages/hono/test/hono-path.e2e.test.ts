import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightHonoMiddleware } from '@toolwright/hono';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { ERAS, connectEra } from './fixtures/v2Clients';

/**
 * The endpoint's `path` as the fetch handler serves it: written without its leading slash, or
 * with characters a URL percent-encodes, the middleware still takes the endpoint's requests
 * (it used to compare c.req.path with the option as written, and passed `mcp` on to a 404).
 */
describe.each([
  ['mcp', '/mcp'],
  ['/outils métier', '/outils%20m%C3%A9tier'],
])('Hono 4, path %j', (path, served) => {
  let server: ServerType;
  let mcp: ToolwrightHonoMiddleware;
  let url: string;
  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const web = new Hono();
    mcp = toolwrightMiddleware(app, { logError: () => {}, path });
    web.use(mcp);
    await mcp.ready;
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: web.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${served}`;
  });
  afterAll(async () => {
    await mcp.close();
    (server as import('node:http').Server).closeAllConnections();
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
});

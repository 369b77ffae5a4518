// #region hono
import 'reflect-metadata';
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { serve } from '@hono/node-server';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/hono';
import { GreeterTools } from './greeter.tools';

export async function startHono(port = 3000) {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const mcp = toolwrightMiddleware(app, { allowedHosts: ['api.example.com'] });

  const web = new Hono();
  web.get('/status', (c) => c.json({ up: true })); // your routes stay
  web.use('/mcp', bearerAuth({ token: process.env.MCP_TOKEN ?? 'dev-token' })); // your middleware runs first
  web.use(mcp); // serves /mcp; everything else goes on to your routes

  await mcp.ready; // the app's start hooks ran
  const server = serve({ fetch: web.fetch, hostname: '127.0.0.1', port });
  const close = async () => {
    await mcp.close(); // drains calls, ends sessions and their SSE streams
    server.close();
  };
  return { server, close };
}
// #endregion hono

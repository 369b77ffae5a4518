// #region fastify
import 'reflect-metadata';
import Fastify from 'fastify';
import { createApp } from '@toolwright/server';
import { toolwrightPlugin } from '@toolwright/fastify';
import { GreeterTools } from './greeter.tools';

export async function startFastify(port = 3000) {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const fastify = Fastify();
  fastify.get('/status', async () => ({ up: true })); // your routes stay

  // Serves /mcp; the app's start hooks run here, and fastify.close() ends its sessions.
  await fastify.register(toolwrightPlugin, { app, path: '/mcp', allowedHosts: ['api.example.com'] });
  await fastify.listen({ port, host: '127.0.0.1' });
  return fastify;
}
// #endregion fastify

// #region express
import 'reflect-metadata';
import express from 'express';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/express';
import { GreeterTools } from './greeter.tools';

export async function startExpress(port = 3000) {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const mcp = toolwrightMiddleware(app, { allowedHosts: ['api.example.com'] });

  const web = express();
  web.use(express.json()); // parsed bodies are used as is
  web.get('/status', (_req, res) => void res.json({ up: true })); // your routes stay
  web.use(mcp); // serves /mcp; everything else goes on to your routes

  await mcp.ready; // the app's start hooks ran
  const server = web.listen(port, '127.0.0.1');
  const close = async () => {
    await mcp.close(); // drains calls, ends sessions and their SSE streams
    server.close();
  };
  return { server, close };
}
// #endregion express

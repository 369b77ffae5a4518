import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { App } from '@toolwright/server';
import { createHttpHandler } from '@toolwright/server/http';
import express from 'express';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

// #region node
export function withNodeHttp(app: App) {
  const mcp = createHttpHandler(app); // same options as app.listen, minus port and host
  return createServer((req, res) => void mcp(req, res));
}
// #endregion node

// #region express
export function withExpress(app: App) {
  const web = express();
  web.get('/status', (_req, res) => void res.json({ up: true }));
  web.use(createHttpHandler(app)); // serves /mcp, calls next() for everything else
  return createServer(web);
}
// #endregion express

// #region hono
export function withHono(app: App) {
  const mcp = createHttpHandler(app);
  const web = new Hono<{ Bindings: { incoming: IncomingMessage; outgoing: ServerResponse } }>();
  web.get('/status', (c) => c.json({ up: true }));
  web.all('/mcp', async (c) => {
    await mcp(c.env.incoming, c.env.outgoing); // @hono/node-server passes the node request and response
    return RESPONSE_ALREADY_SENT;
  });
  return createServer(getRequestListener(web.fetch));
}
// #endregion hono

// #region koa
import 'reflect-metadata';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { createApp } from '@toolwright/server';
import { createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { GreeterTools } from './greeter.tools';

/** Koa middleware: the handler answers its own paths on the node response; the rest goes down the chain. */
export function koaMcp(mcp: HttpHandler): Koa.Middleware {
  return async (ctx, next) => {
    let onward = false;
    await mcp(ctx.req, ctx.res, () => void (onward = true));
    if (onward) return next(); // your routes, and Koa's 404
    ctx.respond = false; // the handler answered on ctx.res: Koa leaves it alone
  };
}

export async function startKoa(port = 3000) {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const mcp = createHttpHandler(app, { allowedHosts: ['api.example.com'], health: false });

  const web = new Koa();
  web.use(koaMcp(mcp)); // serves /mcp, reading its own body
  web.use(bodyParser()); // after the endpoint: for your routes
  web.use((ctx) => {
    if (ctx.path === '/status') ctx.body = { up: true }; // your routes stay
  });

  await app.start(); // the app's start hooks
  const server = web.listen(port, '127.0.0.1');
  const close = async () => {
    await mcp.close(); // drains calls, ends sessions and their SSE streams
    server.close();
    await app.stop(); // the app's shutdown hooks
  };
  return { server, close };
}
// #endregion koa

// #region parsed
export function behindBodyParser(web: Koa, mcp: HttpHandler) {
  web.use(bodyParser({ patchNode: true })); // also puts the parsed JSON on ctx.req.body, which the handler takes
  web.use(koaMcp(mcp));
}
// #endregion parsed

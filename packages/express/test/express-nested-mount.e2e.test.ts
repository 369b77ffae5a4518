import 'reflect-metadata';
import express, { type Express } from 'express';
import type { ToolLogger } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightMiddleware } from '@toolwright/express';
import { GreeterTools } from './fixtures/greeterTools';
import { ERAS, connectEra, post } from './fixtures/mcpClients';
import { listenExpress } from './fixtures/listenExpress';

/**
 * The middleware in an `express.Router()` or a sub-app, as teams mount their APIs
 * (`app.use('/api', api)`), with `express.json()` in the app around it. Express hands the
 * parser's errors to the error handlers of the app's own stack only, never into the router: bad
 * JSON on the endpoint reaches the app's handlers (Express's default page, with the stack outside
 * production), not the endpoint's JSON-RPC answer. The middleware says so once, naming the fix.
 */
type Mount =
  | 'router'
  | 'sub-app'
  | 'router in a router'
  | 'route'
  | 'app'
  | 'router with its own parser'
  | 'router with its own parser, urlencoded(), text() and raw() in the app'
  | 'router with its own parser, express.json() in the app after it'
  | 'sub-app with its own parser, express.json() in the app after it';

async function serve(mount: Mount): Promise<{ url: string; warnings: string[]; close(): Promise<void> }> {
  const warnings: string[] = [];
  const logger: ToolLogger = { debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message), error: () => {} };
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools], logger });
  const mcp: ToolwrightMiddleware = toolwrightMiddleware(app, { requestLogLevel: 'silent', path: '/api/mcp' });
  const web: Express = express();
  const ownParser = mount.includes('with its own parser');
  if (!ownParser) web.use(express.json());
  // With their default types these never read an application/json body, so they cannot refuse one.
  if (mount.endsWith('in the app')) web.use(express.urlencoded({ extended: true }), express.text(), express.raw());
  if (mount === 'app') web.use(mcp);
  else if (mount === 'route') web.all('/api/mcp', mcp);
  else if (mount === 'router in a router') {
    const inner = express.Router();
    inner.use(mcp);
    const api = express.Router();
    api.use('/', inner);
    web.use('/api', api);
  } else {
    const api = mount.startsWith('sub-app') ? express() : express.Router();
    if (ownParser) api.use(express.json());
    api.use(mcp);
    web.use('/api', api);
  }
  // Registered after the router: it never runs before the middleware.
  if (mount.endsWith('in the app after it')) web.use(express.json());
  await mcp.ready;
  const { server, base } = await listenExpress(web);
  return {
    url: `${base}/api/mcp`,
    warnings,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(['router', 'sub-app', 'router in a router', 'route'] as const)('Express 5, the middleware in a %s, express.json() in the app around it', (mount) => {
  it('serves both eras, and warns once that the parser’s refusals skip the endpoint, naming the fix', async () => {
    const served = await serve(mount);
    try {
      for (const era of ERAS) {
        const client = await connectEra(era, served.url);
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
        await client.close();
      }
      // What it warns of: bad JSON is answered by Express's default handler, not as JSON-RPC.
      const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
      expect([broken.status, broken.headers.get('content-type')]).toEqual([400, expect.stringMatching(/text\/html/)]);
      await broken.text();
      expect(served.warnings).toEqual([
        "toolwright express: express.json() runs in an app outside the express.Router() or sub-app the MCP middleware is mounted in, so its refusals of a body on /api/mcp (bad JSON, too large) reach your app's error handlers, not the endpoint's JSON-RPC answers: MCP clients get an error page (Express's default one shows the stack outside production). Mount the middleware on the app itself, app.use(toolwrightMiddleware(mcpApp, { path: '/api/mcp' })), or move the body parser into the router it is mounted in.",
      ]);
    } finally {
      await served.close();
    }
  });
});

describe.each([
  'app',
  'router with its own parser',
  'router with its own parser, urlencoded(), text() and raw() in the app',
  'router with its own parser, express.json() in the app after it',
  'sub-app with its own parser, express.json() in the app after it',
] as const)('Express 5, no parser outside the mount refuses an MCP body first (%s)', (mount) => {
  it('answers bad JSON as JSON-RPC (-32700) and warns of nothing', async () => {
    const served = await serve(mount);
    try {
      const client = await connectEra('2026-07-28', served.url);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
      const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' }, id: null });
      expect(served.warnings).toEqual([]);
    } finally {
      await served.close();
    }
  });
});

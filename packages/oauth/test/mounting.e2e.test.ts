import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { createApp, type App, type Listener } from '@toolwright/server';
import { createOAuthServer, type OAuthServer } from '@toolwright/oauth';
import { toolwrightMiddleware } from '@toolwright/express';
import { toolwrightMiddleware as honoMiddleware } from '@toolwright/hono';
import { onFreePort } from '../../server/test/fixtures/onFreePort';
import { serveFetch } from '../../server/test/fixtures/serveFetch';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { NotesTools } from './fixtures/notesTools';
import { CALLBACK, mcpStatus } from './fixtures/rawFlow';
import { SCOPES } from './fixtures/serveOAuth';
import { resultOf, signInClient } from './fixtures/signIn';

async function notesApp(base: string): Promise<{ app: App; oauth: OAuthServer }> {
  const oauth = await createOAuthServer({ issuer: base, resource: `${base}/mcp`, scopes: [...SCOPES], signIn: () => ({ subject: 'ada' }) });
  return { app: await createApp({ name: 'notes', version: '1.0.0', tools: [NotesTools], oauth }), oauth };
}

async function signsIn(base: string): Promise<void> {
  const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Mounted' });
  const client = await signInClient(`${base}/mcp`, provider);
  expect(resultOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ sub: 'ada', scopes: ['notes:read', 'notes:write'] });
  await client.close();
  // The endpoint takes the authorization server's tokens only.
  expect(await mcpStatus(`${base}/mcp`, 'not-a-token')).toBe(401);
  const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
  expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
}

/** `createApp({ oauth })`: one option, and every way of serving the app answers the authorization server beside /mcp. */
describe('createApp({ oauth }) serves the authorization server beside the MCP endpoint', () => {
  it('app.listen: the SDK v2 client discovers, registers, signs in and calls a scoped tool', async () => {
    // The issuer is in every token, and app.listen takes the port it serves: the port is picked first, and again if another test takes it meanwhile.
    const { base, listener } = await onFreePort(async (port) => {
      const base = `http://127.0.0.1:${port}`;
      const { app } = await notesApp(base);
      const listener: Listener = await app.listen({ transport: 'http', port, exitOnSignal: false, requestLogLevel: 'silent' });
      return { base, listener };
    });
    try {
      await signsIn(base);
      const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`);
      expect(metadata.status).toBe(200);
      // Paths that are neither the authorization server's nor the endpoint's are still 404.
      expect((await fetch(`${base}/authorize/elsewhere`)).status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it('app.fetch (as Deno or Bun serve a default export)', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {}); // app.fetch logs the refused bearer token to console.error
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const served = await serveFetch((request) => handler!(request));
    try {
      const { app } = await notesApp(served.url);
      handler = app.fetch;
      await signsIn(served.url);
    } finally {
      await served.close();
    }
  });

  it('the express adapter, with a form body parser in front of it', async () => {
    // The server listens on port 0 first; the app, whose issuer names the port, is built and handed the requests after.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { app } = await notesApp(base);
    const web = express();
    web.use(express.urlencoded({ extended: false }));
    const mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent' });
    web.use(mcp);
    server.on('request', web);
    try {
      await signsIn(base);
    } finally {
      await mcp.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the Hono adapter, beside a route of Hono’s own', async () => {
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const served = await serveFetch((request) => handler!(request));
    const { app } = await notesApp(served.url);
    const web = new Hono();
    const mcp = honoMiddleware(app, { logError: () => {} });
    web.use(mcp);
    web.get('/hello', (c) => c.text('hello'));
    handler = (request) => Promise.resolve(web.fetch(request));
    try {
      await signsIn(served.url);
      expect(await (await fetch(`${served.url}/hello`)).text()).toBe('hello');
    } finally {
      await mcp.close();
      await served.close();
    }
  });
});

import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Scope,
  SetMetadata,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type LoggerService,
  type Provider,
  type Type,
} from '@nestjs/common';
import { APP_GUARD, NestFactory, REQUEST, Reflector } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Param, Tool } from '@toolwright/core';
import { ToolwrightModule, type ToolwrightModuleOptions } from '@toolwright/nestjs';
import { createOAuthServer } from '@toolwright/oauth';
import { of, type Observable } from 'rxjs';
import { ERAS, INITIALIZE, connectEra } from '../../hono/test/fixtures/v2Clients';
import { expectServedOAuth } from '../../oauth/test/fixtures/expectServedOAuth';
import { onFreePort } from '../../server/test/fixtures/onFreePort';
import { NotesTools } from '../../oauth/test/fixtures/notesTools';

/**
 * The Nest app's global guards on the MCP endpoint: real Nest apps on 127.0.0.1 (Express and
 * Fastify platforms) whose whole surface an app-wide guard protects, driven by the MCP SDK v2
 * client in both eras and by raw HTTP. A global auth guard must protect /mcp as it protects the
 * app's routes, or a team believes the endpoint is closed while it is open.
 */
const KEY = 'k-123';

/** What the guards inject and record. */
@Injectable()
class KeyStore {
  readonly keys = new Set([KEY]);
  /** What the guards saw of each request: `type Class.handler`. */
  readonly seen: string[] = [];
  /** The request-scoped guards built, one per request. */
  scopedBuilt = 0;
}

@Module({ providers: [KeyStore], exports: [KeyStore] })
class KeysModule {}

const IS_PUBLIC = 'isPublic';
/** An app's own marker for routes its auth guard lets through, as in Nest's docs. */
const Public = () => SetMetadata(IS_PUBLIC, true);

/** An app-wide API key guard as apps write them: an injected store, async, `@Public()` read with `Reflector` on the handler and the class. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly store: KeyStore,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    this.store.seen.push(`${context.getType()} ${context.getClass().name}.${context.getHandler().name}`);
    const key = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers['x-api-key'];
    if (key === 'explode') throw new Error('key store at redis://admin:hunter2@10.0.0.5 unreachable');
    if (!key || !this.store.keys.has(key)) throw new UnauthorizedException('Send a valid x-api-key header.');
    return true;
  }
}

/** A `useGlobalGuards` instance: false (through an observable) for a request with x-deny; a header on the response either way. */
class DenyHeaderGuard implements CanActivate {
  canActivate(context: ExecutionContext): Observable<boolean> {
    const http = context.switchToHttp();
    http.getResponse<{ header(name: string, value: string): unknown }>().header('x-guarded-by', 'deny-header-guard');
    return of(!http.getRequest<{ headers: Record<string, string | undefined> }>().headers['x-deny']);
  }
}

/** A request-scoped global guard: built per request with the request injected, and wants an x-tenant header on it. */
@Injectable({ scope: Scope.REQUEST })
class TenantGuard implements CanActivate {
  constructor(
    @Inject(REQUEST) private readonly request: { headers: Record<string, string | undefined> },
    store: KeyStore,
  ) {
    store.scopedBuilt += 1;
  }

  canActivate(context: ExecutionContext): boolean {
    // Nest registered the very request the guard's context carries as REQUEST.
    return context.switchToHttp().getRequest() === this.request && this.request.headers['x-tenant'] === 'acme';
  }
}

@Injectable()
class EchoTools {
  @Tool({ description: 'Greet someone by name.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }
}

@Controller()
class StatusController {
  @Get('status')
  status() {
    return { up: true };
  }
}

const API_KEY_GUARD: Provider = { provide: APP_GUARD, useClass: ApiKeyGuard };

function appModule(options: Partial<ToolwrightModuleOptions> = {}, providers: Provider[] = [API_KEY_GUARD]): Type {
  class GuardedAppModule {}
  Module({
    imports: [KeysModule, ToolwrightModule.forRoot({ name: 'guarded', version: '1.0.0', tools: [EchoTools], ...options, http: { requestLogLevel: 'silent', ...options.http } })],
    controllers: [StatusController],
    providers,
  })(GuardedAppModule);
  return GuardedAppModule;
}

type Platform = 'express' | 'fastify';
const PLATFORMS: Platform[] = ['express', 'fastify'];

/** A Nest logger that keeps what it is given. */
class Captured implements LoggerService {
  readonly lines: { level: string; text: string }[] = [];
  log() {}
  error(message: unknown, ...rest: unknown[]) {
    this.lines.push({ level: 'error', text: [message, ...rest].map(String).join('\n') });
  }
  warn(message: unknown) {
    this.lines.push({ level: 'warn', text: String(message) });
  }
}

interface Served {
  nest: INestApplication;
  base: string;
  url: string;
  logger: Captured;
  store: KeyStore;
}

async function startNest(platform: Platform, module: Type, setup?: (nest: INestApplication) => void, port = 0): Promise<Served> {
  const logger = new Captured();
  const nest = platform === 'fastify' ? await NestFactory.create(module, new FastifyAdapter(), { logger }) : await NestFactory.create(module, { logger });
  setup?.(nest);
  await nest.listen(port, '127.0.0.1').catch(async (error: unknown) => {
    // A port taken meanwhile (onFreePort tries another): the app built for it goes.
    if ((error as { code?: unknown }).code === 'EADDRINUSE') await nest.close();
    throw error;
  });
  const base = `http://127.0.0.1:${new URL(await nest.getUrl()).port}`;
  return { nest, base, url: `${base}/mcp`, logger, store: nest.get(KeyStore) };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: { jsonrpc?: string; id?: unknown; error?: { code?: number; message?: string } } | undefined;
}

/** A raw request on its own connection (GET without a body, POST with one), with the headers a conforming client sends. */
function send(url: string, method: 'GET' | 'POST' | 'DELETE' | 'OPTIONS', headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const sent = { accept: 'application/json, text/event-stream', ...(body !== undefined && { 'content-type': 'application/json' }), ...headers };
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers: sent, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let json: Answer['json'];
        try {
          json = JSON.parse(text) as Answer['json'];
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** What no answer may carry: the guard's secret, a stack, a path on disk. */
const LEAKS = /hunter2|redis:|\n\s+at |node_modules|\.ts:\d/;

describe.each(PLATFORMS)('Nest on %s: the global guards run on the MCP endpoint (APP_GUARD with a dependency, then useGlobalGuards)', (platform) => {
  let served: Served;
  beforeAll(async () => {
    served = await startNest(platform, appModule(), (nest) => nest.useGlobalGuards(new DenyHeaderGuard()));
  });
  afterAll(() => served.nest.close());

  it('every method on the endpoint is guarded: a refused POST, GET (the SSE stream) and DELETE get the status and message a Nest route would, with no stack', async () => {
    for (const [method, body] of [['POST', INITIALIZE], ['GET'], ['DELETE']] as const) {
      const refused = await send(served.url, method, {}, body);
      expect([method, refused.status]).toEqual([method, 401]);
      expect(refused.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Send a valid x-api-key header.' }, id: null });
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
    }
    // A CORS preflight carries no credentials: the endpoint answers it (here: its Origin check refuses the foreign origin), not the guard.
    const preflight = await send(served.url, 'OPTIONS', { origin: 'https://app.example', 'access-control-request-method': 'POST' });
    expect([preflight.status, preflight.text]).toEqual([403, expect.not.stringContaining('x-api-key')]);
    // The app's own route, behind the same guard, for comparison.
    const route = await send(`${served.base}/status`, 'GET');
    expect([route.status, route.json]).toEqual([401, { message: 'Send a valid x-api-key header.', error: 'Unauthorized', statusCode: 401 }]);
    expect((await send(`${served.base}/status`, 'GET', { 'x-api-key': KEY })).status).toBe(200);
  });

  it.each(ERAS)('%s: a client without the key is refused (401, the exception message, in JSON-RPC); with the key it lists and calls tools', async (era) => {
    // The 2025-11-25 client quotes the answer; the 2026-07-28 client's version probe names the status.
    await expect(connectEra(era, served.url)).rejects.toThrow(era === '2025-11-25' ? /Send a valid x-api-key header\./ : /HTTP 401/);
    await expect(connectEra(era, served.url, { 'x-api-key': 'wrong' })).rejects.toThrow(era === '2025-11-25' ? /Send a valid x-api-key header\./ : /HTTP 401/);
    served.store.seen.length = 0;
    const client = await connectEra(era, served.url, { 'x-api-key': KEY });
    try {
      expect(await client.listToolNames()).toEqual(['greet']);
      expect(await client.callTool('greet', { name: 'Ada' })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      // An HTTP context, with the endpoint's class and handler: once per HTTP request, not per tool call.
      expect(new Set(served.store.seen)).toEqual(new Set(['http ToolwrightEndpoint.handle']));
      expect(served.store.seen.length).toBeGreaterThanOrEqual(3);
    } finally {
      await client.close();
    }
  });

  it("a guard that returns false (useGlobalGuards, through an observable) is a 403 'Forbidden resource'; the guards run in Nest's order; headers a guard sets reach the client", async () => {
    const denied = await send(served.url, 'POST', { 'x-api-key': KEY, 'x-deny': '1' }, INITIALIZE);
    expect([denied.status, denied.json]).toEqual([403, { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden resource' }, id: null }]);
    expect(denied.headers['x-guarded-by']).toBe('deny-header-guard');
    // The APP_GUARD runs first, as on a route: without the key, the 401 comes before the 403.
    expect((await send(served.url, 'POST', { 'x-deny': '1' }, INITIALIZE)).status).toBe(401);
    const served200 = await send(served.url, 'POST', { 'x-api-key': KEY }, INITIALIZE);
    expect([served200.status, served200.headers['x-guarded-by']]).toEqual([200, 'deny-header-guard']);
  });

  it.each(ERAS)('%s: a guard that throws a plain error is a JSON-RPC 500 without its message or a stack, logged with the guard name; the server keeps serving', async (era) => {
    const broken = await send(served.url, 'POST', { 'x-api-key': 'explode' }, INITIALIZE);
    expect([broken.status, broken.json?.error?.code]).toEqual([500, -32603]);
    expect(broken.text).not.toMatch(LEAKS);
    const logged = served.logger.lines.find((line) => line.level === 'error' && line.text.includes('ApiKeyGuard'));
    expect(logged?.text).toMatch(/the global guard ApiKeyGuard threw on POST \/mcp; the MCP endpoint answered 500.*Throw an HttpException/);
    expect(logged?.text).toContain('hunter2'); // the log has the details, the wire does not
    await expect(connectEra(era, served.url, { 'x-api-key': 'explode' })).rejects.toThrow(era === '2025-11-25' ? /Internal error: the server failed to handle this request/ : /HTTP 500/);
    const client = await connectEra(era, served.url, { 'x-api-key': KEY });
    try {
      expect((await client.callTool('greet', { name: 'again' })).content[0].text).toBe('Hello, again!');
    } finally {
      await client.close();
    }
  });
});

describe.each(PLATFORMS)('Nest on %s: endpointDecorators, request-scoped guards, globalGuards: false', (platform) => {
  it.each(ERAS)('%s: endpointDecorators: [Public()] lets the Reflector-based auth guard skip the endpoint; the other global guards still run', async (era) => {
    const served = await startNest(platform, appModule({ endpointDecorators: [Public()] }), (nest) => nest.useGlobalGuards(new DenyHeaderGuard()));
    try {
      // The marker is the endpoint's: the app's routes are guarded as before.
      expect((await send(`${served.base}/status`, 'GET')).status).toBe(401);
      served.store.seen.length = 0;
      expect((await send(served.url, 'POST', { 'x-deny': '1' }, INITIALIZE)).status).toBe(403);
      const client = await connectEra(era, served.url);
      try {
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      } finally {
        await client.close();
      }
      expect(served.store.seen).toEqual([]);
    } finally {
      await served.nest.close();
    }
  });

  it.each(ERAS)('%s: a request-scoped APP_GUARD is built per request with REQUEST injected (the request its context carries)', async (era) => {
    const served = await startNest(platform, appModule({}, [{ provide: APP_GUARD, useClass: TenantGuard }]));
    try {
      const refused = await send(served.url, 'POST', {}, INITIALIZE);
      expect([refused.status, refused.json?.error?.message]).toEqual([403, 'Forbidden resource']);
      const before = served.store.scopedBuilt;
      const client = await connectEra(era, served.url, { 'x-tenant': 'acme' });
      try {
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      } finally {
        await client.close();
      }
      expect(served.store.scopedBuilt - before).toBeGreaterThanOrEqual(2);
    } finally {
      await served.nest.close();
    }
  });

  it.each(ERAS)('%s: globalGuards: false leaves the endpoint to http.auth or oauth; with neither, the module warns at start, naming the fix', async (era) => {
    const open = await startNest(platform, appModule({ globalGuards: false }), (nest) => nest.useGlobalGuards(new DenyHeaderGuard()));
    try {
      expect((await send(`${open.base}/status`, 'GET')).status).toBe(401);
      open.store.seen.length = 0;
      const client = await connectEra(era, open.url, { 'x-deny': '1' });
      try {
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      } finally {
        await client.close();
      }
      expect(open.store.seen).toEqual([]);
      const warned = open.logger.lines.filter((line) => line.level === 'warn').map((line) => line.text);
      expect(warned).toEqual([
        expect.stringMatching(/globalGuards: false, so the app's 2 global guard\(s\) do not run on the MCP endpoint \/mcp, and it has no http\.auth or oauth.*\{ http: \{ auth \} \}/),
      ]);
    } finally {
      await open.nest.close();
    }

    const auth = {
      resource: 'http://127.0.0.1/mcp',
      authorizationServers: ['https://auth.example.com'],
      verifyToken: (token: string) => (token === 'T' ? { token, clientId: 'c', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : undefined),
    };
    const separate = await startNest(platform, appModule({ globalGuards: false, http: { auth } }));
    try {
      expect(separate.logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
      expect((await send(separate.url, 'POST', {}, INITIALIZE)).status).toBe(401);
      const client = await connectEra(era, separate.url, { authorization: 'Bearer T' });
      try {
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      } finally {
        await client.close();
      }
    } finally {
      await separate.nest.close();
    }
  });

  it('an endpointDecorators entry that is not a decorator is refused at start, naming the fix', async () => {
    await expect(startNest(platform, appModule({ endpointDecorators: [Public] as never }))).rejects.toThrow(/endpointDecorators\[0\] is not a decorator.*\[Public\(\)\], not \[Public\]/);
  });

  it("with oauth and endpointDecorators: [Public()], the SDK client signs in (the authorization server's paths are not guarded) and calls a scoped tool behind the app's global guard", async () => {
    // The issuer is in every token: the port is picked before the module is built, and again if another test takes it first.
    const served = await onFreePort(async (port) => {
      const base = `http://127.0.0.1:${port}`;
      const oauth = await createOAuthServer({ issuer: base, resource: `${base}/mcp`, scopes: ['notes:read', 'notes:write'], signIn: () => ({ subject: 'ada' }) });
      class OAuthModule {}
      Module({
        imports: [KeysModule, ToolwrightModule.forRoot({ name: 'notes', version: '1.0.0', tools: [NotesTools], oauth, endpointDecorators: [Public()], http: { requestLogLevel: 'silent' } })],
        controllers: [StatusController],
        providers: [API_KEY_GUARD],
      })(OAuthModule);
      return startNest(platform, OAuthModule, undefined, port);
    });
    const { base } = served;
    try {
      expect((await send(`${base}/status`, 'GET')).status).toBe(401);
      await expectServedOAuth({ mcpUrl: `${base}/mcp`, issuer: base });
    } finally {
      await served.nest.close();
    }
  });

  it("with oauth and no marker, the endpoint is the guard's (401) while the authorization server's paths and the resource metadata stay open", async () => {
    const served = await onFreePort(async (port) => {
      const base = `http://127.0.0.1:${port}`;
      const oauth = await createOAuthServer({ issuer: base, resource: `${base}/mcp`, scopes: ['notes:read'], signIn: () => ({ subject: 'ada' }) });
      return startNest(platform, appModule({ tools: [NotesTools], oauth }), undefined, port);
    });
    const { base } = served;
    try {
      expect((await send(`${base}/mcp`, 'POST', {}, INITIALIZE)).json?.error?.message).toBe('Send a valid x-api-key header.');
      expect((await send(`${base}/.well-known/oauth-protected-resource/mcp`, 'GET')).status).toBe(200);
      expect((await send(`${base}/.well-known/oauth-authorization-server`, 'GET')).status).toBe(200);
      const registered = await send(`${base}/register`, 'POST', {}, JSON.stringify({ client_name: 'x', redirect_uris: ['http://127.0.0.1:1/callback'] }));
      expect(registered.status).toBe(201);
      expect(served.store.seen.every((line) => line === 'http ToolwrightEndpoint.handle')).toBe(true);
    } finally {
      await served.nest.close();
    }
  });
});

describe('Nest on express: the legacy HTTP+SSE paths', () => {
  it('with http.legacySse, GET /sse and POST /messages are guarded as the endpoint is', async () => {
    const served = await startNest('express', appModule({ http: { legacySse: true } }));
    try {
      for (const [path, method] of [
        ['/sse', 'GET'],
        ['/messages?sessionId=x', 'POST'],
      ] as const) {
        const refused = await send(`${served.base}${path}`, method, {}, method === 'POST' ? INITIALIZE : undefined);
        expect([path, refused.status, refused.json?.error?.message]).toEqual([path, 401, 'Send a valid x-api-key header.']);
      }
    } finally {
      await served.nest.close();
    }
  });
});

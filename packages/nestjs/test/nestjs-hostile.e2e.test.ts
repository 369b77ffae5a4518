import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  Catch,
  Controller,
  Get,
  Injectable,
  Module,
  Param as RouteParam,
  Post,
  VersioningType,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OnShutdown, Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { ToolwrightModule } from '@toolwright/nestjs';
import { map } from 'rxjs';
import { ERAS, connectEra } from '../../hono/test/fixtures/v2Clients';
import { waitFor } from '../../server/test/fixtures/waitFor';

/**
 * Hostile and awkward requests on real Nest apps (Express and Fastify platforms, 127.0.0.1),
 * each answer compared with what Toolwright's own node listener answers for the same request:
 * the adapter must not change them. Where Nest or Fastify answer first and cannot be changed
 * from the module, the test pins their answer and says why (docs/guide/nestjs.md has the same).
 */
const shutdowns: string[] = [];
/** The calls of `slow` and `held` that have begun, for a test to wait for instead of guessing how long a request takes to arrive. */
const begun: string[] = [];
/** Lets the `held` calls that have begun answer. */
const releases: (() => void)[] = [];

@Injectable()
class EchoTools {
  @Tool({ description: 'Greet someone by name.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }

  @Tool({ description: 'Answers after a while.' })
  async slow(@Param('ms') ms: number) {
    begun.push('slow');
    await new Promise((resolve) => setTimeout(resolve, ms));
    return `slept ${ms}`;
  }

  @Tool({ description: 'Answers once the test releases it.' })
  async held() {
    begun.push('held');
    await new Promise<void>((resolve) => releases.push(resolve));
    return 'released';
  }

  @OnShutdown()
  bye() {
    shutdowns.push('shutdown');
  }
}

/** What an app's catch-all exception filter often does: its own JSON, its own status, the stack. */
@Catch()
class LeakyFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const body = { rewritten: true, stack: (error as Error).stack };
    const reply = host.switchToHttp().getResponse<{ code?(status: number): { send(b: unknown): void }; status?(status: number): { json(b: unknown): void } }>();
    if (reply.code) reply.code(599).send(body);
    else reply.status!(599).json(body);
  }
}

/** A global guard that lets every request through, and keeps what it saw: it runs on the MCP endpoint too, as before a route. */
const guarded: string[] = [];
@Injectable()
class RecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ method: string; url: string }>();
    guarded.push(`${context.getType()} ${request.method} ${request.url}`);
    return true;
  }
}

/** A global guard that throws a plain error on every request, a secret in its message. */
@Injectable()
class ThrowingGuard implements CanActivate {
  canActivate(): boolean {
    throw new Error('global guard: db://admin:hunter2 unreachable');
  }
}

@Injectable()
class WrappingInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle().pipe(map((result: unknown) => ({ wrapped: result })));
  }
}

@Controller()
class StatusController {
  @Get('status')
  status() {
    return { up: true };
  }

  @Get('broken')
  broken() {
    throw new Error('route: db://admin:hunter2 unreachable');
  }
}

const GLOBALS = [
  { provide: APP_FILTER, useClass: LeakyFilter },
  { provide: APP_GUARD, useClass: RecordingGuard },
  { provide: APP_INTERCEPTOR, useClass: WrappingInterceptor },
];

function appModule(http: Record<string, unknown> = {}, controllers: Type[] = [StatusController], providers: unknown[] = GLOBALS): Type {
  class HostileModule {}
  Module({
    imports: [ToolwrightModule.forRoot({ name: 'hostile', version: '1.0.0', tools: [EchoTools], http: { requestLogLevel: 'silent', ...http } })],
    controllers,
    providers: providers as never,
  })(HostileModule);
  return HostileModule;
}

type Platform = 'express' | 'fastify';
const PLATFORMS: Platform[] = ['express', 'fastify'];

async function startNest(platform: Platform, module: Type, options: Record<string, unknown> = {}, setup?: (nest: INestApplication) => void): Promise<{ nest: INestApplication; port: number }> {
  const nest = platform === 'fastify' ? await NestFactory.create(module, new FastifyAdapter(), { logger: false, ...options }) : await NestFactory.create(module, { logger: false, ...options });
  setup?.(nest);
  await nest.listen(0, '127.0.0.1');
  return { nest, port: Number(new URL(await nest.getUrl()).port) };
}

interface Answer {
  status: number;
  code: number | undefined;
  text: string;
  connection: string | undefined;
}

/** A raw POST on its own connection: any body (bytes, chunked), any headers, none left out unless undefined. */
function send(port: number, body: string | Buffer, headers: Record<string, string | undefined> = {}, options: { path?: string; chunked?: boolean } = {}): Promise<Answer> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers })) if (value !== undefined) sent[name] = value;
  if (!options.chunked) sent['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: options.path ?? '/mcp', method: 'POST', headers: sent, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let code: number | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: number } }).error?.code;
        } catch {
          code = undefined;
        }
        resolve({ status: response.statusCode ?? 0, code, text, connection: response.headers.connection });
      });
    });
    request.on('error', reject);
    if (options.chunked) {
      request.write(body.slice(0, 10));
      request.end(body.slice(10));
    } else request.end(body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
/** An initialize of about `bytes` bytes. */
const initializeOf = (bytes: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' }, _meta: { pad: 'x'.repeat(bytes) } },
  });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Requests Nest's body parsers refuse or read differently, which the endpoint must still answer as it does standalone. */
const HOSTILE_BODIES: [what: string, body: string | Buffer, headers: Record<string, string>][] = [
  ['a form with more parameters than the urlencoded parser takes', Array.from({ length: 2000 }, (_, i) => `k${i}=v`).join('&'), FORM],
  ['a form nested deeper than the urlencoded parser takes', `a${'[b]'.repeat(40)}=1`, FORM],
  ['a form over the urlencoded parser limit', `a=${'x'.repeat(200_000)}`, FORM],
  ['an initialize sent as a form', INITIALIZE, FORM],
  ['text/plain', INITIALIZE, { 'content-type': 'text/plain' }],
  ['invalid JSON', '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text', {}],
  ['a top-level string (strict JSON parsers refuse it)', '"initialize"', {}],
  ['a batch array', `[${INITIALIZE}]`, {}],
  ['a constructor member', INITIALIZE.replace('{', '{"constructor":{"x":1},'), {}],
];

describe.each(PLATFORMS)("Nest on %s, with a global exception filter, a global guard and a global interceptor: MCP answers are the endpoint's own", (platform) => {
  let reference: HttpListener;
  let served: { nest: INestApplication; port: number };
  beforeAll(async () => {
    const app = await createApp({ name: 'hostile', version: '1.0.0', tools: [EchoTools] });
    reference = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    served = await startNest(platform, appModule());
  });
  afterAll(async () => {
    await served.nest.close();
    await reference.close();
  });

  it.each(HOSTILE_BODIES)("%s: the status and JSON-RPC code of the plain listener, never the filter's JSON or a stack", async (_what, body, headers) => {
    const expected = await send(reference.port, body, headers);
    const answer = await send(served.port, body, headers);
    expect([answer.status, answer.code]).toEqual([expected.status, expected.code]);
    expect(answer.text).not.toMatch(/rewritten|stack|hunter2|secret-body-text|node_modules/);
  });

  it("the filter and the interceptor are live on the app's own routes but not on the MCP endpoint (they are a route's enhancers); the global guard runs on both", async () => {
    const broken = await fetch(`http://127.0.0.1:${served.port}/broken`);
    expect(broken.status).toBe(599);
    await broken.text();
    expect(await (await fetch(`http://127.0.0.1:${served.port}/status`)).json()).toEqual({ wrapped: { up: true } });
    guarded.length = 0;
    for (const era of ERAS) {
      const client = await connectEra(era, `http://127.0.0.1:${served.port}/mcp`);
      try {
        // Not wrapped by the global interceptor; let through by the global guard, which saw the endpoint's requests.
        expect(await client.callTool('greet', { name: 'Ada' })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      } finally {
        await client.close();
      }
    }
    expect(guarded).toContain('http POST /mcp');
  });

  it("a global guard that throws a plain error: each MCP request is a JSON-RPC 500 (-32603) without its message or a stack, never the filter's answer; the app's routes get the filter's", async () => {
    const throwing = await startNest(platform, appModule({}, [StatusController], [GLOBALS[0], { provide: APP_GUARD, useClass: ThrowingGuard }]));
    try {
      for (const [body, headers] of [
        [INITIALIZE, {}],
        ['{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text"}', {}],
        [INITIALIZE, { 'content-type': 'text/plain' }],
      ] as const) {
        const answer = await send(throwing.port, body, headers);
        expect([answer.status, answer.code]).toEqual([500, -32603]);
        expect(answer.text).not.toMatch(/rewritten|stack|hunter2|secret-body-text|node_modules/);
      }
      const status = await fetch(`http://127.0.0.1:${throwing.port}/status`);
      expect(status.status).toBe(599);
      await status.text();
    } finally {
      await throwing.nest.close();
    }
  });

  it("maxBodyBytes is honoured below Nest's parser limit, with a Content-Length and chunked", async () => {
    const small = await startNest(platform, appModule({ maxBodyBytes: 50_000 }, [], []));
    try {
      for (const chunked of [false, true]) {
        const refused = await send(small.port, initializeOf(80_000), {}, { chunked });
        expect([refused.status, refused.code]).toEqual([413, -32000]);
        expect(refused.text).toContain('exceeds 50000 bytes');
        expect((await send(small.port, initializeOf(40_000), {}, { chunked })).status).toBe(200);
      }
    } finally {
      await small.nest.close();
    }
  });

  it("a global prefix and URI versioning do not move the endpoint (its path is http.path); /api/mcp is Nest's 404", async () => {
    const prefixed = await startNest(platform, appModule({}, [StatusController], []), {}, (nest) => {
      nest.setGlobalPrefix('api');
      nest.enableVersioning({ type: VersioningType.URI });
    });
    try {
      expect((await send(prefixed.port, INITIALIZE)).status).toBe(200);
      expect((await send(prefixed.port, INITIALIZE, {}, { path: '/api/mcp' })).status).toBe(404);
      expect((await send(prefixed.port, INITIALIZE, {}, { path: '/mcp?x=1&__proto__=2' })).status).toBe(200);
    } finally {
      await prefixed.nest.close();
    }
  });
});

describe('Nest on Express: its body parsers read every body first', () => {
  it("a body over Nest's JSON limit (100 kB by default) is a JSON-RPC 413 naming Nest's fix; app.useBodyParser raises it", async () => {
    const served = await startNest('express', appModule({}, [], GLOBALS));
    try {
      const refused = await send(served.port, initializeOf(150_000));
      expect([refused.status, refused.code, refused.connection]).toEqual([413, -32000, 'close']);
      expect(refused.text).toContain("app.useBodyParser('json', { limit: '4mb' })");
      expect(refused.text).not.toContain('express.json()');
    } finally {
      await served.nest.close();
    }
    const raised = await startNest(
      'express',
      appModule({}, [], []),
      {},
      (nest) => void (nest as never as { useBodyParser(type: string, options: unknown): void }).useBodyParser('json', { limit: '4mb' }),
    );
    try {
      expect((await send(raised.port, initializeOf(2_000_000))).status).toBe(200);
    } finally {
      await raised.nest.close();
    }
  });

  it("a gzip body that does not decode is a JSON-RPC -32700, not the filter's answer; one that decodes is served (Nest's parser inflates it, the plain listener does not)", async () => {
    const served = await startNest('express', appModule());
    try {
      const corrupt = await send(served.port, Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' });
      expect([corrupt.status, corrupt.code]).toEqual([400, -32700]);
      expect(corrupt.text).not.toMatch(/rewritten|stack/);
      expect((await send(served.port, gzipSync(INITIALIZE), { 'content-encoding': 'gzip' })).status).toBe(200);
      // body-parser reads an empty JSON body as {}; the endpoint answers it as the plain listener does.
      expect(await send(served.port, '')).toMatchObject({ status: 400, code: -32700 });
    } finally {
      await served.nest.close();
    }
  });
});

describe('Nest on Fastify: what Fastify answers before the endpoint', () => {
  it('a __proto__ member is answered as the plain listener answers it (400, -32600 naming it): the endpoint parses its own JSON bodies', async () => {
    const served = await startNest('fastify', appModule());
    try {
      const answer = await send(served.port, INITIALIZE.replace('{', '{"__proto__":{"x":1},'));
      expect([answer.status, answer.code]).toEqual([400, -32600]);
    } finally {
      await served.nest.close();
    }
  });

  it.each([
    ["Fastify's own 503 (return503OnClosing, its default)", true, undefined],
    ["the endpoint's JSON-RPC 503 with return503OnClosing: false", false, -32000],
  ])('a request while nest.close() drains a call gets %s', async (_what, return503OnClosing, code) => {
    const nest = await NestFactory.create(appModule({}, [], []), new FastifyAdapter({ return503OnClosing }), { logger: false });
    await nest.listen(0, '127.0.0.1');
    const port = Number(new URL(await nest.getUrl()).port);
    const client = await connectEra('2026-07-28', `http://127.0.0.1:${port}/mcp`);
    begun.length = 0;
    // The call runs until the test releases it, so nest.close() drains it however slow the machine is.
    const call = client.callTool('held', {});
    await waitFor(() => begun.includes('held'), 'the call to begin');
    const closing = nest.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const late = await send(port, INITIALIZE).finally(() => releases.splice(0).forEach((release) => release()));
    expect([late.status, late.code]).toEqual([503, code]);
    expect(await call).toMatchObject({ content: [{ type: 'text', text: 'released' }] });
    await closing;
    await client.close().catch(() => undefined);
  });
});

@Controller()
class ClashingController {
  @Post('mcp')
  takeover() {
    return { nest: 'route' };
  }
}

@Controller('')
class CatchAllController {
  @Get(':anything')
  any(@RouteParam('anything') anything: string) {
    return { anything };
  }
}

describe.each(PLATFORMS)('Nest on %s: a Nest route on the endpoint path', (platform) => {
  it('is refused at startup, naming the route and the fix (on Express it would take the MCP requests silently)', async () => {
    await expect(startNest(platform, appModule({}, [ClashingController], []))).rejects.toThrow(
      /the MCP endpoint's path \/mcp is taken by the Nest route POST \/mcp .*ToolwrightModule\.forRoot\(\{ http: \{ path: '\/mcp-tools' \} \}\)/,
    );
    const moved = await startNest(platform, appModule({ path: '/mcp-tools' }, [ClashingController], []));
    try {
      expect((await send(moved.port, INITIALIZE, {}, { path: '/mcp-tools' })).status).toBe(200);
      expect((await send(moved.port, '{}', {}, { path: '/mcp' })).status).toBe(201);
    } finally {
      await moved.nest.close();
    }
  });

  it(platform === 'express' ? 'a parametric route that matches the path is refused too' : "a parametric route is not a clash: Fastify's router prefers the static path", async () => {
    const started = startNest(platform, appModule({}, [CatchAllController], []));
    if (platform === 'express') return expect(started).rejects.toThrow(/taken by the Nest route GET \/:anything/);
    const served = await started;
    try {
      expect((await send(served.port, INITIALIZE)).status).toBe(200);
    } finally {
      await served.nest.close();
    }
  });
});

describe.each(PLATFORMS)('Nest on %s: nest.close() while calls run', (platform) => {
  it('lets the running calls of both eras finish and answer, then runs the shutdown hooks', async () => {
    shutdowns.length = 0;
    const served = await startNest(platform, appModule({ drainTimeoutMs: 5000 }, [], []));
    served.nest.enableShutdownHooks();
    const url = `http://127.0.0.1:${served.port}/mcp`;
    const clients = await Promise.all(ERAS.map((era) => connectEra(era, url)));
    begun.length = 0;
    const calls = clients.map((client) => client.callTool('slow', { ms: 600 }));
    await waitFor(() => begun.length === clients.length, 'both calls to begin');
    await served.nest.close();
    expect(shutdowns).toEqual(['shutdown']);
    for (const result of await Promise.all(calls)) expect(result).toMatchObject({ content: [{ type: 'text', text: 'slept 600' }] });
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  });
});

import 'reflect-metadata';
import { Injectable, Module, UnauthorizedException, type CanActivate, type ExecutionContext, type INestApplication, type LoggerService, type Type } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { Ctx, Tool, type AuthInfo, type ToolContext } from '@toolwright/core';
import { ToolwrightModule, type ToolwrightModuleOptions } from '@toolwright/nestjs';
import { ERAS, INITIALIZE, connectEra, post } from '../../hono/test/fixtures/v2Clients';

/**
 * What a Nest app's own auth established reaches the tools: a Passport-style global guard puts
 * the user on `req.user`, `authInfoFrom` maps it to the caller, and `ctx.authInfo`, the session
 * binding and the legacy SSE paths see it, on both platforms and in both eras. Also: what the
 * endpoint plans a 2026-07-28 round's requestState with is the body limit that really applies.
 * Real Nest apps on 127.0.0.1, the MCP SDK's clients.
 */
type Platform = 'express' | 'fastify';
const PLATFORMS: Platform[] = ['express', 'fastify'];

interface User {
  id: string;
  scopes: string[];
}

/** A Passport-style global guard: the x-user header names the user, attached as `req.user`; none is a 401. Hostile values of x-user make it throw what apps throw. */
@Injectable()
class PassportLikeGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; user?: User }>();
    const user = req.headers['x-user'];
    if (user === 'throw-null-proto') throw Object.create(null);
    if (user === 'reject-string') return Promise.reject('a string, not an Error');
    if (user === 'throw-undefined') throw undefined;
    if (!user) throw new UnauthorizedException('Sign in first.');
    req.user = { id: user, scopes: ['notes:read'] };
    return true;
  }
}

@Injectable()
class WhoTools {
  @Tool({ description: 'Who is calling.' })
  whoami(@Ctx() ctx: ToolContext) {
    const auth = ctx.authInfo;
    return { clientId: auth?.clientId ?? null, sub: (auth?.extra?.sub as string | undefined) ?? null, scopes: auth?.scopes ?? null };
  }

  @Tool({ description: "Asks the client's model, then the user: two rounds in the 2026-07-28 era." })
  async both(@Ctx() ctx: ToolContext) {
    const reply = await ctx.sample('Say hi.');
    const answer = await ctx.elicit('Who?', { type: 'object', properties: { name: { type: 'string' } } } as never);
    return `${(reply.content as { text?: string }).text?.length} ${answer.action}`;
  }
}

const fromUser = (req: { user?: User; headers: Record<string, unknown> }): AuthInfo | undefined => {
  if (req.headers['x-map'] === 'bad') return { token: 't', clientId: 7, scopes: [] } as never;
  if (req.headers['x-map'] === 'deny') throw new UnauthorizedException('Your account is locked.');
  return req.user && { token: '', clientId: 'nest-web', scopes: req.user.scopes, extra: { sub: req.user.id } };
};

function appModule(options: Partial<ToolwrightModuleOptions> = {}, guard = true): Type {
  class CallersAppModule {}
  Module({
    imports: [ToolwrightModule.forRoot({ name: 'callers', version: '1.0.0', tools: [WhoTools], ...options, http: { requestLogLevel: 'silent', ...options.http } })],
    providers: guard ? [{ provide: APP_GUARD, useClass: PassportLikeGuard }] : [],
  })(CallersAppModule);
  return CallersAppModule;
}

class Captured implements LoggerService {
  readonly errors: string[] = [];
  log() {}
  warn() {}
  error(message: unknown, ...rest: unknown[]) {
    this.errors.push([message, ...rest].map(String).join('\n'));
  }
}

interface Served {
  nest: INestApplication;
  base: string;
  url: string;
  logger: Captured;
}

async function startNest(platform: Platform, module: Type, setup?: (nest: INestApplication) => void): Promise<Served> {
  const logger = new Captured();
  const nest = platform === 'fastify' ? await NestFactory.create(module, new FastifyAdapter(), { logger }) : await NestFactory.create(module, { logger });
  setup?.(nest);
  await nest.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${new URL(await nest.getUrl()).port}`;
  return { nest, base, url: `${base}/mcp`, logger };
}

/** The caller a `whoami` result names. */
const callerOf = (result: unknown): unknown => JSON.parse((result as { content: { text: string }[] }).content[0].text);

const LEAKS = /\n\s+at |node_modules|\.ts:\d|a string, not an Error/;

describe.each(PLATFORMS)('Nest on %s: authInfoFrom names the caller the app guards established', (platform) => {
  let served: Served;
  beforeAll(async () => {
    served = await startNest(platform, appModule({ authInfoFrom: fromUser, http: { legacySse: true } }));
  });
  afterAll(() => served.nest.close());

  it.each(ERAS)("%s: the guard's req.user reaches ctx.authInfo through authInfoFrom", async (era) => {
    const client = await connectEra(era, served.url, { 'x-user': 'ada' });
    try {
      expect(callerOf(await client.callTool('whoami', {}))).toEqual({ clientId: 'nest-web', sub: 'ada', scopes: ['notes:read'] });
    } finally {
      await client.close();
    }
  });

  it("2025-11-25: a session is bound to the caller authInfoFrom names: another user's requests on it are 404", async () => {
    const client = await connectEra('2025-11-25', served.url, { 'x-user': 'ada' });
    try {
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      const headers = { 'mcp-session-id': client.sessionId!, 'mcp-protocol-version': '2025-11-25' };
      expect((await post(served.url, list, { ...headers, 'x-user': 'bob' })).status).toBe(404);
      expect((await post(served.url, list, { ...headers, 'x-user': 'ada' })).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('an HttpException from authInfoFrom is its status and message; a value that is not an AuthInfo is a 500 that names the fix in the log only', async () => {
    const denied = await post(served.url, INITIALIZE, { 'x-user': 'ada', 'x-map': 'deny' });
    expect([denied.status, await denied.json()]).toEqual([401, { jsonrpc: '2.0', error: { code: -32000, message: 'Your account is locked.' }, id: null }]);
    const bad = await post(served.url, INITIALIZE, { 'x-user': 'ada', 'x-map': 'bad' });
    const text = await bad.text();
    expect([bad.status, JSON.parse(text).error.code]).toEqual([500, -32603]);
    expect(text).not.toMatch(LEAKS);
    expect(served.logger.errors.join('\n')).toMatch(/the ToolwrightModule option authInfoFrom threw on POST \/mcp[\s\S]*authInfo.*without a clientId/);
  });

  it('with http.legacySse, /sse and /messages are guarded and a 2024-11-05 client gets the same caller', async () => {
    expect((await fetch(`${served.base}/sse`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    const messages = await post(`${served.base}/messages?sessionId=x`, INITIALIZE);
    expect([messages.status, ((await messages.json()) as { error: { message: string } }).error.message]).toEqual([401, 'Sign in first.']);
    const headers = { 'x-user': 'grace' };
    const legacy = new LegacyClient({ name: 'old-client', version: '1' });
    await legacy.connect(
      new SSEClientTransport(new URL(`${served.base}/sse`), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
      }),
    );
    try {
      expect(callerOf(await legacy.callTool({ name: 'whoami', arguments: {} }))).toEqual({ clientId: 'nest-web', sub: 'grace', scopes: ['notes:read'] });
    } finally {
      await legacy.close();
    }
  });

  it.each(['throw-null-proto', 'reject-string', 'throw-undefined'])('a global guard that throws a non-Error (%s) is a JSON-RPC 500, never a hang or a crash; the server serves on', async (value) => {
    const answer = await Promise.race([post(served.url, INITIALIZE, { 'x-user': value }), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000).unref())]);
    const text = await answer.text();
    expect([answer.status, JSON.parse(text).error.code]).toEqual([500, -32603]);
    expect(text).not.toMatch(LEAKS);
    const client = await connectEra('2026-07-28', served.url, { 'x-user': 'ada' });
    await client.close();
  });
});

describe.each(PLATFORMS)('Nest on %s: authInfoFrom at start', (platform) => {
  it('is refused with http.auth, which names the caller too', async () => {
    const auth = { resource: 'http://127.0.0.1/mcp', authorizationServers: ['https://auth.example.com'], verifyToken: () => undefined };
    await expect(startNest(platform, appModule({ authInfoFrom: fromUser, http: { auth } }))).rejects.toThrow(/authInfoFrom and http\.auth, which both name the caller.*Give one/);
  });

  it.each(ERAS)('%s: with globalGuards: false it still runs, on the request as the middleware left it (anonymous here)', async (era) => {
    const served = await startNest(platform, appModule({ authInfoFrom: fromUser, globalGuards: false }));
    try {
      const client = await connectEra(era, served.url);
      try {
        expect(callerOf(await client.callTool('whoami', {}))).toEqual({ clientId: null, sub: null, scopes: null });
      } finally {
        await client.close();
      }
    } finally {
      await served.nest.close();
    }
  });
});

/** A 2026-07-28 SDK v2 client whose model replies with `size` characters and whose user accepts; counts the questions. */
async function askingClient(url: string, size: number) {
  const asked = { sampling: 0, elicitation: 0 };
  const client = new ClientV2({ name: 'asking', version: '1' }, { capabilities: { sampling: {}, elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } as never });
  client.setRequestHandler('sampling/createMessage', () => (asked.sampling++, { role: 'assistant', content: { type: 'text', text: 'x'.repeat(size) }, model: 'm' }) as never);
  client.setRequestHandler('elicitation/create', () => (asked.elicitation++, { action: 'accept', content: { name: 'Ada' } }) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-user': 'ada' } } }));
  return { client, asked };
}

describe('2026-07-28 rounds plan the requestState with the body limit that applies on the Nest endpoint', () => {
  it("Express: Nest's JSON parser (100 kB) reads the retry, so a state it would refuse (an 80 kB answer, sealed at about 4/3) fails the call at once with -32602 naming 102400 bytes", async () => {
    const served = await startNest('express', appModule());
    const { client, asked } = await askingClient(served.url, 80_000);
    try {
      await expect(client.callTool({ name: 'both', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('a request to this server may hold at most 102400 bytes') as unknown as string,
      });
      expect(asked).toEqual({ sampling: 1, elicitation: 0 });
      // The server serves on.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('both');
    } finally {
      await client.close();
      await served.nest.close();
    }
  });

  it("Express: app.useBodyParser('json', { limit: '1mb' }) raises it, and the planned limit follows", async () => {
    const served = await startNest('express', appModule(), (nest) => void (nest as never as { useBodyParser(type: string, options: unknown): void }).useBodyParser('json', { limit: '1mb' }));
    const { client, asked } = await askingClient(served.url, 150_000);
    try {
      const result = (await client.callTool({ name: 'both', arguments: {} })) as { content: { text: string }[] };
      expect(result.content[0].text).toBe('150000 accept');
      await expect(
        client.callTool({ name: 'both', arguments: {} }).then(
          () => undefined,
          () => undefined,
        ),
      ).resolves.toBeUndefined();
      const large = await askingClient(served.url, 900_000);
      try {
        await expect(large.client.callTool({ name: 'both', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('at most 1048576 bytes') as unknown as string });
        expect(large.asked).toEqual({ sampling: 1, elicitation: 0 });
      } finally {
        await large.client.close();
      }
      expect(asked.sampling).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
      await served.nest.close();
    }
  });

  it("Fastify: the endpoint's route bodyLimit (maxBodyBytes, 4 MiB) applies, not Fastify's 1 MiB default: a 1.5 MB answer completes", async () => {
    const served = await startNest('fastify', appModule());
    const { client, asked } = await askingClient(served.url, 1_500_000);
    try {
      const result = (await client.callTool({ name: 'both', arguments: {} })) as { content: { text: string }[] };
      expect(result.content[0].text).toBe('1500000 accept');
      expect(asked).toEqual({ sampling: 1, elicitation: 1 });
    } finally {
      await client.close();
      await served.nest.close();
    }
  });
});

import 'reflect-metadata';
import { Controller, Get, Injectable, Module, UseGuards, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { OnShutdown, Param, Tool } from '@toolwright/core';
import { ToolwrightModule, ToolwrightServer } from '@toolwright/nestjs';
import { map, type Observable } from 'rxjs';
import { ERAS, INITIALIZE, connectEra, post, rawPost } from '../../hono/test/fixtures/v2Clients';
import { expectServedOAuth } from '../../oauth/test/fixtures/expectServedOAuth';
import { connectionsLeftAfter, leaveAfterASession, openUnusedConnection } from '../../server/test/fixtures/unusedConnections';
import { listenNotesOAuth } from './fixtures/listenNotesOAuth';
import { Secret, SecretGuard, TicketGuard } from './fixtures/shop.guards';
import { startNest } from './fixtures/startNest';

/**
 * A real Nest app on the Fastify platform (@nestjs/platform-fastify), 127.0.0.1 port 0: the
 * MCP endpoint on Nest's own Fastify instance beside a Nest controller, tool classes built by
 * Nest, a Nest guard and interceptor around calls. Driven by the MCP SDK v2 client in both eras.
 */
@Injectable()
class Ledger {
  readonly seen: string[] = [];
  readonly events: string[] = [];
}

@Module({ providers: [Ledger], exports: [Ledger] })
class LedgerModule {}

@Injectable()
class AuditInterceptor implements NestInterceptor {
  constructor(private readonly ledger: Ledger) {}
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.ledger.seen.push(`${context.getClass().name}.${context.getHandler().name}`);
    return next.handle().pipe(map((result) => ({ ...(result as object), _meta: { audited: true } })));
  }
}

@Injectable()
@UseInterceptors(AuditInterceptor)
class ShopTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Greet someone by name.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }

  @Tool({ description: 'Never callable: a Nest guard refuses it.' })
  @Secret()
  @UseGuards(SecretGuard)
  vault() {
    return 'the vault is open';
  }

  @Tool({ description: 'Callable with a ticket.' })
  @UseGuards(TicketGuard)
  enter(@Param('ticket') ticket: string) {
    return `welcome (${ticket})`;
  }

  @OnShutdown()
  bye() {
    this.ledger.events.push('shutdown');
  }
}

@Controller()
class StatusController {
  @Get('status')
  status() {
    return { up: true, platform: 'fastify' };
  }
}

@Module({
  imports: [ToolwrightModule.forRoot({ name: 'shop', version: '1.0.0', tools: [ShopTools], imports: [LedgerModule], http: { requestLogLevel: 'silent' } })],
  controllers: [StatusController],
})
class AppModule {}

const start = () => startNest<NestFastifyApplication>(AppModule, new FastifyAdapter());

describe('NestJS on the Fastify platform: ToolwrightModule.forRoot', () => {
  let served: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    served = await start();
  });
  afterAll(() => served.nest.close());

  it.each(ERAS)('a %s client lists and calls tools built by Nest; a Nest interceptor wraps the call; bad arguments are a tool error', async (era) => {
    const client = await connectEra(era, served.url);
    try {
      expect(await client.listToolNames()).toEqual(['enter', 'greet', 'vault']);
      const greeting = await client.callTool('greet', { name: 'Ada' });
      expect(greeting.content[0].text).toBe('Hello, Ada!');
      expect((greeting as { _meta?: unknown })._meta).toMatchObject({ audited: true });
      expect(served.nest.get(Ledger).seen).toContain('ShopTools.greet');
      expect((await client.callTool('greet', { name: 42 })).isError).toBe(true);
      if (era === '2025-11-25') expect(client.sessionId).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('%s: Nest guards refuse calls; a guard exception keeps its message', async (era) => {
    const client = await connectEra(era, served.url);
    try {
      const vault = await client.callTool('vault', {});
      expect(vault.isError).toBe(true);
      expect(vault.content[0].text).toMatch(/Forbidden: tool 'vault' is not allowed/);
      expect(await client.callTool('enter', { ticket: 'forged' })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Show a valid ticket first.' }] });
      expect((await client.callTool('enter', { ticket: 'ok' })).content[0].text).toBe('welcome (ok)');
    } finally {
      await client.close();
    }
  });

  it("Nest's own routes answer beside /mcp; Fastify's body refusals on the endpoint are JSON-RPC errors; a foreign Host is refused", async () => {
    expect(await (await fetch(`${served.base}/status`)).json()).toEqual({ up: true, platform: 'fastify' });
    expect((await fetch(`${served.base}/nowhere`)).status).toBe(404);
    const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
    expect(broken.status).toBe(400);
    const text = await broken.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32700 }, id: null });
    expect(text).not.toContain('secret-body-text');
    expect((await rawPost(served.url, INITIALIZE, { host: 'evil.example' })).status).toBe(403);
    expect(served.nest.get(ToolwrightServer).app.name).toBe('shop');
  });
});

describe('NestJS on the Fastify platform: closing', () => {
  it("ToolwrightServer.sessionCount counts the sessions; nest.close() ends the open session (its stream too), then runs the app's shutdown hooks", async () => {
    const served = await start();
    const ledger = served.nest.get(Ledger);
    const server = served.nest.get(ToolwrightServer);
    expect(server.sessionCount).toBe(0);
    const client = await connectEra('2025-11-25', served.url);
    expect((await client.callTool('greet', { name: 'x' })).content[0].text).toBe('Hello, x!');
    expect(server.sessionCount).toBe(1);
    await served.nest.close();
    expect(server.sessionCount).toBe(0);
    expect(ledger.events).toEqual(['shutdown']);
    await expect(post(served.url, INITIALIZE)).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  // Regression: Node's fetch leaves a connection it never uses after a 2025-11-25 client closes its GET stream; node's server.close() waited for it, about 70 s with Fastify's keep-alive hint.
  it('nest.close() finishes at once after a 2025-11-25 client with a session and a GET stream closed', async () => {
    const served = await start();
    const http = served.nest.getHttpServer();
    await leaveAfterASession(http, served.url, { name: 'greet', arguments: { name: 'Ada' } });
    expect(await connectionsLeftAfter(http, () => served.nest.close())).toBe(0);
  });

  it('a connection that never sent a request does not hold nest.close()', async () => {
    const served = await start();
    const http = served.nest.getHttpServer();
    expect((await post(served.url, INITIALIZE)).status).toBe(200);
    const unused = await openUnusedConnection(http);
    try {
      expect(await connectionsLeftAfter(http, () => served.nest.close())).toBe(0);
    } finally {
      unused.destroy();
    }
  });
});

describe('NestJS on the Fastify platform: ToolwrightModule.forRoot({ oauth })', () => {
  it("serves the authorization server on Nest's Fastify instance, past Nest's body parsers: the SDK v2 client registers, signs in with PKCE and calls a scoped tool", async () => {
    const { base, nest } = await listenNotesOAuth((module) => NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), { logger: false }), [StatusController]);
    try {
      await expectServedOAuth({ mcpUrl: `${base}/mcp`, issuer: base });
      expect(await (await fetch(`${base}/status`)).json()).toEqual({ up: true, platform: 'fastify' });
    } finally {
      await nest.close();
    }
  });
});

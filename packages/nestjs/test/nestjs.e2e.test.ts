import 'reflect-metadata';
import { Controller, Get, Injectable, Module, UseGuards, UseInterceptors, type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor, type Type } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { Param, Tool, UseGuards as UseToolwrightGuards, type GuardClass, type MemberAccess, type MemberCall } from '@toolwright/core';
import { nestContainer, ToolwrightModule, ToolwrightServer } from '@toolwright/nestjs';
import type { Server } from 'node:http';
import { map, type Observable } from 'rxjs';
import { ERAS, INITIALIZE, connectEra, post } from '../../express/test/fixtures/mcpClients';
import { expectServedOAuth } from '../../oauth/test/fixtures/expectServedOAuth';
import { connectionsLeftAfter, leaveAfterASession, openUnusedConnection } from '../../server/test/fixtures/unusedConnections';
import { listenNotesOAuth } from './fixtures/listenNotesOAuth';
import { Secret, SecretGuard, TicketGuard } from './fixtures/shop.guards';
import { startNest } from './fixtures/startNest';

/**
 * A real Nest app on the Express platform, 127.0.0.1 port 0: tool classes are Nest
 * providers injecting a service from another module; Nest guards and interceptors from
 * @nestjs/common wrap their calls; a Nest controller answers beside /mcp. Driven by the v1
 * SDK client (2025-11-25, sessions) and the v2 client (2026-07-28). The lockfile's Nest 11 here;
 * `npm run test:nest-range` runs this package's suites on Nest 11.0.0 and the latest 12 too.
 */
@Injectable()
class Ledger {
  readonly seen: string[] = [];
  record(what: string) {
    this.seen.push(what);
  }
}

@Module({ providers: [Ledger], exports: [Ledger] })
class LedgerModule {}

/** Fails with an internal error: its text is for the log, never for the client. */
@Injectable()
class BrokenGuard implements CanActivate {
  canActivate(): boolean {
    throw new Error('connection to db://admin:hunter2@10.0.0.5 refused');
  }
}

/** Records each call in the Ledger (injected), and tags the result it passes on. */
@Injectable()
class AuditInterceptor implements NestInterceptor {
  constructor(private readonly ledger: Ledger) {}
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.switchToRpc().getContext<MemberCall>();
    this.ledger.record(`${context.getClass().name}.${context.getHandler().name}:${call.name}`);
    return next.handle().pipe(map((result) => ({ ...(result as object), _meta: { audited: true } })));
  }
}

@Injectable()
@UseInterceptors(AuditInterceptor)
class ShopTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Greet someone by name.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}! (${this.ledger.seen.length} calls audited)`;
  }

  @Tool({ description: 'Add two numbers exactly.' })
  add(@Param('a') a: number, @Param('b') b: number) {
    return { sum: a + b };
  }

  @Tool({ description: 'Never callable: a Nest guard refuses it.' })
  @Secret()
  @UseGuards(SecretGuard)
  vault() {
    return 'the vault is open';
  }

  @Tool({ description: 'Guarded by a guard that crashes.' })
  @UseGuards(BrokenGuard)
  fragile() {
    return 'never';
  }

  @Tool({ description: 'Callable with a ticket.' })
  @UseGuards(TicketGuard)
  enter(@Param('ticket') ticket: string) {
    return `welcome (${ticket})`;
  }
}

@Controller()
class StatusController {
  @Get('status')
  status() {
    return { up: true };
  }
}

@Module({
  imports: [ToolwrightModule.forRoot({ name: 'shop', version: '1.0.0', tools: [ShopTools], imports: [LedgerModule], http: { requestLogLevel: 'silent' } })],
  controllers: [StatusController],
})
class AppModule {}

/** A Nest service a Toolwright guard injects. */
@Injectable()
class Policy {
  readonly hidden = new Set(['audit_log']);
}

/** A Toolwright guard class (decides at list time too), built by Nest with what it injects. */
@Injectable()
class PolicyGuard implements GuardClass {
  constructor(private readonly policy: Policy) {}
  canActivate(access: MemberAccess): boolean {
    return !this.policy.hidden.has(access.name);
  }
}

@Injectable()
class AdminTools {
  @Tool({ description: 'Read the audit log.' })
  @UseToolwrightGuards(PolicyGuard)
  audit_log() {
    return 'entries';
  }

  @Tool({ description: 'Say who is there.' })
  @UseToolwrightGuards(PolicyGuard)
  whoami() {
    return 'admin';
  }
}

@Module({
  imports: [ToolwrightModule.forRoot({ name: 'admin', version: '1.0.0', tools: [AdminTools], providers: [Policy, PolicyGuard], http: { requestLogLevel: 'silent' } })],
})
class AdminModule {}

const start = (module: Type = AppModule) => startNest(module);

describe('NestJS (Express platform): ToolwrightModule.forRoot', () => {
  let served: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    served = await start();
  });
  afterAll(() => served.nest.close());

  it.each(ERAS)('a %s client lists and calls tools built by Nest, with injected services; bad arguments are a tool error', async (era) => {
    const client = await connectEra(era, served.url);
    try {
      expect(await client.listToolNames()).toEqual(['add', 'enter', 'fragile', 'greet', 'vault']);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toMatch(/^Hello, Ada! \(\d+ calls audited\)$/);
      expect(JSON.parse((await client.callTool('add', { a: 2, b: 3 })).content[0].text!)).toEqual({ sum: 5 });
      const bad = await client.callTool('add', { a: 'two', b: 3 });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)("%s: Nest guards from @nestjs/common refuse calls; a guard's Nest exception keeps its message", async (era) => {
    const client = await connectEra(era, served.url);
    try {
      const vault = await client.callTool('vault', {});
      expect(vault.isError).toBe(true);
      expect(vault.content[0].text).toMatch(/Forbidden: tool 'vault' is not allowed/);
      expect(vault.content[0].text).not.toContain('the vault is open');
      const noTicket = await client.callTool('enter', { ticket: 'forged' });
      expect(noTicket).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Show a valid ticket first.' }] });
      expect((await client.callTool('enter', { ticket: 'ok' })).content[0].text).toBe('welcome (ok)');
      // Not a Nest HttpException: the client learns the call failed, not the guard's internals.
      const fragile = await client.callTool('fragile', {});
      expect(fragile.isError).toBe(true);
      expect(JSON.stringify(fragile)).not.toMatch(/hunter2|db:\/\/|never/);
    } finally {
      await client.close();
    }
  });

  it('a Nest interceptor on the tool class wraps every call: it sees the class, the method and the call, and may change the result', async () => {
    const ledger = served.nest.get(Ledger);
    const before = ledger.seen.length;
    const client = await connectEra('2026-07-28', served.url);
    try {
      const result = await client.callTool('add', { a: 1, b: 1 });
      expect((result as { _meta?: Record<string, unknown> })._meta).toMatchObject({ audited: true });
      expect(ledger.seen.slice(before)).toEqual(['ShopTools.add:add']);
    } finally {
      await client.close();
    }
  });

  it("the Nest app's own routes answer beside /mcp on the same port; ToolwrightServer gives the app", async () => {
    expect(await (await fetch(`${served.base}/status`)).json()).toEqual({ up: true });
    expect((await fetch(`${served.base}/nowhere`)).status).toBe(404);
    expect(served.nest.get(ToolwrightServer).app.name).toBe('shop');
    const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, ');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe('NestJS: closing', () => {
  it('nest.close() ends the MCP sessions and their streams before the server closes', async () => {
    const served = await start();
    const client = await connectEra('2025-11-25', served.url);
    const server = served.nest.get(ToolwrightServer);
    expect(server.sessionCount).toBe(1);
    await served.nest.close();
    expect(server.sessionCount).toBe(0);
    await expect(post(served.url, INITIALIZE)).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  // Regression: Node's fetch leaves a connection it never uses after a 2025-11-25 client closes its GET stream; node's server.close() waited for it, about 3 s.
  it('nest.close() finishes at once after a 2025-11-25 client with a session and a GET stream closed', async () => {
    const served = await start();
    const http = served.nest.getHttpServer() as Server;
    await leaveAfterASession(http, served.url, { name: 'greet', arguments: { name: 'Ada' } });
    expect(await connectionsLeftAfter(http, () => served.nest.close())).toBe(0);
  });

  it('a connection that never sent a request does not hold nest.close()', async () => {
    const served = await start();
    const http = served.nest.getHttpServer() as Server;
    expect((await post(served.url, INITIALIZE)).status).toBe(200);
    const unused = await openUnusedConnection(http);
    try {
      expect(await connectionsLeftAfter(http, () => served.nest.close())).toBe(0);
    } finally {
      unused.destroy();
    }
  });
});

describe('NestJS: Toolwright guard classes are built by Nest', () => {
  it.each(ERAS)('%s: a @UseGuards class from @toolwright/core gets its Nest dependency, hides the tool from the list and refuses its call', async (era) => {
    const served = await start(AdminModule);
    const client = await connectEra(era, served.url);
    try {
      expect(await client.listToolNames()).toEqual(['whoami']);
      expect((await client.callTool('whoami', {})).content[0].text).toBe('admin');
      const hidden = await client.callTool('audit_log', {}).catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
      expect(hidden.isError).toBe(true);
      expect(JSON.stringify(hidden)).not.toContain('entries');
    } finally {
      await client.close();
      await served.nest.close();
    }
  });
});

describe("NestJS: Nest's container", () => {
  it('builds the app in an application context without HTTP, and refuses a class Nest does not provide, naming the fix', async () => {
    const context = await NestFactory.createApplicationContext(AdminModule, { logger: false });
    try {
      expect(context.get(ToolwrightServer).app.name).toBe('admin');
      class Unprovided {}
      const container = nestContainer(context.get(ModuleRef));
      expect(container.get(Policy)).toBe(context.get(Policy));
      expect(() => container.get(Unprovided)).toThrow(/Nest has no provider Unprovided\. Add it to ToolwrightModule\.forRoot\(\{ providers: \[Unprovided\] \}\)/);
    } finally {
      await context.close();
    }
  });
});

describe('NestJS (Express platform): ToolwrightModule.forRoot({ oauth })', () => {
  it.each([
    ['parsed bodies', {}],
    ['rawBody: true', { rawBody: true }],
  ])("serves the authorization server on the Nest app's port, behind Nest's body parsers (%s): the SDK v2 client registers, signs in with PKCE and calls a scoped tool", async (_kept, nestOptions) => {
    const { base, nest } = await listenNotesOAuth((module) => NestFactory.create(module, { logger: false, ...nestOptions }));
    try {
      await expectServedOAuth({ mcpUrl: `${base}/mcp`, issuer: base });
    } finally {
      await nest.close();
    }
  });
});

/** Settings a Nest provider holds, as a `ConfigService` would (read when the module initializes, not when it is declared). */
@Injectable()
class Settings {
  readonly serverName = 'configured-shop';
  readonly apiToken = 'from-settings';
  async load(): Promise<{ name: string; token: string }> {
    await new Promise((resolve) => setImmediate(resolve));
    return { name: this.serverName, token: this.apiToken };
  }
}

@Module({ providers: [Settings], exports: [Settings] })
class SettingsModule {}

@Module({
  imports: [
    ToolwrightModule.forRootAsync({
      tools: [ShopTools],
      imports: [LedgerModule, SettingsModule],
      inject: [Settings],
      useFactory: async (settings: Settings) => {
        const { name, token } = await settings.load();
        const hour = Math.floor(Date.now() / 1000) + 3600;
        return {
          name,
          version: '2.0.0',
          http: {
            requestLogLevel: 'silent',
            auth: {
              resource: 'http://127.0.0.1/mcp',
              authorizationServers: ['https://auth.example.com'],
              verifyToken: (given) => (given === token ? { token: given, clientId: 'nest', scopes: [], expiresAt: hour, extra: { sub: 'ada' } } : undefined),
            },
          },
        };
      },
    }),
  ],
})
class AsyncAppModule {}

describe('NestJS: ToolwrightModule.forRootAsync', () => {
  it.each(ERAS)("%s: the settings come from a factory Nest calls with another module's provider (name, bearer auth); the tools are Nest providers as with forRoot", async (era) => {
    const served = await start(AsyncAppModule);
    try {
      expect(served.nest.get(ToolwrightServer).app.name).toBe('configured-shop');
      expect((await post(served.url, INITIALIZE)).status).toBe(401);
      expect((await post(served.url, INITIALIZE, { authorization: 'Bearer wrong' })).status).toBe(401);
      const client = await connectEra(era, served.url, { authorization: 'Bearer from-settings' });
      try {
        expect(await client.listToolNames()).toEqual(['add', 'enter', 'fragile', 'greet', 'vault']);
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toMatch(/^Hello, Ada! \(\d+ calls audited\)$/);
      } finally {
        await client.close();
      }
    } finally {
      await served.nest.close();
    }
  });

  it('refuses a factory that returns the wiring (tools, providers...), and a missing factory, naming the fix', async () => {
    expect(() => ToolwrightModule.forRootAsync({ tools: [AdminTools] } as never)).toThrow(/forRootAsync needs useFactory.*use ToolwrightModule\.forRoot/);
    class MisplacedModule {}
    Module({ imports: [ToolwrightModule.forRootAsync({ tools: [AdminTools], providers: [Policy, PolicyGuard], useFactory: () => ({ name: 'x', version: '1', tools: [AdminTools] }) as never })] })(
      MisplacedModule,
    );
    await expect(NestFactory.createApplicationContext(MisplacedModule, { logger: false, abortOnError: false })).rejects.toThrow(/returned tools; give it to forRootAsync itself/);
  });
});

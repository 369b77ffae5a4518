import { FromCall, Param, Scoped, Tool, type AuthInfo, type SessionInfo, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Container, Service } from 'typedi';
import { container as tsyringe, injectable, singleton } from 'tsyringe';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

/** What every scoped instance did, across the tests of one describe. */
const events: string[] = [];
let serial = 0;

@Service()
class Database {
  readonly name = 'main-db';
}

@Scoped('request')
class Transaction {
  readonly id = ++serial;
  constructor(
    readonly db: Database,
    @FromCall('caller') readonly caller: AuthInfo | undefined,
    @FromCall('context') readonly ctx: ToolContext,
  ) {
    events.push(`open tx ${this.id} for ${ctx.toolName}`);
  }
  dispose() {
    events.push(`close tx ${this.id}`);
  }
}

@Scoped('session')
class Cart {
  readonly id = ++serial;
  readonly items: string[] = [];
  constructor(@FromCall('session') readonly session: SessionInfo) {}
  async dispose() {
    events.push(`cart ${this.id} disposed with ${this.items.join(',')}`);
  }
}

@Scoped('request')
class ShopTools {
  constructor(
    private readonly tx: Transaction,
    private readonly cart: Cart,
  ) {}

  @Tool({ description: 'Adds an item to the cart.' })
  add(@Param('item') item: string) {
    this.cart.items.push(item);
    return `tx ${this.tx.id} on ${this.tx.db.name} by ${this.tx.caller?.clientId ?? 'anonymous'}: cart ${this.cart.id} has ${this.cart.items.join(',')}`;
  }
}

describe('request- and session-scoped services', () => {
  beforeEach(() => {
    events.length = 0;
  });

  it('builds a request-scoped service per call, reads the caller without @Ctx, and disposes it after the answer', async () => {
    const app = await createApp({ name: 'shop', version: '1', tools: [ShopTools] });
    const client = await createTestClient(app);
    const first = textOf(await client.callTool({ name: 'add', arguments: { item: 'tea' } }));
    const second = textOf(await client.callTool({ name: 'add', arguments: { item: 'milk' } }));
    const [tx1, tx2] = [Number(/tx (\d+)/.exec(first)![1]), Number(/tx (\d+)/.exec(second)![1])];
    expect(tx2).not.toBe(tx1);
    expect(first).toMatch(/on main-db by anonymous: cart \d+ has tea$/);
    // The session's cart is the same object across its calls.
    expect(second).toMatch(/cart \d+ has tea,milk$/);
    expect(events).toEqual([`open tx ${tx1} for add`, `close tx ${tx1}`, `open tx ${tx2} for add`, `close tx ${tx2}`]);
    await client.close();
    expect(events.at(-1)).toMatch(/^cart \d+ disposed with tea,milk$/);
  });

  it('closing a session waits for its services to be disposed, a dispose() that takes time included (the client, then an HTTP listener)', async () => {
    @Scoped('session')
    class Ledger {
      async dispose() {
        await new Promise((resolve) => setTimeout(resolve, 30));
        events.push('ledger flushed');
      }
    }
    @Scoped('request')
    class LedgerTools {
      constructor(private readonly ledger: Ledger) {}
      @Tool({ description: 'Writes to the ledger.' })
      write() {
        return String(this.ledger instanceof Ledger);
      }
    }
    const app = await createApp({ name: 'ledger', version: '1', tools: [LedgerTools] });
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'write', arguments: {} }))).toBe('true');
    await client.close();
    expect(events).toEqual(['ledger flushed']);

    const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const http = new Client({ name: 'h', version: '1' });
    await http.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    await http.callTool({ name: 'write', arguments: {} });
    await listener.close();
    expect(events).toEqual(['ledger flushed', 'ledger flushed']);
    await http.close();
  });

  it('gives each HTTP session its own session-scoped services, disposed when the session ends; a 2026-07-28 request has no session', async () => {
    const app = await createApp({ name: 'shop', version: '1', tools: [ShopTools] });
    const listener: HttpListener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    try {
      const url = new URL(`http://127.0.0.1:${listener.port}/mcp`);
      const a = new Client({ name: 'a', version: '1' });
      const b = new Client({ name: 'b', version: '1' });
      const ta = new StreamableHTTPClientTransport(url);
      await a.connect(ta);
      await b.connect(new StreamableHTTPClientTransport(url));
      await a.callTool({ name: 'add', arguments: { item: 'a1' } });
      expect(textOf(await b.callTool({ name: 'add', arguments: { item: 'b1' } }))).toMatch(/has b1$/);
      expect(textOf(await a.callTool({ name: 'add', arguments: { item: 'a2' } }))).toMatch(/has a1,a2$/);
      await ta.terminateSession();
      const disposedA = (e: string) => /^cart \d+ disposed with a1,a2$/.test(e);
      await waitFor(() => events.some(disposedA), "session a's cart to be disposed", { detail: () => events.join('\n') });

      const modern = new ModernClient({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await modern.connect(new ModernHttp(url));
      await modern.callTool({ name: 'add', arguments: { item: 'm1' } });
      expect(textOf(await modern.callTool({ name: 'add', arguments: { item: 'm2' } }))).toMatch(/has m2$/);
      await Promise.all([b.close(), modern.close()]);
    } finally {
      await listener.close();
    }
  });

  it('disposes a session-scoped service when its HTTP session expires', async () => {
    const app = await createApp({ name: 'shop', version: '1', tools: [ShopTools] });
    const listener: HttpListener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false, sessions: { idleTimeoutMs: 150 } });
    try {
      // A raw session (no standing GET stream, which would count as an open request and keep it alive).
      const url = `http://127.0.0.1:${listener.port}/mcp`;
      const session = await openRawSession(url);
      const call = await post(
        url,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { item: 'forgotten' } } },
        { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      );
      expect(JSON.stringify(await messagesOf(call))).toContain('has forgotten');
      // The session expires after 150 ms idle; its cart is disposed then.
      const disposed = (e: string) => /^cart \d+ disposed with forgotten$/.test(e);
      await waitFor(() => events.some(disposed), "the expired session's cart to be disposed", { detail: () => events.join('\n') });
    } finally {
      await listener.close();
    }
  });

  it('refuses at build a class built once for the app that injects a request-scoped service', async () => {
    @Service()
    class Leaky {
      constructor(readonly tx: Transaction) {}
      @Tool({ description: 'x' })
      x() {
        return 1;
      }
    }
    await expect(createApp({ name: 'x', version: '1', tools: [Leaky] })).rejects.toThrow(/Leaky: injects Transaction, which is @Scoped\('request'\).*mark Leaky @Scoped\('request'\) too/s);
  });

  it('replaces services for one test client only, leaving the app container alone', async () => {
    @Service()
    class Clock {
      now() {
        return 'real time';
      }
    }
    @Service()
    class TimeTools {
      constructor(private readonly clock: Clock) {}
      @Tool({ description: 'Now.' })
      now() {
        return this.clock.now();
      }
    }
    const app = await createApp({ name: 'clock', version: '1', tools: [TimeTools] });
    const faked = await createTestClient(app, { overrides: [[Clock, { now: () => 'fake time' }]] });
    const real = await createTestClient(app);
    expect(textOf(await faked.callTool({ name: 'now', arguments: {} }))).toBe('fake time');
    expect(textOf(await real.callTool({ name: 'now', arguments: {} }))).toBe('real time');
    expect(Container.get(Clock).now()).toBe('real time');
    await Promise.all([faked.close(), real.close()]);
  });

  it('works with another container (tsyringe) through the same { get } hook', async () => {
    @singleton()
    class Greeter {
      greet(name: string) {
        return `hello ${name}`;
      }
    }
    @Scoped('request')
    @injectable()
    class GreetTools {
      readonly id = ++serial;
      constructor(
        private readonly greeter: Greeter,
        @FromCall('context') private readonly ctx: ToolContext,
      ) {}
      @Tool({ description: 'Greets.' })
      greet(@Param('name') name: string) {
        return `${this.greeter.greet(name)} from ${this.ctx.toolName} #${this.id}`;
      }
    }
    const app = await createApp({ name: 'tsy', version: '1', tools: [GreetTools], container: { get: (cls) => tsyringe.resolve(cls) } });
    const client = await createTestClient(app);
    const one = textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
    const two = textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
    expect(one).toMatch(/^hello Ada from greet #\d+$/);
    expect(two).not.toBe(one);
    await client.close();
  });
});

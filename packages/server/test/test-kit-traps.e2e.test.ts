/**
 * Two silent traps of the test kit, each now a clear error: an override that nothing in the app
 * injects (the test would run against the real service and might pass for the wrong reason), and
 * a client used after `close()` (the SDK's bare 'Not connected').
 */
import 'reflect-metadata';
import { Service } from 'typedi';
import { FromCall, Prompt, Resource, Scoped, Tool, UseGuards, UseMiddleware, type MemberCall, type Next, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolText, type ModernClient } from '@toolwright/server/testing';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';

@Service()
class TimeSource {
  read(): string {
    return 'real time';
  }
}

/** Injected only by TimeSource's dependent: a service of a service. */
@Service()
class Clock {
  constructor(private readonly source: TimeSource) {}
  now(): string {
    return this.source.read();
  }
}

@Service()
class AuditLog {
  readonly lines: string[] = [];
}

@Service()
class Audit {
  constructor(private readonly log: AuditLog) {}
  use(call: MemberCall, next: Next) {
    this.log.lines.push(call.name);
    return next();
  }
}

@Service()
class Policy {
  allows(): boolean {
    return true;
  }
}

@Service()
class PolicyGuard {
  constructor(private readonly policy: Policy) {}
  canActivate() {
    return this.policy.allows();
  }
}

@Service()
class Library {
  title(): string {
    return 'real book';
  }
}

@Service()
class Greeter {
  greet(): string {
    return 'hello';
  }
}

@Scoped('request')
class TimeTools {
  constructor(
    private readonly clock: Clock,
    @FromCall('context') private readonly ctx: ToolContext,
  ) {}

  @UseMiddleware(Audit)
  @UseGuards(PolicyGuard)
  @Tool({ description: 'The time.' })
  time(): string {
    return `${this.clock.now()} for ${this.ctx.toolName}`;
  }
}

@Service()
class BookResources {
  constructor(private readonly library: Library) {}

  @Resource('books://first', { description: 'The first book.' })
  first(): string {
    return this.library.title();
  }
}

@Service()
class GreetPrompts {
  constructor(private readonly greeter: Greeter) {}

  @Prompt({ description: 'A greeting.' })
  greeting() {
    return this.greeter.greet();
  }
}

/** Nothing in the app injects it. */
@Service()
class Mailer {
  send(): string {
    return 'sent';
  }
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

describe('test kit: an override nothing in the app injects', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'kit-traps', version: '0.0.0', tools: [TimeTools, BookResources, GreetPrompts] });
  });

  it('is refused when the client is made, naming the class and listing what the app injects', async () => {
    const made = createTestClient(app, { overrides: [[Mailer, { send: () => 'fake' }]] });
    await expect(made).rejects.toThrow(
      /^createTestClient: overrides name Mailer, which this client would never use, so the test would run against the real services\. Nothing in this app injects Mailer\. /,
    );
    const message = await made.then(
      () => '',
      (error: Error) => error.message,
    );
    const listed = /inject: (.*?)\. Key each override by a class from that list, or remove it\.$/.exec(message)?.[1].split(', ');
    // Member classes, their constructor types transitively (not the @FromCall context), the middleware classes and theirs.
    expect(new Set(listed)).toEqual(new Set(['TimeTools', 'Clock', 'TimeSource', 'BookResources', 'Library', 'GreetPrompts', 'Greeter', 'Audit', 'AuditLog']));
    await expect(made).rejects.toMatchObject({ kind: 'config' });
  });

  it("refuses what only an unscoped guard injects, saying overrides do not reach it (the app's container builds it)", async () => {
    await expect(createTestClient(app, { overrides: [[Policy, { allows: () => false }]] })).rejects.toThrow(
      /overrides name Policy, which this client would never use.* Policy is injected only by guard classes that are not @Scoped: the app's own container builds them once, where overrides do not reach\. .*mark the guard @Scoped\('request'\)/,
    );
  });

  it('names every unused class at once, and refuses them even beside a used one', async () => {
    await expect(
      createTestClient(app, {
        overrides: new Map<unknown, unknown>([
          [Clock, { now: () => 'fake' }],
          [Mailer, {}],
          [Date, {}],
        ]) as never,
      }),
    ).rejects.toThrow(/overrides name Mailer, Date, which this client would never use.* Nothing in this app injects Mailer or Date\./);
  });

  it('says so when the app injects another class of the same name (another copy of the module)', async () => {
    const copy = (() => {
      @Service()
      class Clock {
        now(): string {
          return 'copy';
        }
      }
      return Clock;
    })();
    await expect(createTestClient(app, { overrides: [[copy, { now: () => 'fake' }]] })).rejects.toThrow(
      /It injects a different class named Clock: import the class from the module the app imports it from, not another copy of that module\./,
    );
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('refuses a class named %s that nothing injects', async (name) => {
    const odd = { [name]: class {} }[name];
    Object.defineProperty(odd, 'name', { value: name });
    await expect(createTestClient(app, { overrides: [[odd, {}]] })).rejects.toThrow(`Nothing in this app injects ${name}.`);
  });

  it('keeps the app serving after a refusal', async () => {
    await expect(createTestClient(app, { overrides: [[Mailer, {}]] })).rejects.toThrow(/Mailer/);
    const client = await createTestClient(app);
    try {
      expect(await toolText(client.callTool({ name: 'time', arguments: {} }))).toBe('real time for time');
    } finally {
      await client.close();
    }
  });

  it.each([
    ['a service of a service', TimeSource, { read: () => 'fake time' }, 'fake time for time'],
    ['a service a tool injects', Clock, { now: () => 'fake clock' }, 'fake clock for time'],
    ['the tool class itself (request-scoped)', TimeTools, { time: () => 'fake tool' }, 'fake tool'],
  ] as const)('accepts and uses an override of %s, in both eras', async (_, cls, fake, text) => {
    for (const era of ['legacy', 'modern'] as const) {
      const client = await createTestClient(app, { era, overrides: [[cls, fake]] });
      try {
        expect(textOf(await client.callTool({ name: 'time', arguments: {} }))).toBe(text);
      } finally {
        await client.close();
      }
    }
  });

  it("uses an override of a @Scoped('request') service in both eras (the 2025 era built it without the override)", async () => {
    @Scoped('request')
    class Transaction {
      id(): string {
        return 'real transaction';
      }
    }
    @Scoped('request')
    class LedgerTools {
      constructor(private readonly tx: Transaction) {}
      @Tool({ description: 'The transaction.' })
      transaction(): string {
        return this.tx.id();
      }
    }
    const ledger = await createApp({ name: 'ledger', version: '0.0.0', tools: [LedgerTools] });
    for (const era of ['legacy', 'modern'] as const) {
      const client = await createTestClient(ledger, { era, overrides: [[Transaction, { id: () => 'fake transaction' }]] });
      try {
        expect(textOf(await client.callTool({ name: 'transaction', arguments: {} }))).toBe('fake transaction');
      } finally {
        await client.close();
      }
    }
  });

  it('accepts an override of what a resource, a prompt and a middleware inject', async () => {
    const log = { lines: [] as string[] };
    const client = await createTestClient(app, {
      overrides: [
        [Library, { title: () => 'fake book' }],
        [Greeter, { greet: () => 'fake hello' }],
        [AuditLog, log],
      ],
    });
    try {
      expect((await client.readResource({ uri: 'books://first' })).contents[0]).toMatchObject({ text: 'fake book' });
      expect((await client.getPrompt({ name: 'greeting' })).messages[0].content).toMatchObject({ text: 'fake hello' });
      await client.callTool({ name: 'time', arguments: {} });
      expect(log.lines).toEqual(['time']);
    } finally {
      await client.close();
    }
  });

  it("accepts what a disabled tool, a mounted app's member or the app's own middleware inject", async () => {
    @Service()
    class Stamp {
      mark() {
        return 'real stamp';
      }
    }
    @Service()
    class StampMiddleware {
      constructor(readonly stamp: Stamp) {}
      use(_call: MemberCall, next: Next) {
        return next();
      }
    }
    @Service()
    class Inbox {
      count() {
        return 1;
      }
    }
    @Service()
    class MailTools {
      constructor(private readonly inbox: Inbox) {}
      @Tool({ description: 'Unread mail.' })
      unread() {
        return this.inbox.count();
      }
    }
    const mail = await createApp({ name: 'mail', version: '0.0.0', tools: [MailTools] });
    const host = await createApp({ name: 'host', version: '0.0.0', tools: [TimeTools], middleware: [StampMiddleware], mount: [{ app: mail, namespace: 'mail' }] });
    host.tools.disable('time');
    const client = await createTestClient(host, {
      overrides: [
        [TimeSource, { read: () => 'fake' }],
        [Inbox, { count: () => 7 }],
        [Stamp, {}],
      ],
    });
    try {
      expect(textOf(await client.callTool({ name: 'mail_unread', arguments: {} }))).toBe('7');
    } finally {
      await client.close();
    }
  });
});

/**
 * The app's own entries that take overrides, `app.createServer({ overrides })` and
 * `app.connect(transport, { overrides })`, used to drop an override nothing injects without a
 * word; they refuse it as createTestClient does, naming the entry.
 */
describe('app.createServer and app.connect: an override nothing in the app injects', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'entry-traps', version: '0.0.0', tools: [TimeTools, BookResources, GreetPrompts] });
  });

  it('is refused by createServer, naming the entry and the class', () => {
    expect(() => app.createServer({ overrides: [[Mailer, {}]] })).toThrow(
      /^createServer: overrides name Mailer, which this server would never use, so the test would run against the real services\. Nothing in this app injects Mailer\. .*Key each override by a class from that list, or remove it\.$/,
    );
    expect(() => app.createServer({ era: 'modern', overrides: new Map([[Mailer, {}]]) })).toThrow(expect.objectContaining({ kind: 'config' }));
  });

  it('tells createServer that only an unscoped guard injects the class, and how to change the caller there', () => {
    expect(() => app.createServer({ overrides: [[Policy, { allows: () => false }]] })).toThrow(
      /^createServer: overrides name Policy, .* change the caller \(createServer's authInfo\), or mark the guard @Scoped\('request'\)/,
    );
  });

  it('is refused by connect before it serves the transport, naming the entry, and the app keeps serving', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await expect(app.connect(serverSide, { overrides: [[Mailer, {}]] })).rejects.toThrow(
      /^connect: overrides name Mailer, which this connection would never use, so the test would run against the real services\. Nothing in this app injects Mailer\./,
    );
    await clientSide.close();
    const client = await createTestClient(app);
    try {
      expect(textOf(await client.callTool({ name: 'time', arguments: {} }))).toBe('real time for time');
    } finally {
      await client.close();
    }
  });

  it('accepts and uses an override the app injects, through connect', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = await app.connect(serverSide, { overrides: [[TimeSource, { read: () => 'fake time' }]] });
    const client = new Client({ name: 'entry-traps', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      expect(textOf(await client.callTool({ name: 'time', arguments: {} }))).toBe('fake time for time');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('test kit: a client used after close()', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'kit-closed', version: '0.0.0', tools: [TimeTools, BookResources, GreetPrompts] });
  });

  const calls: [string, (client: ModernClient) => Promise<unknown>][] = [
    ['callTool', (c) => c.callTool({ name: 'time', arguments: {} })],
    ['listTools', (c) => c.listTools()],
    ['listResources', (c) => c.listResources()],
    ['listResourceTemplates', (c) => c.listResourceTemplates()],
    ['readResource', (c) => c.readResource({ uri: 'books://first' })],
    ['listPrompts', (c) => c.listPrompts()],
    ['getPrompt', (c) => c.getPrompt({ name: 'greeting' })],
    ['complete', (c) => c.complete({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'x', value: '' } })],
    ['setLoggingLevel', (c) => c.setLoggingLevel('info')],
    ['ping', (c) => c.ping()],
  ];

  const closedMessage = (name: string) =>
    `createTestClient: ${name}() was called on a test client that is closed (its close() already ran), so nothing reaches the server. ` +
    'Make another client with createTestClient(app, options) (one per test, e.g. in beforeEach), and close each only when its test is done.';

  it.each(['legacy', 'modern'] as const)('fails every call with an error that says the client was closed and how to get another (%s era)', async (era) => {
    const client = await createTestClient(app, { era });
    await client.close();
    for (const [name, call] of calls) {
      // Rejects (never a silent empty list, as listTools answered before), with the kit's error, not the SDK's 'Not connected'.
      await expect(call(client)).rejects.toThrow(closedMessage(name));
      await expect(call(client)).rejects.toMatchObject({ name: 'ToolwrightError' });
    }
    // The SDK forgets the server on close: its sync reads throw the same error rather than answer undefined.
    expect(() => client.getServerVersion()).toThrow(closedMessage('getServerVersion'));
    expect(() => client.getServerCapabilities()).toThrow(closedMessage('getServerCapabilities'));
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('over HTTP too, after the listener closed with the client', async () => {
    const client = await createTestClient(app, { transport: 'http' });
    expect(await toolText(client.callTool({ name: 'time', arguments: {} }))).toBe('real time for time');
    await client.close();
    await expect(client.listTools()).rejects.toThrow(/listTools\(\) was called on a test client that is closed/);
  });

  it("leaves an open client the SDK's Client: its class, stable methods that work even taken off the client", async () => {
    const client = await createTestClient(app);
    try {
      expect(client.callTool).toBe(client.callTool);
      const { listTools } = client;
      expect((await listTools({})).tools.map((t) => t.name)).toEqual(['time']);
      expect(client).toBeInstanceOf(Client);
      expect(client.constructor).toBe(Client);
    } finally {
      await client.close();
    }
  });
});

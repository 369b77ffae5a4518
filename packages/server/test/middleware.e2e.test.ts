import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Ctx, Param, Prompt, Resource, Tool, ToolError, UseGuards, UseMiddleware, type MemberCall, type Next, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Container, Service } from 'typedi';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('middleware in memory: order, short-circuit, errors, injected classes', () => {
  @Service()
  class AuditLog {
    readonly lines: string[] = [];
  }

  @Service()
  class Audit {
    constructor(private readonly log: AuditLog) {}
    async use(call: MemberCall, next: Next) {
      this.log.lines.push(`before ${call.kind} ${call.name} ${JSON.stringify(call.args)}`);
      const result = await next();
      this.log.lines.push(`after ${call.name}`);
      return result;
    }
  }

  const order: string[] = [];
  const step = (label: string) => async (_call: MemberCall, next: Next) => {
    order.push(`${label} in`);
    const result = await next();
    order.push(`${label} out`);
    return result;
  };

  class Base {}
  UseMiddleware(step('base class'))(Base);

  @UseMiddleware(step('class'))
  class Notes extends Base {
    @UseMiddleware(step('method 1'), step('method 2'))
    @Tool({ description: 'Adds.' })
    add(@Param('a', { integer: true }) a: number, @Param('b', { integer: true, default: 1 }) b: number) {
      order.push('method');
      return a + b;
    }

    @UseMiddleware(async (_call, next) => {
      const result = (await next()) as { content: { text: string }[] };
      return { content: [{ type: 'text', text: result.content[0].text.toUpperCase() }] };
    })
    @Tool({ description: 'Shouts.' })
    shout(@Param('text') text: string) {
      return text;
    }

    @UseMiddleware(() => ({ cached: true }))
    @Tool({ description: 'Never runs: its middleware answers with a value of its own.' })
    cached() {
      throw new Error('must not run');
    }

    @UseMiddleware(async (_call, next) => {
      try {
        return await next();
      } catch (error) {
        return `recovered from ${(error as Error).message}`;
      }
    })
    @Tool({ description: 'Fails; its middleware recovers.' })
    fails() {
      throw new ToolError('a tool error');
    }

    @UseMiddleware(() => {
      throw new ToolError('refused by middleware');
    })
    @Tool({ description: 'Its middleware throws a ToolError.' })
    middlewareThrows() {
      return 'never';
    }

    @UseMiddleware(() => {
      throw new Error('secret internal detail');
    })
    @Tool({ description: 'Its middleware throws an unexpected error.' })
    middlewareCrashes() {
      return 'never';
    }

    @UseMiddleware(async (_call, next) => {
      await next();
      return next();
    })
    @Tool({ description: 'Calls next twice.' })
    twice() {
      return 'once';
    }

    @Tool({ description: 'Reads its context through the pipeline.' })
    whoami(@Ctx() ctx: ToolContext) {
      return ctx.toolName;
    }

    @Resource('notes://{id}')
    note(@Param('id', { integer: true }) id: number) {
      return `note ${id}`;
    }

    @Prompt({ description: 'Summarize.' })
    summarize(@Param('topic') topic: string) {
      return `Summarize ${topic}`;
    }
  }

  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'mw', version: '1', tools: [Notes], middleware: [step('app'), Audit], logger: silent() });
  });
  beforeEach(() => {
    order.length = 0;
    Container.get(AuditLog).lines.length = 0;
  });

  it('runs app, class (ancestors first) and method middleware as an onion, with the validated arguments', async () => {
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    expect(order).toEqual(['app in', 'base class in', 'class in', 'method 1 in', 'method 2 in', 'method', 'method 2 out', 'method 1 out', 'class out', 'base class out', 'app out']);
    expect(Container.get(AuditLog).lines).toEqual(['before tool add {"a":2,"b":3}', 'after add']);
    await client.close();
  });

  it('never runs middleware for arguments that fail validation', async () => {
    const client = await createTestClient(app);
    const bad = await client.callTool({ name: 'add', arguments: { a: 'x' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('a: must be an integer');
    expect(order).toEqual([]);
    await client.close();
  });

  it('transforms, short-circuits (normalizing a value of its own) and catches', async () => {
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'shout', arguments: { text: 'hi' } }))).toBe('HI');
    expect(textOf(await client.callTool({ name: 'cached', arguments: {} }))).toBe('{"cached":true}');
    expect(textOf(await client.callTool({ name: 'fails', arguments: {} }))).toBe('recovered from a tool error');
    await client.close();
  });

  it('answers what middleware throws like what a method throws: a ToolError is shown, anything else stays in the log', async () => {
    const client = await createTestClient(app);
    const refused = await client.callTool({ name: 'middleware_throws', arguments: {} });
    expect(refused).toMatchObject({ isError: true, content: [{ text: 'refused by middleware' }] });
    const crashed = await client.callTool({ name: 'middleware_crashes', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).not.toContain('secret');
    const twice = await client.callTool({ name: 'twice', arguments: {} });
    expect(twice.isError).toBe(true);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1 } }))).toBe('2');
    await client.close();
  });

  it('wraps resource reads and prompts too, with their kind and arguments', async () => {
    const client = await createTestClient(app);
    expect((await client.readResource({ uri: 'notes://7' })).contents[0]).toMatchObject({ text: 'note 7' });
    expect(Container.get(AuditLog).lines[0]).toBe('before resource notes://{id} {"id":7}');
    expect((await client.getPrompt({ name: 'summarize', arguments: { topic: 'mcp' } })).messages[0].content).toEqual({ type: 'text', text: 'Summarize mcp' });
    expect(Container.get(AuditLog).lines[2]).toBe('before prompt summarize {"topic":"mcp"}');
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('whoami');
    await client.close();
  });

  it('refuses an app middleware that is not a function at startup', async () => {
    await expect(createApp({ name: 'x', version: '1', tools: [Notes], middleware: [42 as never] })).rejects.toThrow(/middleware\[0\] is number/);
  });

  it('reports a @UseMiddleware argument that is not a function as a build problem', async () => {
    class Broken {
      @UseMiddleware(undefined as never)
      @Tool({ description: 'x' })
      x() {
        return 1;
      }
    }
    await expect(createApp({ name: 'x', version: '1', tools: [Broken] })).rejects.toThrow(/Broken\.x: @UseMiddleware argument #0 is undefined/);
  });
});

describe('guards in memory', () => {
  @Service()
  class Tenants {
    allowed = new Set(['acme']);
  }

  @Service()
  class TenantGuard {
    constructor(private readonly tenants: Tenants) {}
    canActivate(access: { authInfo?: { extra?: Record<string, unknown> } }) {
      return this.tenants.allowed.has(String(access.authInfo?.extra?.tenant));
    }
  }

  class Admin {
    @Tool({ description: 'Open.' })
    open() {
      return 'open';
    }

    @UseGuards(TenantGuard)
    @Tool({ description: 'Tenant only.' })
    tenantOnly() {
      return 'tenant data';
    }

    @UseGuards(TenantGuard)
    @Prompt({ description: 'Tenant prompt.' })
    report(@Param('month', { complete: () => ['jan', 'feb'] }) month: string) {
      return `Report for ${month}`;
    }

    @UseGuards(TenantGuard)
    @Resource('tenant://data')
    data() {
      return 'tenant file';
    }

    @UseGuards(async () => {
      throw new Error('guard crashed');
    })
    @Tool({ description: 'Its guard throws.' })
    broken() {
      return 'never';
    }
  }

  it('hides a refused member from lists and refuses its call; a guard that throws refuses', async () => {
    const app = await createApp({ name: 'g', version: '1', tools: [Admin], logger: silent() });
    const server = app.createServer({ authInfo: { token: 't', clientId: 'c', scopes: [], extra: { tenant: 'acme' } } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const acme = new LegacyClient({ name: 'acme', version: '1' });
    await acme.connect(clientSide);
    expect((await acme.listTools()).tools.map((t) => t.name).sort()).toEqual(['open', 'tenant_only']);
    expect(textOf(await acme.callTool({ name: 'tenant_only', arguments: {} }))).toBe('tenant data');

    const anonymous = await createTestClient(app);
    expect((await anonymous.listTools()).tools.map((t) => t.name)).toEqual(['open']);
    // Refused as an unknown tool would be: a caller cannot tell a guarded member from a missing one.
    await expect(anonymous.callTool({ name: 'tenant_only', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'tenant_only'") });
    await expect(anonymous.callTool({ name: 'broken', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    // What comes before a call is refused too: completing a guarded prompt's arguments, subscribing to a guarded resource.
    expect((await acme.complete({ ref: { type: 'ref/prompt', name: 'report' }, argument: { name: 'month', value: 'j' } })).completion.values).toEqual(['jan', 'feb']);
    await expect(anonymous.complete({ ref: { type: 'ref/prompt', name: 'report' }, argument: { name: 'month', value: 'j' } })).rejects.toMatchObject({ code: -32602 });
    await acme.subscribeResource({ uri: 'tenant://data' });
    await expect(anonymous.subscribeResource({ uri: 'tenant://data' })).rejects.toMatchObject({ message: expect.stringContaining('Resource not found: tenant://data.') });
    expect((await anonymous.listResources()).resources).toEqual([]);
    expect((await acme.readResource({ uri: 'tenant://data' })).contents[0]).toMatchObject({ text: 'tenant file' });
    await Promise.all([acme.close(), anonymous.close()]);
  });
});

function silent() {
  const none = () => undefined;
  return { debug: none, info: none, warn: none, error: none };
}

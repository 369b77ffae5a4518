import 'reflect-metadata';
import { BuildError, Param, Prompt, RequireScopes, Resource, Tool, UseGuards, type MemberAccess, type MemberCall } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { waitFor } from './fixtures/waitFor';

/**
 * Issue 28, mount: one app serves another under a namespace. Driven by the SDK v2 client in
 * memory in both eras and over real HTTP on 127.0.0.1: names, URIs, the mounted app's
 * middleware inside the parent's, its guards and scopes, its timeouts, live list changes,
 * resource updates, collisions, and wire names that are Object.prototype members.
 */
const trail: string[] = [];
const record = (label: string) => async (call: MemberCall, next: () => Promise<unknown>) => {
  trail.push(`${label}>${call.name}`);
  return next();
};
const notMallory = (access: MemberAccess) => access.authInfo?.clientId !== 'mallory';

class InvoiceTools {
  @Tool({ description: 'Create an invoice.' })
  createInvoice(@Param('customer') customer: string) {
    return { invoice: `INV-${customer}` };
  }

  @UseGuards(notMallory)
  @Tool({ description: 'Refund, guarded.' })
  refund(@Param('customer') customer: string) {
    return `refunded ${customer}`;
  }

  @RequireScopes('billing:admin')
  @Tool({ description: 'Close the books.' })
  closeBooks() {
    return 'closed';
  }

  @Tool({ name: 'constructor', description: 'A name that is an Object.prototype member.' })
  ctor() {
    return 'ctor';
  }

  @Tool({ description: 'Slow.', timeoutMs: undefined })
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
    return 'late';
  }

  @Resource('billing://invoices/latest', { mimeType: 'text/plain' })
  latest() {
    return 'INV-latest';
  }

  @Resource('billing://invoices/{id}')
  invoice(@Param('id', { complete: () => ['INV-1', 'INV-2'] }) id: string) {
    return `invoice ${id}`;
  }

  @Prompt({ description: 'Remind a customer.' })
  remind(@Param('customer', { complete: () => ['ann', 'bob'] }) customer: string) {
    return `Remind ${customer} to pay.`;
  }
}

class ExtraBilling {
  @Tool({ description: 'Added at runtime.' })
  void() {
    return 'voided';
  }
}

class FrontDesk {
  @Tool({ description: 'Say hello.' })
  hello() {
    return 'hello';
  }
}

async function billingApp(): Promise<App> {
  return createApp({ name: 'billing', version: '1.0.0', tools: [InvoiceTools], middleware: [record('billing')], toolTimeoutMs: 50, listChangedDebounceMs: 1 });
}

describe.each(['legacy', 'modern'] as const)('a mounted app, %s era, SDK v2 client in memory', (era) => {
  let billing: App;
  let app: App;
  let client: Client;

  beforeAll(async () => {
    billing = await billingApp();
    app = await createApp({ name: 'front', version: '1.0.0', tools: [FrontDesk], middleware: [record('front')], mount: [{ app: billing, namespace: 'billing' }], listChangedDebounceMs: 1 });
    client = await createTestClient(app, { era });
  });
  afterAll(() => client.close());
  beforeEach(() => void (trail.length = 0));

  it('lists the mounted tools, prompts, resources and templates under the namespace', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello', 'billing_create_invoice', 'billing_refund', 'billing_constructor', 'billing_slow']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['billing_remind']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['billing://invoices/latest']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['billing://invoices/{id}']);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'billing_create_invoice');
    expect(tool).toMatchObject({ description: 'Create an invoice.', inputSchema: { properties: { customer: { type: 'string' } }, required: ['customer'] } });
  });

  it('calls them inside the parent middleware, then the mounted app middleware', async () => {
    const result = await client.callTool({ name: 'billing_create_invoice', arguments: { customer: 'ann' } });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ invoice: 'INV-ann' }) }]);
    expect(trail).toEqual(['front>billing_create_invoice', 'billing>billing_create_invoice']);
    trail.length = 0;
    expect((await client.readResource({ uri: 'billing://invoices/INV-7' })).contents).toEqual([expect.objectContaining({ uri: 'billing://invoices/INV-7', text: 'invoice INV-7' })]);
    expect((await client.readResource({ uri: 'billing://invoices/latest' })).contents[0]).toMatchObject({ text: 'INV-latest' });
    const prompt = await client.getPrompt({ name: 'billing_remind', arguments: { customer: 'bob' } });
    expect(prompt.messages[0]!.content).toMatchObject({ text: 'Remind bob to pay.' });
    expect(trail).toEqual([
      'front>billing://invoices/{id}',
      'billing>billing://invoices/{id}',
      'front>billing://invoices/latest',
      'billing>billing://invoices/latest',
      'front>billing_remind',
      'billing>billing_remind',
    ]);
    expect((await client.callTool({ name: 'hello', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('keeps the mounted app guards, scopes and timeouts', async () => {
    expect((await client.callTool({ name: 'billing_refund', arguments: { customer: 'ann' } })).content).toEqual([{ type: 'text', text: 'refunded ann' }]);
    const mallory = await createTestClient(app, { era, auth: { clientId: 'mallory' } });
    expect((await mallory.listTools()).tools.map((t) => t.name)).not.toContain('billing_refund');
    await expect(mallory.callTool({ name: 'billing_refund', arguments: { customer: 'ann' } })).rejects.toMatchObject({ code: -32602 });
    await mallory.close();
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('billing_close_books');
    await expect(client.callTool({ name: 'billing_close_books', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const admin = await createTestClient(app, { era, auth: { scopes: ['billing:admin'] } });
    expect((await admin.listTools()).tools.map((t) => t.name)).toContain('billing_close_books');
    expect((await admin.callTool({ name: 'billing_close_books', arguments: {} })).content).toEqual([{ type: 'text', text: 'closed' }]);
    await admin.close();
    const slow = await client.callTool({ name: 'billing_slow', arguments: {} });
    expect(slow.isError).toBe(true);
    expect(JSON.stringify(slow.content)).toMatch(/50 ?ms/);
  });

  it('completes the mounted prompt and template arguments', async () => {
    const prompt = await client.complete({ ref: { type: 'ref/prompt', name: 'billing_remind' }, argument: { name: 'customer', value: '' } });
    expect(prompt.completion.values).toEqual(['ann', 'bob']);
    const template = await client.complete({ ref: { type: 'ref/resource', uri: 'billing://invoices/{id}' }, argument: { name: 'id', value: 'INV-' } });
    expect(template.completion.values).toEqual(['INV-1', 'INV-2']);
  });

  it('answers Object.prototype member names as unknown, and serves a mounted tool named constructor', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'billing___proto__', 'billing_toString', 'create_invoice']) {
      await expect(client.callTool({ name, arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(client.getPrompt({ name, arguments: {} })).rejects.toMatchObject({ code: -32602 });
    }
    expect((await client.callTool({ name: 'billing_constructor', arguments: {} })).content).toEqual([{ type: 'text', text: 'ctor' }]);
  });
});

describe('list changes in a mounted app reach the parent clients live', () => {
  it.each(['legacy', 'modern'] as const)('%s era: disable, enable and add in the mounted app', async (era) => {
    const billing = await billingApp();
    // No cache hints on the lists: the 2026-07-28 client would serve its cached list for 60 s.
    const app = await createApp({ name: 'front', version: '1.0.0', tools: [FrontDesk], mount: [{ app: billing, namespace: 'billing' }], listChangedDebounceMs: 1, cache: { lists: { ttlMs: 1 } } });
    const client = await createTestClient(app, { era });
    const events: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void events.push('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => void events.push('prompts'));
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    // A 2026-07-28 client hears of changes on a subscriptions/listen stream; this one only lists again.
    const heard = async (kind: string, check: () => Promise<boolean>) => {
      if (era === 'legacy') await waitFor(() => events.includes(kind), `notifications/${kind}/list_changed`);
      events.length = 0;
      await waitFor(check, `the parent's ${kind} list after the change`);
    };

    billing.tools.disable('create_invoice');
    await heard('tools', async () => !(await names()).includes('billing_create_invoice'));
    await expect(client.callTool({ name: 'billing_create_invoice', arguments: { customer: 'ann' } })).rejects.toMatchObject({ code: -32602 });

    billing.tools.enable('create_invoice');
    await heard('tools', async () => (await names()).includes('billing_create_invoice'));
    await billing.add(ExtraBilling);
    await heard('tools', async () => (await names()).includes('billing_void'));
    expect((await client.callTool({ name: 'billing_void', arguments: {} })).content).toEqual([{ type: 'text', text: 'voided' }]);

    billing.prompts.remove('remind');
    await heard('prompts', async () => (await client.listPrompts()).prompts.length === 0);
    await client.close();
  });

  it('passes the mounted app resource updates to subscribed clients', async () => {
    const billing = await billingApp();
    const app = await createApp({ name: 'front', version: '1.0.0', tools: [FrontDesk], mount: [{ app: billing, namespace: 'billing' }] });
    const client = await createTestClient(app);
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'billing://invoices/latest' });
    expect(billing.notifyResourceUpdated('billing://invoices/latest')).toBe(0);
    await waitFor(() => updated.length === 1, 'notifications/resources/updated');
    expect(updated).toEqual(['billing://invoices/latest']);
    await client.close();
  });

  it('runs the mounted app start and shutdown hooks with the parent', async () => {
    const steps: string[] = [];
    const billing = await createApp({ name: 'billing', version: '1', tools: [InvoiceTools], onStart: () => void steps.push('billing start'), onShutdown: () => void steps.push('billing stop') });
    const app = await createApp({
      name: 'front',
      version: '1',
      tools: [FrontDesk],
      mount: [{ app: billing, namespace: 'b' }],
      onStart: () => void steps.push('front start'),
      onShutdown: () => void steps.push('front stop'),
    });
    await app.start();
    await app.stop();
    expect(steps).toEqual(['billing start', 'front start', 'front stop', 'billing stop']);
  });
});

describe('mount over HTTP', () => {
  it.each(['legacy', 'modern'] as const)('%s era: a real HTTP client calls a mounted tool and reads a mounted resource', async (era) => {
    const app = await createApp({ name: 'front', version: '1.0.0', tools: [FrontDesk], mount: [{ app: await billingApp(), namespace: 'billing' }] });
    const client = await createTestClient(app, { era, transport: 'http' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('billing_create_invoice');
    expect((await client.callTool({ name: 'billing_create_invoice', arguments: { customer: 'zoe' } })).content).toEqual([{ type: 'text', text: JSON.stringify({ invoice: 'INV-zoe' }) }]);
    expect((await client.readResource({ uri: 'billing://invoices/9' })).contents[0]).toMatchObject({ text: 'invoice 9' });
    await client.close();
  });
});

describe('mount build checks', () => {
  class Clash {
    @Tool({ name: 'billing_create_invoice', description: 'Same name as the mounted one.' })
    mine() {
      return 'mine';
    }
    @Resource('billing://invoices/latest')
    alsoLatest() {
      return 'x';
    }
  }

  it('refuses a name or URI served twice with a BuildError naming both members', async () => {
    const error = await createApp({ name: 'front', version: '1', tools: [Clash], mount: [{ app: await billingApp(), namespace: 'billing' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    const { problems } = error as BuildError;
    expect(problems.map((p) => p.where)).toEqual(["tool 'billing_create_invoice'", "resource 'billing://invoices/latest'"]);
    expect(problems[0]!.what).toBe("served by both Clash.mine (this app) and InvoiceTools.createInvoice (mount 'billing')");
    expect(problems[1]!.what).toBe("served by both Clash.alsoLatest (this app) and InvoiceTools.latest (mount 'billing')");
  });

  it('refuses the same app mounted twice: its URIs would be served twice', async () => {
    const billing = await billingApp();
    const error = (await createApp({
      name: 'front',
      version: '1',
      tools: [],
      mount: [
        { app: billing, namespace: 'a' },
        { app: billing, namespace: 'b' },
      ],
    }).catch((e: unknown) => e)) as BuildError;
    expect(error).toBeInstanceOf(BuildError);
    expect(error.problems.map((p) => p.where)).toEqual(["resource 'billing://invoices/latest'", "resource template 'billing://invoices/{id}'"]);
  });

  it('refuses what is not an app and a namespace that cannot prefix a tool name', async () => {
    await expect(createApp({ name: 'f', version: '1', tools: [], mount: [{ app: {} as App, namespace: 'x' }] })).rejects.toThrow(/mount\[0\]\.app is not an app made by createApp/);
    await expect(createApp({ name: 'f', version: '1', tools: [], mount: [{ app: await billingApp(), namespace: 'bill ing' }] })).rejects.toThrow(/mount\[0\]\.namespace must be/);
    await expect(createApp({ name: 'f', version: '1', tools: [], mount: [{ app: await billingApp(), namespace: 'x'.repeat(64) + 'y' }] })).rejects.toThrow(/mount\[0\]\.namespace must be/);
  });

  it('serves under a namespace that is an Object.prototype member name', async () => {
    for (const namespace of ['__proto__', 'constructor', 'toString']) {
      const app = await createApp({ name: 'f', version: '1', tools: [], mount: [{ app: await billingApp(), namespace }] });
      const client = await createTestClient(app);
      expect((await client.callTool({ name: `${namespace}_create_invoice`, arguments: { customer: 'q' } })).content).toEqual([{ type: 'text', text: JSON.stringify({ invoice: 'INV-q' }) }]);
      await client.close();
    }
  });
});

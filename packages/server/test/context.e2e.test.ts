import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { IsInt, IsString, Min } from 'class-validator';
import { waitFor } from './fixtures/waitFor';

class Order {
  @IsString() item!: string;
  @IsInt() @Min(1) quantity!: number;
}

const seen: { aborted?: boolean; reason?: string; late?: () => Promise<void>; waiting?: () => void; release?: () => void } = {};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class ContextTools {
  @Tool({ description: 'Logs at every level.' })
  logsAll(@Ctx() ctx: ToolContext) {
    ctx.log.debug('d');
    ctx.log.info('i', { n: 1 });
    ctx.log.notice('n');
    ctx.log.warn('w');
    ctx.log.error('e');
    ctx.log.log('emergency', 'x');
    return 'ok';
  }

  @Tool({ description: 'Reports progress, some of it out of order, and more after it returns.' })
  async progress(@Ctx() ctx: ToolContext) {
    await ctx.progress(1, 3, 'one');
    await ctx.progress(1, 3, 'again');
    await ctx.progress(0.5);
    await ctx.progress(2);
    seen.late = () => ctx.progress(3, 3, 'late'); // the test reports this once it has the response
    return 'done';
  }

  @Tool({ description: 'Waits until cancelled.' })
  async waits(@Ctx() ctx: ToolContext) {
    seen.waiting?.();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    seen.aborted = ctx.signal.aborted;
    return 'cancelled';
  }

  @Tool({ description: 'Too slow for its timeout.', timeoutMs: 50 })
  async slow(@Ctx() ctx: ToolContext) {
    await new Promise<void>((resolve) => (seen.release = resolve)); // until the test has the timeout result
    seen.reason = String(ctx.signal.reason);
    return 'finished anyway';
  }

  @Tool({ description: 'Slow, without a context.' })
  async slowPlain(@Param('ms', { integer: true }) ms: number) {
    await sleep(ms);
    return 'slept';
  }

  @Tool({ description: 'Orders something after asking.' })
  async order(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('What do you want?', Order);
    if (answer.action !== 'accept') return `no order (${answer.action})`;
    return `${answer.content instanceof Order} ${answer.content.quantity} x ${answer.content.item}`;
  }

  @Tool({ description: 'Sends the user to a URL.' })
  async pay(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicitUrl('Please pay', 'https://pay.example.com/x', { elicitationId: 'pay-1' });
    return answer.action;
  }

  @Tool({ description: 'Lists roots.' })
  async roots(@Ctx() ctx: ToolContext) {
    return (await ctx.listRoots()).map((r) => `${r.name}=${r.uri}`).join(',');
  }
}

const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

describe('the call context through a real SDK client (in memory)', () => {
  let app: App;
  let client: Client;
  let stderr: jest.SpyInstance;
  const elicited: unknown[] = [];
  let elicitAnswer: unknown = { action: 'accept', content: { item: 'tea', quantity: 2 } };

  beforeAll(async () => {
    app = await createApp({ name: 'ctx', version: '1.0.0', tools: [ContextTools], toolTimeoutMs: 1000 });
    client = await createTestClient(app, { capabilities: { elicitation: { form: {}, url: {} }, roots: {} } });
    client.setRequestHandler('elicitation/create', (request) => {
      elicited.push(request.params);
      return elicitAnswer as never;
    });
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] }));
  });
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());
  afterAll(() => client.close());

  it('sends logs at info and above until the client sets a level, then honours it', async () => {
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    await client.callTool({ name: 'logs_all', arguments: {} });
    expect(logs).toEqual([
      { level: 'info', logger: 'logs_all', data: { message: 'i', data: { n: 1 } } },
      { level: 'notice', logger: 'logs_all', data: 'n' },
      { level: 'warning', logger: 'logs_all', data: 'w' },
      { level: 'error', logger: 'logs_all', data: 'e' },
      { level: 'emergency', logger: 'logs_all', data: 'x' },
    ]);
    logs.length = 0;
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'logs_all', arguments: {} });
    expect(logs.map((l) => (l as { level: string }).level)).toEqual(['error', 'emergency']);
    logs.length = 0;
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'logs_all', arguments: {} });
    expect(logs).toHaveLength(6);
  });

  it('keeps each connection at its own log level', async () => {
    const other = await createTestClient(app);
    const logs: unknown[] = [];
    other.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    await other.callTool({ name: 'logs_all', arguments: {} });
    expect(logs).toHaveLength(5); // the default 'info', although the first client chose 'debug'
    await other.close();
  });

  it('sends only increasing progress, only with a token, and nothing after the response', async () => {
    const progress: unknown[] = [];
    client.setNotificationHandler('notifications/progress', (n) => void progress.push(n.params));
    await client.request({ method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 7 } } });
    await seen.late!();
    await client.ping(); // a round trip: progress sent before it would have arrived
    expect(progress).toEqual([
      { progressToken: 7, progress: 1, total: 3, message: 'one' },
      { progressToken: 7, progress: 2 },
    ]);
    expect(stderr.mock.calls.join('')).toContain("'progress' reported progress 1 after 1; progress must increase");
  });

  it('aborts ctx.signal when the client cancels the call', async () => {
    const controller = new AbortController();
    const waiting = new Promise<void>((resolve) => (seen.waiting = resolve));
    const call = client.callTool({ name: 'waits', arguments: {} }, { signal: controller.signal });
    await waiting; // the tool runs
    controller.abort('user gave up');
    await expect(call).rejects.toThrow();
    await waitFor(() => seen.aborted !== undefined, 'the tool to see the cancellation');
    expect(seen.aborted).toBe(true);
  });

  it('times a tool out with an isError result and aborts its signal', async () => {
    // The tool waits until released: the timeout result comes while it still runs.
    expect(await client.callTool({ name: 'slow', arguments: {} })).toEqual({ content: [{ type: 'text', text: "Tool 'slow' timed out after 50 ms." }], isError: true });
    expect(seen.reason).toBeUndefined();
    seen.release!();
    await waitFor(() => seen.reason, 'the tool to finish');
    expect(seen.reason).toContain('timed out after 50 ms');
  });

  it('applies the app-wide timeout to tools without a context too', async () => {
    expect(textOf(await client.callTool({ name: 'slow_plain', arguments: { ms: 5 } }))).toBe('slept');
    expect(await client.callTool({ name: 'slow_plain', arguments: { ms: 1500 } })).toEqual({ content: [{ type: 'text', text: "Tool 'slow_plain' timed out after 1000 ms." }], isError: true });
  });

  it.each([
    ['toolTimeoutMs', 0],
    ['toolTimeoutMs', '30s'],
    ['timeoutMs', -5],
    ['timeoutMs', Infinity],
  ])('refuses an app %s of %p, which a timer would fire at once, failing every call', async (key, value) => {
    await expect(createApp({ name: 'ctx', version: '1.0.0', tools: [ContextTools], [key]: value as number })).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(`\`${key}\` is ${typeof value === 'string' ? `"${value}"` : value}, not a positive number of milliseconds`) }),
    );
  });

  it('elicits a DTO form and returns a validated instance', async () => {
    elicited.length = 0;
    elicitAnswer = { action: 'accept', content: { item: 'tea', quantity: 2 } };
    expect(textOf(await client.callTool({ name: 'order', arguments: {} }))).toBe('true 2 x tea');
    expect(elicited).toEqual([
      {
        mode: 'form',
        message: 'What do you want?',
        requestedSchema: { type: 'object', properties: { item: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } }, required: ['item', 'quantity'] },
      },
    ]);
  });

  it('reports decline and cancel, and refuses content that does not fit the form', async () => {
    elicitAnswer = { action: 'decline' };
    expect(textOf(await client.callTool({ name: 'order', arguments: {} }))).toBe('no order (decline)');
    elicitAnswer = { action: 'cancel' };
    expect(textOf(await client.callTool({ name: 'order', arguments: {} }))).toBe('no order (cancel)');
    elicitAnswer = { action: 'accept', content: { item: 'tea', quantity: 0 } };
    const bad = await client.callTool({ name: 'order', arguments: {} });
    expect(bad.isError).toBe(true);
  });

  it('elicits in URL mode', async () => {
    elicited.length = 0;
    elicitAnswer = { action: 'accept' };
    expect(textOf(await client.callTool({ name: 'pay', arguments: {} }))).toBe('accept');
    expect(elicited).toEqual([{ mode: 'url', message: 'Please pay', url: 'https://pay.example.com/x', elicitationId: 'pay-1' }]);
  });

  it("lists the client's roots", async () => {
    expect(textOf(await client.callTool({ name: 'roots', arguments: {} }))).toBe('work=file:///work,undefined=file:///tmp');
  });

  it('refuses with a clear tool error when the client lacks a capability', async () => {
    const bare = await createTestClient(app, { capabilities: { elicitation: {} } });
    expect(await bare.callTool({ name: 'pay', arguments: {} })).toEqual({
      content: [
        { type: 'text', text: "'pay' needs to send the user to a URL (URL-mode elicitation), but the client does not support it (no 'elicitation.url' capability). Use a client that supports it." },
      ],
      isError: true,
    });
    expect(textOf(await bare.callTool({ name: 'roots', arguments: {} }))).toContain("no 'roots' capability");
    await bare.close();
    const urlOnly = await createTestClient(app, { capabilities: { elicitation: { url: {} } } });
    expect(textOf(await urlOnly.callTool({ name: 'order', arguments: {} }))).toContain("no 'elicitation' capability");
    await urlOnly.close();
  });
});

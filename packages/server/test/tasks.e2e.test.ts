import 'reflect-metadata';
import { Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { extendedListen, MAX_EXTENDED_LISTENS, type ExtendedListens } from '../src/serving/extendedListen';
import { codeOf } from './fixtures/codeOf';
import { modernRequest, openModern } from './fixtures/modernRequest';
import { streamText } from './fixtures/streamText';

/**
 * The tasks extension (SEP-2663) through the real SDK v2 client, in memory and over HTTP:
 * a task tool called by a 2026-07-28 client that declared the extension answers with a task
 * handle; tasks/get shows progress, questions and the result; tasks/update answers the
 * questions; tasks/cancel aborts the run. Hostile ids, another caller's task, and what clients
 * that did not declare the extension (or speak 2025-11-25) get.
 *
 * The SDK v2 client (2.4) refuses a `tools/call` answer of `resultType: "task"` ("Unsupported
 * result type"), so the calls that create tasks are raw 2026-07-28 JSON-RPC over the app's
 * fetch handler, in process; everything else goes through the SDK client.
 */
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };
const NAME = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const runs = { aborted: 0 };
const logged: string[] = [];
const seen: string[] = [];

class Jobs {
  @Tool({ description: 'Counts to `steps`, reporting progress, waiting for a gate between steps.', task: true })
  async count(@Param('steps') steps: number, @Ctx() ctx: ToolContext) {
    for (let i = 1; i <= steps; i++) {
      await gate(ctx.signal);
      await ctx.progress(i, steps, `step ${i} of ${steps}`);
    }
    return `counted to ${steps}`;
  }

  @Tool({ description: 'Waits until cancelled.', task: 'required' })
  async forever(@Ctx() ctx: ToolContext) {
    await new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => {
        runs.aborted++;
        reject(new Error('aborted'));
      }),
    );
    return 'never';
  }

  @Tool({ description: 'Asks for confirmation, then deletes.', task: 'required' })
  async remove(@Param('file') file: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(`Delete ${file}?`, CONFIRM as never, { key: 'confirm' });
    return answer.action === 'accept' && (answer.content as { confirm?: boolean }).confirm ? `deleted ${file}` : `kept ${file}`;
  }

  @Tool({ description: 'Asks two questions at once.', task: true })
  async pair(@Ctx() ctx: ToolContext) {
    const [a, b] = await Promise.all([ctx.elicit('First?', CONFIRM as never, { key: 'first' }), ctx.elicit('Second?', CONFIRM as never, { key: 'second' })]);
    return `${a.action}+${b.action}`;
  }

  @Tool({ description: 'Asks a name as a plain round trip, then works on as a task.', task: { mode: 'required', inputFirst: true } })
  async welcome(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Your name?', NAME as never, { key: 'user_name' });
    await gate(ctx.signal);
    return `Welcome, ${(answer.action === 'accept' ? (answer.content as { name?: string }).name : undefined) ?? 'stranger'}!`;
  }

  @Tool({ description: 'Fails as a tool.', task: true })
  broken() {
    throw new ToolError('the job broke: try a smaller input');
  }

  @Tool({ description: 'Says it started at once, then waits until cancelled.', task: true })
  async eager(@Ctx() ctx: ToolContext) {
    await ctx.progress(0, 1, 'started');
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))));
  }

  @Tool({ description: 'Waits until cancelled, then rejects with its signal’s reason.', task: true })
  async patient(@Ctx() ctx: ToolContext) {
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
  }

  @Tool({ description: 'A plain tool.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }
}

/** Lets the `count` tool take its next step. */
let openGate: () => void = () => undefined;
let gateOpen = true;
function gate(signal: AbortSignal): Promise<void> {
  if (gateOpen) return Promise.resolve();
  return new Promise((resolve, reject) => {
    openGate = resolve;
    signal.addEventListener('abort', () => reject(new Error('aborted')));
  });
}

const JSON_RESULT = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
type Client = Awaited<ReturnType<typeof createTestClient>>;
const request = (client: Client, method: string, params: Record<string, unknown>) => client.request({ method, params } as never, JSON_RESULT as never) as Promise<Record<string, unknown>>;

let handler: FetchHandler;
let authed: FetchHandler;
/** One raw 2026-07-28 request through the fetch handler (headers and `_meta` as a client sends them); the JSON-RPC result, or a throw with its error. */
const raw = (method: string, params: Record<string, unknown>, token?: string, capabilities: object = declaring) =>
  modernRequest(token ? authed : handler, method, params, { capabilities, ...(token && { headers: { authorization: `Bearer ${token}` } }) });
const create = (name: string, args: Record<string, unknown>, token?: string) => raw('tools/call', { name, arguments: args }, token);

/** Polls tasks/get until `done` says so (each poll is a real request; no clock involved). */
async function until(client: Client, taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const task = await request(client, 'tasks/get', { taskId });
    if (done(task)) return task;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`task ${taskId} never got there`);
}
/** An acknowledgement: resultType complete and nothing of the task. */
const isAck = (answer: Record<string, unknown>) => answer.resultType === 'complete' && ['taskId', 'status', 'result', 'error', 'inputRequests'].every((key) => !(key in answer));
const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);

describe('tasks', () => {
  let app: App;
  const store = new MemoryTaskStore();
  beforeAll(async () => {
    // The app's middleware runs around every run of a task as around a plain call.
    const middleware = async (call: { name: string; args: Readonly<Record<string, unknown>> }, next: () => Promise<unknown>) => {
      seen.push(`${call.name} ${JSON.stringify(call.args)}`);
      return next();
    };
    app = await createApp({
      name: 'jobs',
      version: '1.0.0',
      tools: [Jobs],
      middleware: [middleware],
      extensions: [tasks({ store, ttlMs: 60_000, pollIntervalMs: 250 })],
      logger: { debug() {}, info() {}, warn() {}, error: (message: string) => void logged.push(message) },
    });
    const verifyToken = (token: string) => ({ token, clientId: 'app', scopes: [], extra: { sub: token } });
    handler = createFetchHandler(app, { logError: () => undefined });
    authed = createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined });
  });
  afterAll(async () => {
    await handler.close();
    await authed.close();
  });

  describe.each(['memory', 'http'] as const)('2026-07-28 over %s', (transport) => {
    let client: Client;
    let plain: Client;
    beforeAll(async () => {
      client = await createTestClient(app, { protocol: '2026-07-28', transport, capabilities: declaring } as never);
      plain = await createTestClient(app, { protocol: '2026-07-28', transport } as never);
    });
    afterAll(async () => {
      await client.close();
      await plain.close();
    });

    it('advertises the extension', () => {
      expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION_ID]: {} });
    });

    it('answers a task tool with a flat handle the store already has, then the result through tasks/get', async () => {
      gateOpen = false;
      const handle = await create('count', { steps: 2 });
      expect(handle).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 250 });
      for (const key of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) expect(handle).not.toHaveProperty(key);
      expect(handle.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      const taskId = handle.taskId as string;
      expect(taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(await raw('tasks/get', { taskId })).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
      gateOpen = true;
      openGate();
      const done = await until(client, taskId, terminal);
      expect(done).toMatchObject({ status: 'completed', statusMessage: 'step 2 of 2', result: { content: [{ type: 'text', text: 'counted to 2' }] } });
      expect(done).not.toHaveProperty('requestState');
      expect(done.result).not.toHaveProperty('resultType');
    });

    it('shows progress as the status message while the task runs', async () => {
      gateOpen = false;
      const { taskId } = await create('count', { steps: 3 });
      openGate();
      const progressed = await until(client, taskId as string, (t) => t.statusMessage === 'step 1 of 3');
      expect(progressed.status).toBe('working');
      gateOpen = true;
      openGate();
      expect(await until(client, taskId as string, terminal)).toMatchObject({ status: 'completed' });
    });

    it('keeps a status message sent before the store had the task (the first thing the method does)', async () => {
      const { taskId } = await create('eager', {});
      expect(await until(client, taskId as string, (t) => t.statusMessage !== undefined)).toMatchObject({ status: 'working', statusMessage: 'started' });
      await raw('tasks/cancel', { taskId });
    });

    it('logs nothing when a cancelled method rejects with its signal’s reason', async () => {
      const { taskId } = await create('patient', {});
      await raw('tasks/cancel', { taskId });
      expect(await until(client, taskId as string, terminal)).toMatchObject({ status: 'cancelled' });
      await new Promise((r) => setTimeout(r, 20));
      expect(logged.filter((line) => line.includes('patient'))).toEqual([]);
    });

    it('stores a tool error as a completed task with isError', async () => {
      const { taskId } = await create('broken', {});
      expect(await until(client, taskId as string, terminal)).toMatchObject({
        status: 'completed',
        result: { isError: true, content: [{ type: 'text', text: 'the job broke: try a smaller input' }] },
      });
    });

    it('turns ctx.elicit into the task input requests, answered by tasks/update', async () => {
      const { taskId } = await create('remove', { file: 'a.txt' });
      const waiting = await until(client, taskId as string, (t) => t.status !== 'working');
      expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Delete a.txt?' } } } });
      expect(waiting).not.toHaveProperty('requestState');
      // A key the task did not ask is acknowledged and ignored; so are Object.prototype names.
      const stray = JSON.parse('{"other":{"action":"accept"},"__proto__":{"action":"accept"},"constructor":{"action":"accept"}}') as Record<string, unknown>;
      expect(isAck(await raw('tasks/update', { taskId, inputResponses: stray }))).toBe(true);
      expect(await request(client, 'tasks/get', { taskId: taskId as string })).toMatchObject({ status: 'input_required' });
      await request(client, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
      expect(await until(client, taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'deleted a.txt' }] } });
      // Both runs (the one that asked, the one with the answer) went through the app's middleware.
      expect(seen.filter((line) => line === 'remove {"file":"a.txt"}').length).toBeGreaterThanOrEqual(2);
      seen.length = 0;
    });

    it('keeps a task waiting until every question is answered (partial updates)', async () => {
      const { taskId } = await create('pair', {});
      const waiting = await until(client, taskId as string, (t) => t.status !== 'working');
      expect(Object.keys(waiting.inputRequests as object).sort()).toEqual(['first', 'second']);
      await request(client, 'tasks/update', { taskId, inputResponses: { first: { action: 'accept', content: { confirm: true } } } });
      const half = await request(client, 'tasks/get', { taskId: taskId as string });
      expect(half).toMatchObject({ status: 'input_required' });
      expect(Object.keys(half.inputRequests as object)).toEqual(['second']);
      await request(client, 'tasks/update', { taskId, inputResponses: { second: { action: 'decline' } } });
      expect(await until(client, taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'accept+decline' }] } });
    });

    it('cancels a running task (its ctx.signal aborts), and acknowledges a cancel of a finished one', async () => {
      const before = runs.aborted;
      const { taskId } = await create('forever', {});
      expect(isAck(await raw('tasks/cancel', { taskId }))).toBe(true);
      expect(await until(client, taskId as string, terminal)).toMatchObject({ status: 'cancelled' });
      expect(runs.aborted).toBe(before + 1);
      expect(isAck(await raw('tasks/cancel', { taskId }))).toBe(true);
      expect(await raw('tasks/get', { taskId })).toMatchObject({ resultType: 'complete', status: 'cancelled' });
    });

    it('answers plain tools as before, and optional task tools synchronously to a client that did not declare the extension', async () => {
      expect(await toolText(client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
      expect(await toolText(plain.callTool({ name: 'count', arguments: { steps: 1 } }))).toBe('counted to 1');
    });

    it('refuses a required task tool and the tasks methods to a client that did not declare the extension (-32021)', async () => {
      const refused = await codeOf(plain.callTool({ name: 'forever', arguments: {} }));
      expect(refused).toMatchObject({ code: -32021, message: expect.stringContaining(TASKS_EXTENSION_ID) });
      for (const method of ['tasks/get', 'tasks/cancel']) expect(await codeOf(request(plain, method, { taskId: 'x' }))).toMatchObject({ code: -32021 });
    });

    it('answers -32602 for unknown ids, Object.prototype names and bad params; tasks/list and tasks/result do not exist', async () => {
      for (const taskId of ['nope', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
        for (const method of ['tasks/get', 'tasks/cancel']) expect(await codeOf(request(client, method, { taskId }))).toMatchObject({ code: -32602 });
        expect(await codeOf(request(client, 'tasks/update', { taskId, inputResponses: {} }))).toMatchObject({ code: -32602 });
      }
      expect(await codeOf(request(client, 'tasks/get', { taskId: 42 }))).toMatchObject({ code: -32602 });
      expect(await codeOf(request(client, 'tasks/update', { taskId: 'x', inputResponses: 'yes' }))).toMatchObject({ code: -32602 });
      for (const method of ['tasks/list', 'tasks/result']) expect(await codeOf(raw(method, { taskId: 'x' }))).toMatchObject({ code: -32601 });
    });
  });

  it('binds a task to its caller: another caller cannot read, answer or cancel it', async () => {
    const { taskId } = await create('remove', { file: 'b.txt' }, 'alice');
    for (let i = 0; i < 500 && (await raw('tasks/get', { taskId }, 'alice')).status !== 'input_required'; i++) await new Promise((r) => setImmediate(r));
    for (const token of ['mallory', undefined]) {
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/cancel', { taskId }],
        ['tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } }],
      ] as const) {
        expect(await codeOf(raw(method, params, token))).toMatchObject({ code: -32602 });
      }
    }
    expect(await raw('tasks/get', { taskId }, 'alice')).toMatchObject({ status: 'input_required' });
    expect(isAck(await raw('tasks/cancel', { taskId }, 'alice'))).toBe(true);
  });

  it('checks the Mcp-Name routing header of tasks/* over HTTP (-32020)', async () => {
    const { taskId } = await create('forever', {});
    const send = (headers: Record<string, string>) =>
      handler(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', ...headers },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tasks/get',
            params: {
              taskId,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
                'io.modelcontextprotocol/clientCapabilities': declaring,
              },
            },
          }),
        }),
      ).then(async (r) => JSON.stringify(await r.text()));
    expect(await send({ 'mcp-name': 'someone-else' })).toContain('-32020');
    expect(await send({})).toContain('-32020');
    expect(await send({ 'mcp-name': `  ${taskId as string}  ` })).toContain('working');
    await raw('tasks/cancel', { taskId });
  });

  it('asks the first questions of an inputFirst tool as a plain round trip, and makes the task on the round that runs past them', async () => {
    gateOpen = false;
    const first = await create('welcome', {});
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    expect(first).not.toHaveProperty('taskId');
    const handle = await raw('tools/call', { name: 'welcome', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState });
    expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
    expect(handle).not.toHaveProperty('requestState');
    gateOpen = true;
    openGate();
    let done: Record<string, unknown> = {};
    for (let i = 0; i < 500 && !terminal(done); i++) done = await raw('tasks/get', { taskId: handle.taskId });
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'Welcome, Ada!' }] } });
  });

  it('makes no task for a client that did not declare the extension: optional tools answer as plain calls, required ones -32021', async () => {
    expect(await raw('tools/call', { name: 'count', arguments: { steps: 1 } }, undefined, {})).toMatchObject({ resultType: 'complete', content: [{ text: 'counted to 1' }] });
    const refused = await codeOf(raw('tools/call', { name: 'forever', arguments: {} }, undefined, {}));
    expect(refused).toMatchObject({ code: -32021 });
  });

  it('serves task tools as plain calls to a 2025-11-25 client', async () => {
    const legacy = await createTestClient(app, { protocol: '2025-11-25', capabilities: { elicitation: {} } } as never);
    try {
      expect(await toolText(legacy.callTool({ name: 'count', arguments: { steps: 2 } }))).toBe('counted to 2');
      // That era's status updates: the method's progress, as notifications/progress on the call.
      const progress: unknown[] = [];
      const call = (legacy as unknown as { callTool(p: object, o: object): Promise<unknown> }).callTool(
        { name: 'count', arguments: { steps: 3 } },
        { onprogress: (p: { message?: string }) => void progress.push(p.message) },
      );
      expect(await toolText(call as never)).toBe('counted to 3');
      expect(progress).toEqual(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']);
    } finally {
      await legacy.close();
    }
  });

  it("lists task tools with 2025-11-25's execution.taskSupport 'optional' (that era serves them as plain calls), and without it on 2026-07-28", async () => {
    const legacy = await createTestClient(app, { protocol: '2025-11-25' } as never);
    const modern = await createTestClient(app, { protocol: '2026-07-28', capabilities: declaring } as never);
    try {
      const byName = (tools: { name: string; execution?: unknown }[]) => new Map(tools.map((t) => [t.name, t.execution]));
      const old = byName((await legacy.listTools()).tools as never);
      expect(old.get('count')).toEqual({ taskSupport: 'optional' });
      // Required on 2026-07-28, but a plain call on 2025-11-25: 'required' would make SDK v1 clients refuse to call it.
      expect(old.get('forever')).toEqual({ taskSupport: 'optional' });
      expect(old.get('greet')).toBeUndefined();
      for (const tool of (await modern.listTools()).tools) expect(tool).not.toHaveProperty('execution');
    } finally {
      await legacy.close();
      await modern.close();
    }
  });
});

describe('task status notifications on subscriptions/listen (2026-07-28, real HTTP)', () => {
  let app: App;
  let fetchHandler: FetchHandler;
  let client: Client;
  const received: Record<string, unknown>[] = [];
  const NOTIFICATION = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
  beforeAll(async () => {
    app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ ttlMs: 60_000 })], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    fetchHandler = createFetchHandler(app, { logError: () => undefined });
    client = await createTestClient(app, { protocol: '2026-07-28', transport: 'http', capabilities: declaring } as never);
    (client as unknown as { setNotificationHandler(method: string, schemas: object, handler: (n: { params: Record<string, unknown> }) => void): void }).setNotificationHandler(
      'notifications/tasks',
      { params: NOTIFICATION },
      (notification) => void received.push((notification as { params?: Record<string, unknown> }).params ?? (notification as unknown as Record<string, unknown>)),
    );
  });
  afterAll(async () => {
    await client.close();
    await fetchHandler.close();
  });

  const createHere = async (name: string, args: Record<string, unknown>) => (await modernRequest(fetchHandler, 'tools/call', { name, arguments: args }, { capabilities: declaring })).taskId as string;
  const heard = async (done: (params: Record<string, unknown>) => boolean) => {
    for (let i = 0; i < 1000; i++) {
      const found = received.find(done);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`never heard it; heard ${JSON.stringify(received)}`);
  };

  it('acknowledges the caller’s task ids and sends each status change (progress, questions, result) as notifications/tasks', async () => {
    const taskId = await createHere('remove', { file: 'n.txt' });
    const subscription = await (client as unknown as { listen(filter: object): Promise<{ honoredFilter: Record<string, unknown>; close(): Promise<void> }> }).listen({
      taskIds: [taskId, 'not-a-task'],
    });
    try {
      const asking = await heard((p) => p.taskId === taskId && p.status === 'input_required');
      expect(asking).toMatchObject({ inputRequests: { confirm: { method: 'elicitation/create' } } });
      expect(asking).not.toHaveProperty('resultType');
      expect((asking._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId']).toEqual(expect.any(String));
      await request(client, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
      expect(await heard((p) => p.taskId === taskId && p.status === 'completed')).toMatchObject({ result: { content: [{ text: 'deleted n.txt' }] } });
      expect(received.some((p) => p.taskId === 'not-a-task')).toBe(false);
    } finally {
      await subscription.close();
    }
  });

  it('merges the task ids into the acknowledgement beside the protocol’s own keys, and keeps the protocol’s notifications', async () => {
    gateOpen = false;
    const taskId = await createHere('count', { steps: 2 });
    const url = (client as unknown as { transport: { _url: URL } }).transport._url.href;
    const stream = streamText(await openModern(url, 'subscriptions/listen', { notifications: { toolsListChanged: true, taskIds: [taskId] } }, { capabilities: declaring }, 'sub-1'));
    await stream.read((t) => t.includes('"status":"working"'));
    const ack = JSON.parse(
      stream.text
        .split('\n')
        .find((l) => l.startsWith('data: ') && l.includes('acknowledged'))!
        .slice(6),
    ) as { params: { notifications: object } };
    expect(ack.params.notifications).toEqual({ toolsListChanged: true, taskIds: [taskId] });
    app.tools.disable('greet');
    gateOpen = true;
    openGate();
    await stream.read((t) => t.includes('notifications/tools/list_changed') && t.includes('"status":"completed"'));
    app.tools.enable('greet');
    await stream.cancel();
  });

  it('closes the server it makes to ask the extensions (its connection is not left among the app’s)', async () => {
    const made: { closed: boolean }[] = [];
    const factory = Object.create(app) as App;
    Object.defineProperty(factory, 'createServer', {
      value: (setup: Parameters<App['createServer']>[0]) => {
        const server = app.createServer(setup) as unknown as { onclose?: () => void };
        const entry = { closed: false };
        made.push(entry);
        const inner = server.onclose;
        server.onclose = () => {
          entry.closed = true;
          inner?.();
        };
        return server;
      },
    });
    const counted = createFetchHandler(factory, { logError: () => undefined });
    try {
      const taskId = await createHere('forever', {});
      const aborted = new AbortController();
      const response = await counted(
        new Request('http://localhost/mcp', {
          method: 'POST',
          signal: aborted.signal,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 'sub-2',
            method: 'subscriptions/listen',
            params: {
              notifications: { taskIds: [taskId] },
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
                'io.modelcontextprotocol/clientCapabilities': declaring,
              },
            },
          }),
        }),
      );
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      await request(client, 'tasks/cancel', { taskId });
      // The first server made for the listen is the one that asked the extensions (the SDK makes its own after it).
      expect(made.length).toBeGreaterThan(0);
      expect(made[0].closed).toBe(true);
    } finally {
      await counted.close();
    }
  });

  it('refuses task ids from a listen that did not declare the extension (-32021) and bad task ids (-32602)', async () => {
    const listen = (notifications: object, capabilities: object) =>
      fetch(`${(client as unknown as { transport: { _url: URL } }).transport._url.href}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'subscriptions/listen',
          params: {
            notifications,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': capabilities,
            },
          },
        }),
      }).then((r) => r.json() as Promise<{ error?: { code: number } }>);
    expect((await listen({ taskIds: ['x'] }, {})).error?.code).toBe(-32021);
    expect((await listen({ taskIds: 'x' }, declaring)).error?.code).toBe(-32602);
    expect((await listen({ taskIds: [1] }, declaring)).error?.code).toBe(-32602);
  });
});

describe('bounds on task runs, and runs whose task expired (real HTTP)', () => {
  const stopped = { count: 0 };
  class Slow {
    @Tool({ description: 'Waits until its signal aborts.', task: 'required' })
    async wait(@Ctx() ctx: ToolContext) {
      await new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => {
          stopped.count++;
          reject(ctx.signal.reason);
        }),
      );
    }

    @Tool({ description: 'Never ends, and never looks at its signal.', task: 'required' })
    async deaf() {
      await new Promise(() => undefined);
    }
  }

  const verifyToken = (token: string) => ({ token, clientId: 'app', scopes: [], extra: { sub: token } });
  const start = async (options: Parameters<typeof tasks>[0]) => {
    const app = await createApp({ name: 'slow', version: '1.0.0', tools: [Slow], extensions: [tasks(options)], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    return app.listen({
      transport: 'http',
      port: 0,
      host: '127.0.0.1',
      exitOnSignal: false,
      requestLogLevel: 'silent',
      // These tests leave runs waiting on purpose: closing does not wait for them (the shutdown wait has its own tests).
      drainTimeoutMs: 0,
      auth: { resource: 'http://127.0.0.1/mcp', authorizationServers: ['https://auth.example'], verifyToken },
    });
  };
  const call = (listener: HttpListener, method: string, params: Record<string, unknown>, token: string) =>
    modernRequest(listener.url, method, params, { capabilities: declaring, headers: { authorization: `Bearer ${token}` } });

  it('refuses a task past maxRunning per caller and in all with an isError result and no task, and takes one again once a run ends', async () => {
    const listener = await start({ maxRunning: { perCaller: 2, total: 3 } });
    try {
      const a1 = await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'alice');
      await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'alice');
      expect(a1).toMatchObject({ resultType: 'task' });
      const mine = await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'alice');
      expect(mine).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('this caller has 2 tasks running on this server') }] });
      expect(mine).not.toHaveProperty('taskId');
      // Another caller has room of its own, up to the bound in all.
      expect(await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'bob')).toMatchObject({ resultType: 'task' });
      const all = await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'bob');
      expect(all).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('this server runs 3 tasks') }] });
      await call(listener, 'tasks/cancel', { taskId: a1.taskId }, 'alice');
      expect(await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'alice')).toMatchObject({ resultType: 'task' });
    } finally {
      await listener.close();
    }
  });

  it('stops the run of a task that expired (its ttlMs passed without a change), and frees its place, even when the method ignores its signal', async () => {
    const listener = await start({ ttlMs: 200, heartbeatTimeoutMs: 60, maxRunning: { perCaller: 1 } });
    try {
      const before = stopped.count;
      const waiting = await call(listener, 'tools/call', { name: 'wait', arguments: {} }, 'carol');
      for (let i = 0; i < 200 && stopped.count === before; i++) await new Promise((r) => setTimeout(r, 10));
      expect(stopped.count).toBe(before + 1);
      await expect(call(listener, 'tasks/get', { taskId: waiting.taskId }, 'carol')).rejects.toMatchObject({ code: -32602 });

      const deaf = await call(listener, 'tools/call', { name: 'deaf', arguments: {} }, 'dave');
      expect(deaf).toMatchObject({ resultType: 'task' });
      expect(await call(listener, 'tools/call', { name: 'deaf', arguments: {} }, 'dave')).toMatchObject({ isError: true });
      let again: Record<string, unknown> = {};
      for (let i = 0; i < 200 && again.resultType !== 'task'; i++) {
        await new Promise((r) => setTimeout(r, 10));
        again = await call(listener, 'tools/call', { name: 'deaf', arguments: {} }, 'dave');
      }
      expect(again).toMatchObject({ resultType: 'task' });
    } finally {
      await listener.close();
    }
  });
});

describe('extended subscriptions/listen streams', () => {
  it('are bounded per endpoint: past the limit a listen naming task ids is refused (-32603), as the SDK refuses its own', async () => {
    const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks()], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const open: ExtendedListens = new Set(Array.from({ length: MAX_EXTENDED_LISTENS }, () => () => undefined));
    const body = {
      jsonrpc: '2.0',
      id: 9,
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: ['x'] }, _meta: { 'io.modelcontextprotocol/clientCapabilities': declaring } },
    };
    const refused = await extendedListen(
      (setup) => app.createServer(setup),
      body,
      undefined,
      open,
      () => Promise.reject(new Error('not reached')),
    );
    expect(await refused!.json()).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Subscription limit reached' } });
  });
});

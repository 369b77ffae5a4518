import 'reflect-metadata';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { ConfigError, Tool } from '@toolwright/core';
import { createApp, defineExtension, tasks, TASKS_EXTENSION_ID, type ExtensionApp } from '@toolwright/server';
import { createHttpHandler } from '@toolwright/server/http';
import { serveStdio } from '@toolwright/server/stdio';
import { listenInMemory } from './fixtures/memoryStdio';
import { waitFor } from './fixtures/waitFor';
import { createTaskClient, createTestClient, toolText } from '@toolwright/server/testing';

/**
 * An app that serves a `@Tool({ task: 'required' })` tool itself must serve the tasks extension
 * (`tasks()`): without it, a 2026-07-28 client that declared the extension would get the tool
 * run as a plain call, which SEP-2663 forbids. Such an app builds (a parent that serves `tasks()`
 * may mount it), and is refused with a `ConfigError` naming the tool and the fix wherever it
 * would serve clients of its own: `listen` (stdio and HTTP, before any start hook), every server
 * its transports make (the test kit, `connect`, the HTTP handler with its fast path, `app.fetch`),
 * in both eras. Driven by the SDK v2 client in memory, over stdio streams, over HTTP on
 * 127.0.0.1, and by the test kit's task client (the 2026-07-28 wire).
 */
const ran: string[] = [];

class Exports {
  @Tool({ description: 'Exports everything (only as a task).', task: 'required' })
  exportAll() {
    ran.push('export_all');
    return 'exported';
  }
}

class Greeter {
  @Tool({ description: 'Says hello.' })
  hello() {
    ran.push('hello');
    return 'hello';
  }
}

const ERAS = ['2025-11-25', '2026-07-28'] as const;
const declaring = { extensions: { [TASKS_EXTENSION_ID]: {} } };
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A logger that keeps its errors, with the message of an error given as data. */
function recording(logged: string[]) {
  return { ...silent, error: (message: string, data?: unknown) => void logged.push(`${message} ${data instanceof Error ? data.message : JSON.stringify(data ?? '')}`) };
}

/** What `work` threw (or undefined, once what it made, a client or a listener, is closed). */
async function thrown(work: () => unknown): Promise<unknown> {
  try {
    const made = (await work()) as { close?: () => Promise<void> } | undefined;
    await made?.close?.();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The refusal of an app named `app` serving `Exports.exportAll` without `tasks()`. */
function expectRefusal(error: unknown, app = 'alone'): void {
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  expect(message).toContain(`app '${app}' cannot serve its own clients (1 problem)`);
  expect(message).toContain(`tool 'export_all': Exports.exportAll (app '${app}') runs only as a task (@Tool({ task: 'required' }))`);
  expect(message).toContain(`does not serve the tasks extension ('${TASKS_EXTENSION_ID}')`);
  expect(message).toContain("Fix: add `tasks()` to this app's `extensions`, or declare the tool `task: 'optional'`");
  // Only an app whose own tool it is may leave tasks() to its parent: one that mounts such a tool cannot be built without it.
  expect(message).toContain('An app whose own tool it is may instead leave `tasks()` to the app that mounts it');
  expect(message).toContain('an app that mounts such a tool lists `tasks()` itself, even when it is mounted in turn');
}

/** A transport nothing is sent on: `connect` is refused before it starts. */
class PassThroughTransport {
  async start(): Promise<void> {}
  async send(): Promise<void> {}
  async close(): Promise<void> {}
}

beforeEach(() => {
  ran.length = 0;
});

describe("an app that serves a task: 'required' tool itself without tasks()", () => {
  it('builds (it may be mounted), and is refused by the test kit and connect in both eras, running nothing', async () => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports, Greeter], logger: recording(logged) });
    for (const protocol of ERAS) expectRefusal(await thrown(() => createTestClient(app, { protocol, capabilities: declaring })));
    expect(logged).toEqual([]); // thrown to the test, not logged
    // A server made for a transport: thrown, and logged once (some transports answer a bare 500).
    for (const era of ['legacy', 'modern'] as const) expectRefusal(await thrown(() => app.createServer({ era })));
    expectRefusal(await thrown(() => app.connect(new PassThroughTransport())));
    expect(logged).toEqual([expect.stringContaining("Exports.exportAll (app 'alone') runs only as a task")]);
    expect(ran).toEqual([]);
  });

  it('the 2026-07-28 wire (app.fetch): the task client gets no plain result, and the server keeps answering after the refusal', async () => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], logger: recording(logged) });
    const client = createTaskClient(app);
    for (let i = 0; i < 2; i++) {
      const error = await thrown(() => client.call('export_all', {}));
      expect(error).toBeInstanceOf(Error);
      // No stack trace and no configuration on the wire: the log has the refusal.
      expect((error as Error).message).not.toMatch(/at .*\.ts:\d+|Exports\.exportAll|tasks\(\)/);
    }
    expect(logged.join('\n')).toContain("Exports.exportAll (app 'alone') runs only as a task");
    expect(ran).toEqual([]);
  });

  it('listen over stdio refuses before the start hooks run and before stdout is taken', async () => {
    let started = 0;
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], onStart: () => void started++ });
    const write = process.stdout.write;
    expectRefusal(await thrown(() => app.listen({ transport: 'stdio', stdin: new PassThrough(), exitOnClose: false })));
    expect(process.stdout.write).toBe(write);
    expect(started).toBe(0);
  });

  it('serveStdio called directly answers the first request with an error (the log has the refusal), never leaving it unanswered', async () => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], logger: recording(logged) });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: string[] = [];
    stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const listener = await serveStdio(app, { transport: 'stdio', stdin, stdout, exitOnClose: false });
    try {
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
      await waitFor(() => lines.length > 0, 'an answer to initialize');
      expect(JSON.parse(lines[0])).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error: the server could not serve this connection. Its log has the details.' } });
      expect(logged.join('\n')).toContain("Exports.exportAll (app 'alone') runs only as a task");
      expect(ran).toEqual([]);
    } finally {
      stdin.end();
      await listener.close();
    }
  });

  it('serveStdio called directly, a first message that is a notification: every later request is answered with the same error, notifications with nothing', async () => {
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], logger: silent });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: string[] = [];
    stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const listener = await serveStdio(app, { transport: 'stdio', stdin, stdout, exitOnClose: false });
    const noServer = (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error: the server could not serve this connection. Its log has the details.' } });
    try {
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'export_all', arguments: {} } })}\n`);
      await waitFor(() => lines.length >= 2, 'answers to both requests', { timeoutMs: 2000 });
      expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([noServer(1), noServer(2)]);
      expect(ran).toEqual([]);
    } finally {
      stdin.end();
      await listener.close();
    }
  });

  it('listen over HTTP refuses before the start hooks run, binding nothing', async () => {
    let started = 0;
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], onStart: () => void started++ });
    for (const stateless of [false, true]) expectRefusal(await thrown(() => app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless, requestLogLevel: 'silent' })));
    expect(started).toBe(0);
  });

  it.each([false, true])('the HTTP handler on 127.0.0.1 (stateless %s, fast paths on) answers a 2025-11-25 client with an error, never a plain call', async (stateless) => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], fastPaths: true, logger: recording(logged) });
    const handler = createHttpHandler(app, { requestLogLevel: 'silent', stateless });
    const server = createServer((req: IncomingMessage, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
      // Stateless, a client may call without initializing first (the fast path would have run the tool); stateful, it opens a session first.
      const message = stateless
        ? { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_all', arguments: {} } }
        : { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
      const call = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
      const text = await call.text();
      expect(call.ok).toBe(false);
      expect(text).not.toContain('exported');
      expect(text).not.toMatch(/at .*\.ts:\d+|Exports\.exportAll/);
      expect(logged.join('\n')).toContain("Exports.exportAll (app 'alone') runs only as a task");
    } finally {
      await handler.close();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(ran).toEqual([]);
  });

  it('is served once the tool is removed, and refused again once a required task tool is added', async () => {
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports, Greeter] });
    expectRefusal(await thrown(() => createTestClient(app)));
    app.tools.remove('export_all');
    const client = await createTestClient(app, { protocol: '2026-07-28' });
    try {
      expect(await toolText(client.callTool({ name: 'hello', arguments: {} }))).toBe('hello');
    } finally {
      await client.close();
    }
    await app.add(Exports);
    expectRefusal(await thrown(() => createTestClient(app)));
    // Disabled, it still counts: it may be enabled while a connection is open.
    app.tools.disable('export_all');
    expectRefusal(await thrown(() => createTestClient(app)));
  });
});

describe("a task: 'required' tool added while a connection of an app without tasks() is open", () => {
  const FAILED = { content: [{ type: 'text', text: "Tool 'export_all' failed with an internal error. The server log has the details." }], isError: true };
  const modernMeta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': declaring,
  };

  it('a 2026-07-28 client (in memory) gets the generic failure, the reason is logged once, and the other tools still run', async () => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Greeter], logger: recording(logged), listChangedDebounceMs: 1 });
    const client = await createTestClient(app, { protocol: '2026-07-28', capabilities: declaring });
    try {
      await app.add(Exports);
      for (let i = 0; i < 2; i++) expect(await client.callTool({ name: 'export_all', arguments: {} })).toMatchObject(FAILED);
      expect(await toolText(client.callTool({ name: 'hello', arguments: {} }))).toBe('hello');
    } finally {
      await client.close();
    }
    expect(ran).toEqual(['hello']);
    expect(logged).toEqual([expect.stringContaining("app 'alone' answers every 2026-07-28 call of tool 'export_all' with an internal error: Exports.exportAll (app 'alone') runs only as a task")]);
  });

  it('a 2026-07-28 client over stdio gets the same failure; nothing runs', async () => {
    const app = await createApp({ name: 'alone', version: '1', tools: [Greeter], logger: silent, listChangedDebounceMs: 1 });
    const stdio = await listenInMemory(app);
    try {
      // The first message makes the connection's server: the app serves then.
      stdio.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hello', arguments: {}, _meta: modernMeta } });
      expect(await stdio.answer(1)).toMatchObject({ result: { content: [{ type: 'text', text: 'hello' }] } });
      await app.add(Exports);
      stdio.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'export_all', arguments: {}, _meta: modernMeta } });
      expect(await stdio.answer(2)).toMatchObject({ jsonrpc: '2.0', id: 2, result: FAILED });
    } finally {
      await stdio.close();
    }
    expect(ran).toEqual(['hello']);
  });

  it('a 2025-11-25 client runs it as a plain call, as that era serves every task tool', async () => {
    const app = await createApp({ name: 'alone', version: '1', tools: [Greeter], logger: silent, listChangedDebounceMs: 1 });
    const client = await createTestClient(app, { protocol: '2025-11-25' });
    try {
      await app.add(Exports);
      expect(await toolText(client.callTool({ name: 'export_all', arguments: {} }))).toBe('exported');
    } finally {
      await client.close();
    }
  });
});

describe("an app without tasks() whose task: 'required' tool is served by a parent with tasks()", () => {
  it('is mounted and started by the parent, which runs the tool as a task; its extensions still call its tools', async () => {
    let child!: ExtensionApp;
    const holder = defineExtension({ id: 'com.example/holder', start: (app) => void (child = app) });
    const inner = await createApp({ name: 'alone', version: '1', tools: [Exports, Greeter], extensions: [holder], logger: silent });
    const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [tasks({ logger: silent })], mount: [{ app: inner, namespace: 'data' }] });
    await front.start();
    try {
      const done = await createTaskClient(front).run('data_export_all', {});
      expect(done.status).toBe('completed');
      expect(done.result?.content).toEqual([{ type: 'text', text: 'exported' }]);
      // A run outside any request is not a client of the mounted app's own: it is not refused.
      expect(await child.callTool({ name: 'hello' }, undefined)).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
    } finally {
      await front.stop();
    }
    expectRefusal(await thrown(() => createTestClient(inner)));
    expect(ran).toEqual(['export_all', 'hello']);
  });

  it('an app with tasks() serves the tool itself as before', async () => {
    const app = await createApp({ name: 'served', version: '1', tools: [Exports], extensions: [tasks({ logger: silent })] });
    expect((await createTaskClient(app).run('export_all', {})).status).toBe('completed');
    const client = await createTestClient(app, { protocol: '2025-11-25' });
    try {
      expect(await toolText(client.callTool({ name: 'export_all', arguments: {} }))).toBe('exported');
    } finally {
      await client.close();
    }
  });
});

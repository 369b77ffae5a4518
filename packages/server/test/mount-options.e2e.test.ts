import 'reflect-metadata';
import { Ctx, Param, Resource, Tool, UseGuards, type ToolContext } from '@toolwright/core';
import { createApp, type App, type AppOptions } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

/**
 * A mounted app's members run under the pipeline options of the app that declares them: what
 * it sets (`guardTimeoutMs`, `maxLogLength`, `maxUriLength`, `toolTimeoutMs`, `timeoutMs`)
 * wins over the parent's, what it leaves out the parent's fills in, and the parent's
 * `maxUriLength` still bounds every URI its endpoint matches; its `coerce` is its members' own.
 * Driven through the SDK v2 client in memory on the parent, in both eras.
 */
const slowGuard = () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 100).unref());

class Members {
  @UseGuards(slowGuard)
  @Tool({ description: 'Guarded by a guard that takes 100 ms.' })
  guarded() {
    return 'passed';
  }

  @Tool({ description: 'Logs a line of 500 characters and reports progress with as long a message.' })
  async chatty(@Ctx() ctx: ToolContext) {
    ctx.log.info('x'.repeat(500));
    await ctx.progress(1, 2, 'y'.repeat(500));
    return 'logged';
  }

  @Tool({ description: 'Takes 100 ms.' })
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 100).unref());
    return 'done';
  }

  @Tool({ description: 'Doubles a number.' })
  double(@Param('n') n: number) {
    return n * 2;
  }

  @Resource('files://{name}')
  file(@Param('name') name: string) {
    return `file ${name.length}`;
  }

  @Resource('slow://{name}')
  async slowFile(@Param('name') name: string) {
    await new Promise((resolve) => setTimeout(resolve, 100).unref());
    return name;
  }
}

class Front {
  @Tool({ description: 'Say hello.' })
  hello() {
    return 'hello';
  }
}

/** What the apps log on the server side (a guard that did not decide, a line cut), kept off stderr. */
const logged: string[] = [];
const logger = { debug: () => undefined, info: () => undefined, warn: (line: string) => void logged.push(line), error: (line: string) => void logged.push(line) };

type Limits = Pick<AppOptions, 'guardTimeoutMs' | 'maxLogLength' | 'maxUriLength' | 'toolTimeoutMs' | 'timeoutMs' | 'coerce'>;

/** A client of a parent (with `parent`'s options) that mounts an app of `Members` (with `mounted`'s) under `m`, and its log and progress lines. */
async function mountedWith(era: 'legacy' | 'modern', mounted: Limits, parent: Limits) {
  const inner = await createApp({ name: 'inner', version: '1.0.0', tools: [Members], logger, ...mounted });
  const app: App = await createApp({ name: 'front', version: '1.0.0', tools: [Front], mount: [{ app: inner, namespace: 'm' }], logger, ...parent });
  const client: Client = await createTestClient(app, { era });
  const lines: string[] = [];
  client.setNotificationHandler('notifications/message', (n) => void lines.push(String(n.params.data)));
  return { client, lines };
}

/** Calls `m_chatty` (a 2026-07-28 request asks for log lines in its `_meta`), with a progress token; the progress messages it got. */
async function callChatty(client: Client, era: 'legacy' | 'modern'): Promise<string[]> {
  const progress: string[] = [];
  client.setNotificationHandler('notifications/progress', (n) => void progress.push(String(n.params.message)));
  const _meta = { progressToken: 'p', ...(era === 'modern' && { 'io.modelcontextprotocol/logLevel': 'info' }) };
  const result = await client.request({ method: 'tools/call', params: { name: 'm_chatty', arguments: {}, _meta } });
  expect(result.content).toEqual([{ type: 'text', text: 'logged' }]);
  return progress;
}

const guardedCall = (client: Client) => client.callTool({ name: 'm_guarded', arguments: {} });

describe.each(['legacy', 'modern'] as const)('a mounted app keeps its own pipeline options (%s era)', (era) => {
  const clients: Client[] = [];
  const open = async (mounted: Limits, parent: Limits) => {
    const made = await mountedWith(era, mounted, parent);
    clients.push(made.client);
    return made;
  };
  afterAll(() => Promise.all(clients.map((c) => c.close())));

  it("guardTimeoutMs: the mounted app's own refuses a slow guard under a parent with the default", async () => {
    const { client } = await open({ guardTimeoutMs: 20 }, {});
    logged.length = 0;
    await expect(guardedCall(client)).rejects.toMatchObject({ code: -32602 });
    expect(logged).toEqual([expect.stringContaining("of tool 'm_guarded' did not decide within 20 ms; the caller is refused")]);
    expect(logged[0]).toContain("within the app's guardTimeoutMs, 20 ms");
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('m_guarded');
  });

  it("guardTimeoutMs: the parent's fills in what the mounted app leaves out, and the mounted app's larger one wins over it", async () => {
    const { client: unset } = await open({}, { guardTimeoutMs: 20 });
    await expect(guardedCall(unset)).rejects.toMatchObject({ code: -32602 });
    const { client: larger } = await open({ guardTimeoutMs: 5_000 }, { guardTimeoutMs: 20 });
    expect((await guardedCall(larger)).content).toEqual([{ type: 'text', text: 'passed' }]);
    expect((await larger.listTools()).tools.map((t) => t.name)).toContain('m_guarded');
  });

  it('guardTimeoutMs through two mounts: the innermost app that sets it wins', async () => {
    const twice = async (inner: Limits, middle: Limits) => {
      const c = await createApp({ name: 'c', version: '1.0.0', tools: [Members], logger, ...inner });
      const b = await createApp({ name: 'b', version: '1.0.0', tools: [Front], mount: [{ app: c, namespace: 'c' }], logger, ...middle });
      const a = await createApp({ name: 'a', version: '1.0.0', tools: [Front], mount: [{ app: b, namespace: 'b' }], logger });
      const client = await createTestClient(a, { era });
      clients.push(client);
      return client.callTool({ name: 'b_c_guarded', arguments: {} });
    };
    await expect(twice({ guardTimeoutMs: 20 }, { guardTimeoutMs: 5_000 })).rejects.toMatchObject({ code: -32602 });
    await expect(twice({}, { guardTimeoutMs: 20 })).rejects.toMatchObject({ code: -32602 });
    expect((await twice({ guardTimeoutMs: 5_000 }, { guardTimeoutMs: 20 })).content).toEqual([{ type: 'text', text: 'passed' }]);
  });

  it("maxLogLength: the mounted app's own cuts its ctx.log lines and progress messages", async () => {
    const { client, lines } = await open({ maxLogLength: 100 }, {});
    const progress = await callChatty(client, era);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThan(200);
    expect(lines[0]).not.toContain('x'.repeat(101));
    expect(progress).toHaveLength(1);
    expect(progress[0]!.length).toBeLessThanOrEqual(100);
  });

  it("maxLogLength: the mounted app's larger one wins over the parent's", async () => {
    const { client, lines } = await open({ maxLogLength: 1_000 }, { maxLogLength: 100 });
    await callChatty(client, era);
    expect(lines).toEqual(['x'.repeat(500)]);
  });

  it("maxUriLength: the mounted app's smaller one bounds its templates; the parent's bounds every URI", async () => {
    const { client } = await open({ maxUriLength: 64 }, {});
    expect((await client.readResource({ uri: `files://${'a'.repeat(40)}` })).contents[0]).toMatchObject({ text: 'file 40' });
    await expect(client.readResource({ uri: `files://${'a'.repeat(100)}` })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('at most 64 characters') });
    const { client: small } = await open({ maxUriLength: 4_096 }, { maxUriLength: 64 });
    await expect(small.readResource({ uri: `files://${'a'.repeat(100)}` })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('at most 64 characters') });
  });

  it("toolTimeoutMs and timeoutMs: the mounted app's own win over the parent's, and the parent's fill in", async () => {
    const { client: own } = await open({ toolTimeoutMs: 5_000, timeoutMs: 5_000 }, { timeoutMs: 20 });
    expect((await own.callTool({ name: 'm_slow', arguments: {} })).content).toEqual([{ type: 'text', text: 'done' }]);
    expect((await own.readResource({ uri: 'slow://a' })).contents[0]).toMatchObject({ text: 'a' });
    const { client: unset } = await open({}, { timeoutMs: 20 });
    expect((await unset.callTool({ name: 'm_slow', arguments: {} })).isError).toBe(true);
    await expect(unset.readResource({ uri: 'slow://a' })).rejects.toBeDefined();
  });

  it("coerce: the mounted app's own holds (it is part of its members' compiled validation)", async () => {
    const { client } = await open({ coerce: true }, {});
    expect((await client.callTool({ name: 'm_double', arguments: { n: '21' } })).content).toEqual([{ type: 'text', text: '42' }]);
    const { client: strict } = await open({}, { coerce: true });
    expect((await strict.callTool({ name: 'm_double', arguments: { n: '21' } })).isError).toBe(true);
  });
});

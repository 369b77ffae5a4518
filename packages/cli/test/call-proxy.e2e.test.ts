import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { proxyServer, type ProxiedServer } from '@toolwright/server/proxy';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright inspect` and `toolwright call` against an app that serves another server through
 * `proxyServer()`: the proxied tools are listed with their schemas under the namespace, a call
 * goes through to the upstream, and the upstream's question (elicitation) is answered from
 * `--field`. Both servers run in this process over HTTP on 127.0.0.1.
 */
class Upstream {
  @Tool({ description: 'Add two numbers.', annotations: { readOnlyHint: true } })
  add(@Param('a') a: number, @Param('b') b: number) {
    return a + b;
  }

  @Tool({ description: 'Asks for a colour.' })
  async colour(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Favourite colour?', { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] });
    return answer.action === 'accept' ? `you chose ${String(answer.content.colour)}` : 'no colour';
  }
}

const cli = async (...argv: string[]) => {
  const io = memoryIo(tmpdir());
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('toolwright inspect and call on an app with a proxied server', () => {
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  let upstream: HttpListener;
  let front: HttpListener;
  let proxy: ProxiedServer;

  beforeAll(async () => {
    const upstreamApp = await createApp({ name: 'maths', version: '1', tools: [Upstream], logger: silent });
    upstream = await upstreamApp.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
    proxy = await proxyServer({ url: upstream.url, logger: silent });
    const app = await createApp({ name: 'front', version: '1', tools: [], mount: [{ app: proxy, namespace: 'maths' }], logger: silent });
    front = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
  });

  afterAll(async () => {
    await front.close();
    await proxy.stop();
    await upstream.close();
  });

  it('inspect lists the proxied tools with their schemas and annotations', async () => {
    const result = await cli('inspect', front.url, '--json');
    expect(result.code).toBe(0);
    const contract = JSON.parse(result.stdout) as { tools: { name: string; inputSchema: unknown; annotations?: unknown }[] };
    const add = contract.tools.find((t) => t.name === 'maths_add');
    expect(add).toMatchObject({ inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, annotations: { readOnlyHint: true } });
    expect(contract.tools.map((t) => t.name).sort()).toEqual(['maths_add', 'maths_colour']);
  });

  it('call forwards to the upstream, and answers its question from --field', async () => {
    const sum = await cli('call', front.url, 'maths_add', '--args', '{"a":2,"b":3}');
    expect(sum.stdout.trim()).toBe('5');
    expect(sum.code).toBe(0);
    const colour = await cli('call', front.url, 'maths_colour', '--field', 'colour=teal');
    expect(colour.stdout.trim()).toBe('you chose teal');
    expect(colour.stderr).toContain('Favourite colour?');
    expect(colour.code).toBe(0);
  });
});

import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '@toolwright/cli';
import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { fromOpenApi } from '@toolwright/openapi';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright inspect` and `toolwright call` against a composed app, as against any other: a
 * local tool, another app mounted with a transform, and an OpenAPI description's operations
 * (calling a real API on 127.0.0.1). The app is served over HTTP on 127.0.0.1 in this process.
 */
class FrontDesk {
  @Tool({ description: 'Say hello.' })
  hello() {
    return 'hello';
  }
}

class Billing {
  @Tool({ description: 'Create an invoice.' })
  createInvoice(@Param('customer') customer: string, @Param('currency') currency: string) {
    return { invoice: `INV-${customer}-${currency}` };
  }
}

const document = {
  openapi: '3.1.0',
  info: { title: 'Stock', version: '1' },
  paths: {
    '/items/{sku}': {
      get: {
        operationId: 'getItem',
        parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object', required: ['sku', 'count'], properties: { sku: { type: 'string' }, count: { type: 'integer' } } } } },
          },
        },
      },
    },
  },
};

const cli = async (...argv: string[]) => {
  const io = memoryIo(tmpdir());
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('toolwright inspect and call on a composed app (mount and OpenAPI)', () => {
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  let api: Server;
  let front: HttpListener;

  beforeAll(async () => {
    api = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sku: decodeURIComponent(req.url!.split('/')[2]!), count: 4 })));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const stock = await fromOpenApi(document, { baseUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}` });
    const billing = await createApp({ name: 'billing', version: '1', tools: [Billing], logger: silent });
    const app = await createApp({
      name: 'front',
      version: '1',
      tools: [FrontDesk, stock],
      mount: [{ app: billing, namespace: 'billing', transforms: { create_invoice: { arguments: { currency: { value: 'EUR' } } } } }],
      logger: silent,
    });
    front = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
  });

  afterAll(async () => {
    await front.close();
    api.closeAllConnections();
    await new Promise((resolve) => api.close(resolve));
  });

  it('inspect lists the local, mounted and OpenAPI tools with their schemas', async () => {
    const result = await cli('inspect', front.url, '--json');
    expect(result.code).toBe(0);
    const contract = JSON.parse(result.stdout) as { tools: { name: string; inputSchema: { properties?: object }; outputSchema?: unknown }[] };
    expect(contract.tools.map((t) => t.name).sort()).toEqual(['billing_create_invoice', 'getItem', 'hello']);
    const invoice = contract.tools.find((t) => t.name === 'billing_create_invoice')!;
    expect(Object.keys(invoice.inputSchema.properties!)).toEqual(['customer']);
    expect(contract.tools.find((t) => t.name === 'getItem')!.outputSchema).toMatchObject({ type: 'object', required: ['sku', 'count'] });
  });

  it('call runs a mounted tool with its hidden argument filled in, and an OpenAPI operation against the API', async () => {
    const invoice = await cli('call', front.url, 'billing_create_invoice', '--args', '{"customer":"ann"}');
    expect(invoice.code).toBe(0);
    expect(JSON.parse(invoice.stdout)).toEqual({ invoice: 'INV-ann-EUR' });
    const item = await cli('call', front.url, 'getItem', '--args', '{"sku":"A-1"}');
    expect(item.code).toBe(0);
    expect(JSON.parse(item.stdout)).toEqual({ sku: 'A-1', count: 4 });
    const hidden = await cli('call', front.url, 'billing_create_invoice', '--args', '{"customer":"ann","currency":"USD"}');
    expect(hidden.code).not.toBe(0);
    expect(hidden.stdout + hidden.stderr).toContain('currency: is set by the server and may not be sent; leave it out');
  });
});

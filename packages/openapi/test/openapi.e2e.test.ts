import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi, type FromOpenApiOptions } from '@toolwright/openapi';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { closeLocal, listenLocal } from './fixtures/listenLocal';

/**
 * fromOpenApi against a real HTTP API on 127.0.0.1 (node:http), described by the OpenAPI
 * document below, called through the real SDK v2 client in memory in both eras.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
/** Requests whose connection closed before the API answered them. */
const abandoned: string[] = [];
let server: Server;
let baseUrl: string;

const document = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'http://evil.example' }],
  paths: {
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getPet',
        summary: 'Get a pet',
        parameters: [
          { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'Authorization', in: 'header', schema: { type: 'string' } },
          { name: 'api_key', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
    '/pets': {
      post: {
        operationId: 'createPet',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
    '/huge': { get: { operationId: 'huge', responses: { '200': { description: 'ok' } } } },
    '/slow': { get: { operationId: 'slow', responses: { '200': { description: 'ok' } } } },
    '/teapot': { get: { operationId: 'teapot', responses: { '418': { description: 'no' } } } },
    '/proto/{id}': {
      get: { operationId: 'constructor', parameters: [{ $ref: '#/components/parameters/Id' }], responses: { '200': { description: 'ok' } } },
      delete: { operationId: '__proto__', parameters: [{ $ref: '#/components/parameters/Id' }], responses: { '204': { description: 'gone' } } },
      put: { operationId: 'toString', parameters: [{ $ref: '#/components/parameters/Id' }], responses: { '200': { description: 'ok' } } },
    },
    '/upload': {
      post: { operationId: 'upload', requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string' } } } }, responses: { '200': { description: 'ok' } } },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } } },
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', example: 'Rex' },
          tag: { type: 'string', nullable: true },
          weight: { type: 'number', minimum: 0, exclusiveMinimum: true },
          children: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
        },
      },
    },
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (path === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        // Streamed without a content-length, so the limit is enforced while reading.
        const piece = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 200 && res.write(piece)) sent++;
          if (sent >= 200) res.end();
          else res.once('drain', pump);
        };
        res.on('error', () => undefined);
        pump();
      } else if (path === '/slow') {
        res.on('close', () => {
          if (!res.writableEnded) abandoned.push(req.url ?? '');
        });
        setTimeout(() => res.writeHead(200).end('late'), 60_000).unref();
      } else if (path === '/teapot') {
        res.writeHead(418, { 'content-type': 'text/plain' }).end(`short and stout ${'y'.repeat(5000)}`);
      } else if (req.method === 'POST' && path === '/pets') {
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ created: JSON.parse(Buffer.concat(chunks).toString()) }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url }));
      }
    });
  });
  baseUrl = await listenLocal(server);
});

afterAll(() => closeLocal(server));

beforeEach(() => {
  seen.length = 0;
});

async function appFor(options: Partial<FromOpenApiOptions> = {}): Promise<App> {
  // This API echoes the request rather than answer with the Pet its description promises: no output schemas (openapi-sources tests them).
  const tools = await fromOpenApi(document, {
    baseUrl,
    auth: { type: 'apiKey', in: 'query', name: 'api_key', value: 'server-secret' },
    timeoutMs: 10_000,
    maxResponseBytes: 256 * 1024,
    outputSchemas: false,
    ...options,
  });
  return await createApp({ name: 'pets', version: '1', tools: [tools] });
}

/** Resolves once \`check\` holds, polling; fails after 5 s. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error('the condition never held');
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe.each(['legacy', 'modern'] as const)('fromOpenApi through the SDK v2 client (%s era)', (era) => {
  let app: App;
  beforeAll(async () => {
    app = await appFor();
  });

  it('lists one tool per supported operation, with schemas from the parameters and body', async () => {
    const client = await createTestClient(app, { era });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['__proto__', 'constructor', 'createPet', 'getPet', 'huge', 'slow', 'teapot', 'toString']);
    const getPet = tools.find((t) => t.name === 'getPet')!;
    // The credential's parameter and the Authorization header are the server's, never an argument.
    expect(Object.keys(getPet.inputSchema.properties ?? {}).sort()).toEqual(['X-Trace', 'fields', 'petId']);
    expect(getPet.inputSchema.required).toEqual(['petId']);
    expect(getPet.annotations).toMatchObject({ readOnlyHint: true });
    const createPet = tools.find((t) => t.name === 'createPet')!;
    expect(createPet.inputSchema).toMatchObject({
      required: ['body'],
      properties: { body: { $ref: '#/$defs/Pet' } },
      $defs: { Pet: { properties: { tag: { type: ['string', 'null'] }, weight: { exclusiveMinimum: 0 }, children: { items: { $ref: '#/$defs/Pet' } } } } },
    });
    await client.close();
  });

  it('calls GET with path, query and header arguments, adding the server-side API key', async () => {
    const client = await createTestClient(app, { era });
    const result = await client.callTool({ name: 'getPet', arguments: { petId: 'p1', fields: ['a', 'b'], 'X-Trace': 't-1' } });
    expect(result.isError).toBeFalsy();
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/pets/p1?fields=a&fields=b&api_key=server-secret' });
    expect(seen[0]!.headers['x-trace']).toBe('t-1');
    expect(result.structuredContent).toEqual({ method: 'GET', url: '/pets/p1?fields=a&fields=b&api_key=server-secret' });
    await client.close();
  });

  it('POSTs the JSON body and refuses a body that breaks the (recursive) schema', async () => {
    const client = await createTestClient(app, { era });
    const pet = { name: 'Rex', tag: null, children: [{ name: 'Pup' }] };
    const ok = await client.callTool({ name: 'createPet', arguments: { body: pet } });
    expect(ok.isError).toBeFalsy();
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/pets?api_key=server-secret', body: JSON.stringify(pet) });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    const bad = await client.callTool({ name: 'createPet', arguments: { body: { name: 'Rex', children: [{ tag: 'no name' }] } } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/name/);
    expect(seen).toHaveLength(1);
    await client.close();
  });

  it('refuses header values that would split the request, and arguments for the server credential', async () => {
    const client = await createTestClient(app, { era });
    const split = await client.callTool({ name: 'getPet', arguments: { petId: 'p', 'X-Trace': 'a\r\nX-Evil: 1' } });
    expect(split.isError).toBe(true);
    expect(textOf(split)).toBe("Invalid arguments: 'X-Trace' holds a line break or NUL, which an HTTP header of GET /pets/{petId} cannot carry. Give it on one line.");
    const nul = await client.callTool({ name: 'getPet', arguments: { petId: 'p', 'X-Trace': 'a\0b' } });
    expect(textOf(nul)).toMatch(/^Invalid arguments: 'X-Trace' holds a line break or NUL/);
    const key = await client.callTool({ name: 'getPet', arguments: { petId: 'p', api_key: 'client-key' } });
    expect(key.isError).toBe(true);
    expect(seen).toHaveLength(0);
    await client.close();
  });

  it('encodes path arguments so they cannot leave their segment', async () => {
    const client = await createTestClient(app, { era });
    await client.callTool({ name: 'getPet', arguments: { petId: '../admin?x=1#frag' } });
    expect(seen[0]!.url).toBe('/pets/..%2Fadmin%3Fx%3D1%23frag?api_key=server-secret');
    for (const petId of ['..', '.', '']) {
      const refused = await client.callTool({ name: 'getPet', arguments: { petId } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("'petId'");
    }
    expect(seen).toHaveLength(1);
    await client.close();
  });

  it('serves operationIds that are Object.prototype names as plain tools', async () => {
    const client = await createTestClient(app, { era });
    for (const [name, method] of [
      ['constructor', 'GET'],
      ['__proto__', 'DELETE'],
      ['toString', 'PUT'],
    ] as const) {
      seen.length = 0;
      const result = await client.callTool({ name, arguments: { id: 7 } });
      expect(result.isError).toBeFalsy();
      expect(seen[0]).toMatchObject({ method, url: '/proto/7?api_key=server-secret' });
    }
    for (const name of ['valueOf', 'hasOwnProperty']) {
      const unknown = await client.callTool({ name, arguments: {} }).catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
      expect(unknown.isError).toBe(true);
    }
    await client.close();
  });

  it('shows an HTTP error as an isError result with the status and a bounded excerpt of the body', async () => {
    const client = await createTestClient(app, { era });
    const result = await client.callTool({ name: 'teapot', arguments: {} });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^GET \/teapot failed: HTTP 418/);
    expect(text).toContain('short and stout');
    expect(text.length).toBeLessThan(2300);
    expect(text).not.toContain('server-secret');
    await client.close();
  });

  it('cuts off a response larger than maxResponseBytes', async () => {
    const client = await createTestClient(app, { era });
    const result = await client.callTool({ name: 'huge', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('more than 262144 bytes');
    await client.close();
  });

  it('ends a call to a slow API at the timeout', async () => {
    // Its own app with a short timeout; the other calls get a long one, so a loaded machine cannot fail them.
    const short = await createTestClient(await appFor({ timeoutMs: 300 }), { era });
    const result = await short.callTool({ name: 'slow', arguments: {} });
    await short.close();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('did not answer within 300 ms');
  });
});

describe('fromOpenApi options', () => {
  it('lists the operations it skipped, with the reason', async () => {
    const tools = await fromOpenApi(document, { baseUrl });
    expect(tools.skipped).toEqual([expect.objectContaining({ method: 'post', path: '/upload', reason: expect.stringContaining('application/octet-stream') })]);
  });

  it('filters routes and renames tools by operationId', async () => {
    const tools = await fromOpenApi(document, {
      baseUrl,
      include: (r) => r.path.startsWith('/pets'),
      names: { getPet: 'pet_get', 'post /pets': 'pet_create', createPet: 'ignored', hasOwnProperty: 'x' },
    });
    expect(tools.operations.map((o) => o.toolName).sort()).toEqual(['pet_create', 'pet_get']);
  });

  it('refuses an invalid or duplicate tool name with a ConfigError naming the operations', async () => {
    await expect(fromOpenApi(document, { baseUrl, names: { getPet: 'bad name!' } })).rejects.toThrow(/"bad name!" given in `names` for GET \/pets\/\{petId\} is invalid/);
    await expect(fromOpenApi(document, { baseUrl, names: { getPet: 'slow' } })).rejects.toThrow(/GET \/pets\/\{petId\} and GET \/slow would both be the tool "slow"/);
  });

  it('keeps parameters and schema properties named after Object.prototype members as plain arguments', async () => {
    const hostile = {
      openapi: '3.1.0',
      info: { title: 'h', version: '1' },
      paths: {
        '/echo': {
          post: {
            operationId: 'echo',
            parameters: ['__proto__', 'constructor', 'toString'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
            requestBody: { content: { 'application/json': { schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}},"additionalProperties":false}') } } },
          },
        },
      },
    };
    const app = await createApp({ name: 'h', version: '1', tools: [await fromOpenApi(hostile, { baseUrl })] });
    // What the server serves (the SDK client's result parsing drops a `__proto__` key on its side).
    const served = app.registry.tools[0]!.descriptor.inputSchema as { properties: Record<string, { properties?: object }> };
    expect(Object.keys(served.properties.body!.properties!)).toEqual(['__proto__']);
    const client = await createTestClient(app, { era: 'modern' });
    expect(Object.keys(served.properties).sort()).toEqual(['__proto__', 'body', 'constructor', 'toString']);
    const args = JSON.parse('{"__proto__":"p","constructor":"c","toString":"t","body":{"__proto__":3}}') as Record<string, unknown>;
    const ok = await client.callTool({ name: 'echo', arguments: args });
    expect(ok.isError).toBeFalsy();
    // A top-level `__proto__` argument does not reach the tool through the SDK's request parsing; the others do.
    expect(seen.at(-1)).toMatchObject({ url: '/echo?constructor=c&toString=t', body: '{"__proto__":3}' });
    const bad = await client.callTool({ name: 'echo', arguments: JSON.parse('{"body":{"__proto__":"not an integer"}}') as Record<string, unknown> });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it("answers with isError, and sends nothing, when the server's credential function fails", async () => {
    const failing = async (): Promise<string> => {
      throw new Error('vault down: secret-detail');
    };
    const app = await createApp({ name: 'f', version: '1', tools: [await fromOpenApi(document, { baseUrl, auth: { type: 'bearer', token: failing } })] });
    const client = await createTestClient(app, { era: 'modern' });
    const result = await client.callTool({ name: 'getPet', arguments: { petId: 'p' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('could not get its credential');
    expect(textOf(result)).not.toContain('secret-detail');
    expect(seen).toHaveLength(0);
    await client.close();
  });

  it.each(['legacy', 'modern'] as const)('aborts the request when the %s client cancels the call', async (era) => {
    const app = await appFor({ timeoutMs: 60_000 });
    const client = await createTestClient(app, { era });
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal }).catch((error: Error) => error);
    await until(() => seen.some((s) => s.url.startsWith('/slow')));
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    await until(() => abandoned.some((url) => url.startsWith('/slow')));
    await client.close();
  });

  it('sends a bearer token from the server, which the client cannot override', async () => {
    const app = await createApp({ name: 'b', version: '1', tools: [await fromOpenApi(document, { baseUrl, outputSchemas: false, auth: { type: 'bearer', token: async () => 'tok-1' } })] });
    const client = await createTestClient(app, { era: 'modern' });
    const result = await client.callTool({ name: 'getPet', arguments: { petId: 'p', Authorization: 'Bearer client' } });
    expect(result.isError).toBe(true);
    const ok = await client.callTool({ name: 'getPet', arguments: { petId: 'p' } });
    expect(ok.isError).toBeFalsy();
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer tok-1');
    await client.close();
  });

  it("never takes the base URL from the description's servers unless allowed", async () => {
    await expect(fromOpenApi(document, {})).rejects.toThrow(/needs the API's base URL/);
    const allowed = await fromOpenApi({ ...document, servers: [{ url: baseUrl }] }, { useDocumentServers: true });
    expect(allowed.operations.length).toBeGreaterThan(0);
  });

  it('refuses a Swagger 2.0 document and an unresolvable $ref with a ConfigError', async () => {
    await expect(fromOpenApi({ swagger: '2.0', paths: {} }, { baseUrl })).rejects.toThrow(/OpenAPI 3.0 and 3.1/);
    await expect(fromOpenApi({ openapi: '3.1.0', paths: { '/a': { get: { parameters: [{ $ref: '#/nope' }] } } } }, { baseUrl })).rejects.toThrow(/cannot be read|points at nothing/);
  });

  it('reads a YAML description and resolves external $refs in other files, recursive ones included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwright-openapi-'));
    try {
      writeFileSync(join(dir, 'schemas.json'), JSON.stringify({ Node: { type: 'object', properties: { label: { type: 'string' }, next: { $ref: '#/Node' } } } }));
      // A YAML description, as most are written.
      writeFileSync(
        join(dir, 'api.yaml'),
        [
          'openapi: 3.1.0',
          'info: { title: t, version: "1" }',
          'paths:',
          '  /nodes:',
          '    post:',
          '      operationId: addNode',
          '      requestBody:',
          '        required: true',
          '        content:',
          '          application/json:',
          "            schema: { $ref: './schemas.json#/Node' }",
          '',
        ].join('\n'),
      );
      const app = await createApp({ name: 'ext', version: '1', tools: [await fromOpenApi(join(dir, 'api.yaml'), { baseUrl })] });
      const client = await createTestClient(app, { era: 'modern' });
      const [tool] = (await client.listTools()).tools;
      type Node = { properties: { next: { $ref: string } } };
      const schema = tool!.inputSchema as unknown as { properties: { body: Node }; $defs: Record<string, Node> };
      // The bundler inlines the external schema once; its recursion ends at one $defs entry.
      const ref = schema.properties.body.properties.next.$ref;
      expect(ref).toMatch(/^#\/\$defs\//);
      expect(schema.$defs[ref.slice('#/$defs/'.length)]!.properties.next.$ref).toBe(ref);
      const bad = await client.callTool({ name: 'addNode', arguments: { body: { label: 'a', next: { label: 5 } } } });
      expect(bad.isError).toBe(true);
      const ok = await client.callTool({ name: 'addNode', arguments: { body: { label: 'a', next: { label: 'b' } } } });
      expect(ok.isError).toBeFalsy();
      expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/nodes', body: JSON.stringify({ label: 'a', next: { label: 'b' } }) });
      await client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

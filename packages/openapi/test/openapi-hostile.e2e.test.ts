import { ConfigError } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi, type FromOpenApiOptions } from '@toolwright/openapi';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { closeLocal, listenLocal } from './fixtures/listenLocal';

/**
 * fromOpenApi against hostile or careless input from its three sides: the description (maybe a
 * third party's), the tool arguments (from the MCP client), and the API's answers. Real HTTP
 * servers on 127.0.0.1 (node:http) and the real SDK v2 client in memory.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}
const seen: Seen[] = [];
/** Requests the other host got (it must get none with credentials). */
const otherSeen: Seen[] = [];
let api: Server;
let other: Server;
let apiOrigin: string;
let otherOrigin: string;
let dir: string;
/** Whether the served description refers to a schema on the other host. */
let refersToOther = false;

const description = (paths: object, components: object = {}) => ({ openapi: '3.1.0', info: { title: 'h', version: '1' }, paths, components });
const body = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolwright-openapi-hostile-'));
  other = createServer((req, res) => {
    otherSeen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'string', description: 'from the other host' }));
  });
  otherOrigin = await listenLocal(other);
  api = createServer((req, res) => {
    const url = req.url ?? '';
    seen.push({ method: req.method ?? '', url, headers: req.headers });
    if (url === '/specs/api.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify(
          description({
            '/a': { get: { operationId: 'a', parameters: [{ name: 'q', in: 'query', schema: { $ref: './schemas.json#/Q' } }] } },
            ...(refersToOther ? { '/b': { get: { operationId: 'b', parameters: [{ name: 'r', in: 'query', schema: { $ref: `${otherOrigin}/schema.json` } }] } } } : {}),
          }),
        ),
      );
    } else if (url === '/specs/schemas.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Q: { type: 'string', maxLength: 5 } }));
    } else if (url === '/specs/redirecting.json') {
      res.writeHead(302, { location: `${otherOrigin}/schema.json` }).end();
    } else if (url.startsWith('/v1/slowbody')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    } else if (url.startsWith('/v1/moved')) {
      res.writeHead(302, { location: `${otherOrigin}/stolen` }).end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url }));
    }
  });
  apiOrigin = await listenLocal(api);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const server of [api, other]) {
    await closeLocal(server);
  }
});

beforeEach(() => {
  seen.length = 0;
  otherSeen.length = 0;
});

describe('a hostile or careless description', () => {
  it('reads no file outside the description, and no file at all for a description given as an object', async () => {
    mkdirSync(join(dir, 'secret'), { recursive: true });
    writeFileSync(join(dir, 'secret', 'creds.txt'), 'AWS_SECRET=hunter2');
    mkdirSync(join(dir, 'spec'), { recursive: true });
    // An `example` that is a $ref: once resolved, it would be served in tools/list to every client.
    const leaky = description({ '/d': { get: { operationId: 'd', parameters: [{ name: 'q', in: 'query', schema: { type: 'string', example: { $ref: '../secret/creds.txt' } } }] } } });
    writeFileSync(join(dir, 'spec', 'api.json'), JSON.stringify(leaky));
    const fromFile = fromOpenApi(join(dir, 'spec', 'api.json'), { baseUrl: apiOrigin });
    await expect(fromFile).rejects.toThrow(ConfigError);
    await expect(fromFile).rejects.toThrow(/refers to .*secret\/creds\.txt, which is outside the description's own folder, so it is not read\. .*allowExternalRef/);
    await expect(fromFile).rejects.not.toThrow(/hunter2/);
    const absolute = description({ '/d': { get: { operationId: 'd', parameters: [{ name: 'q', in: 'query', schema: { $ref: join(dir, 'secret', 'creds.txt') } }] } } });
    await expect(fromOpenApi(absolute, { baseUrl: apiOrigin })).rejects.toThrow(/outside itself; a description given as an object reads no files or URLs/);
    // The user may allow it.
    writeFileSync(join(dir, 'secret', 'q.json'), JSON.stringify({ type: 'string', maxLength: 3 }));
    const allowed = description({ '/d': { get: { operationId: 'd', parameters: [{ name: 'q', in: 'query', schema: { $ref: join(dir, 'secret', 'q.json') } }] } } });
    const tools = await fromOpenApi(allowed, { baseUrl: apiOrigin, allowExternalRef: (url) => url === join(dir, 'secret', 'q.json') });
    expect(tools.operations[0]!.inputSchema.properties).toMatchObject({ q: { type: 'string', maxLength: 3 } });
  });

  it("reads $refs on the description URL's origin only, and checks where a download redirects", async () => {
    const tools = await fromOpenApi(`${apiOrigin}/specs/api.json`, { baseUrl: apiOrigin });
    expect(tools.operations.map((o) => o.toolName)).toEqual(['a']);
    refersToOther = true;
    try {
      await expect(fromOpenApi(`${apiOrigin}/specs/api.json`, { baseUrl: apiOrigin })).rejects.toThrow(
        /refers to http:\/\/127\.0\.0\.1:\d+\/schema\.json, which is outside the description's own origin/,
      );
      expect(otherSeen).toHaveLength(0);
    } finally {
      refersToOther = false;
    }
    const redirecting = description({ '/d': { get: { operationId: 'd', parameters: [{ name: 'q', in: 'query', schema: { $ref: `${apiOrigin}/specs/redirecting.json` } }] } } });
    await expect(fromOpenApi(redirecting, { baseUrl: apiOrigin, allowExternalRef: (url) => url.startsWith(apiOrigin) })).rejects.toThrow(/refers to http:\/\/127\.0\.0\.1:\d+\/schema\.json/);
    expect(otherSeen).toHaveLength(0);
  });

  it('refuses schemas nested past the limit, or expanding exponentially, with a ConfigError naming the operation instead of overflowing or hanging', async () => {
    let deep: object = { type: 'string' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } };
    await expect(fromOpenApi(description({ '/d': { post: { operationId: 'd', requestBody: body(deep) } } }), { baseUrl: apiOrigin })).rejects.toThrow(
      /schemas of POST \/d nest more than 200 levels deep .*leave the operation out with `include`/,
    );
    // Shared objects (what YAML aliases make): 2^40 schema objects once expanded.
    let shared: object = { type: 'string' };
    for (let i = 0; i < 40; i++) shared = { type: 'object', properties: { a: shared, b: shared } };
    // The CPU time of this process, where fromOpenApi runs: it stops counting at the limit, long before 2^40.
    const started = process.cpuUsage();
    await expect(fromOpenApi(description({ '/d': { post: { operationId: 'd', requestBody: body(shared) } } }), { baseUrl: apiOrigin })).rejects.toThrow(
      /schemas of POST \/d hold more than 100000 schema objects/,
    );
    expect(cpuMsSince(started)).toBeLessThan(5000);
  });

  it('refuses $ref loops that never reach a schema, and allOf loops the validator would recurse on forever', async () => {
    const refLoop = description(
      { '/d': { post: { operationId: 'd', requestBody: body({ $ref: '#/components/schemas/A' }) } } },
      { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } },
    );
    await expect(fromOpenApi(refLoop, { baseUrl: apiOrigin })).rejects.toThrow(/is a loop of references .* that never reaches a schema/);
    const allOfLoop = description(
      { '/d': { post: { operationId: 'd', requestBody: body({ $ref: '#/components/schemas/A' }) } } },
      { schemas: { A: { allOf: [{ $ref: '#/components/schemas/B' }] }, B: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/A' }] } } },
    );
    await expect(fromOpenApi(allOfLoop, { baseUrl: apiOrigin })).rejects.toThrow(/schemas of POST \/d refer to themselves without nesting \((A → B → A|B → A → B)/);
    // Recursion through a property is a tree, and fine.
    const tree = description(
      { '/d': { post: { operationId: 'd', requestBody: body({ $ref: '#/components/schemas/T' }) } } },
      { schemas: { T: { allOf: [{ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/T' } } } }] } } },
    );
    expect((await fromOpenApi(tree, { baseUrl: apiOrigin })).operations).toHaveLength(1);
  });

  it('names the operation whose schema cannot be enforced (a pattern that is not ECMAScript)', async () => {
    const doc = description({ '/d': { get: { operationId: 'd', parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '(?i)abc' } }] } } });
    await expect(fromOpenApi(doc, { baseUrl: apiOrigin })).rejects.toThrow(/the input schema of GET \/d cannot be enforced: .*"\(\?i\)abc".*leave the operation out with `include`/);
  });

  it.each([
    ['@evil.example/x', 'does not start with /'],
    [':8080/x', 'does not start with /'],
    ['/../admin', "has a '.' or '..' segment"],
    ['/a/%2e%2E/%2e%2e/admin', "has a '.' or '..' segment"],
    ['/\\..\\..\\admin', 'holds ?, #, a backslash'],
    ['/x?admin=1', 'holds ?, #, a backslash'],
  ])('refuses the path %s, which could take requests away from baseUrl', async (path, problem) => {
    // An origin-only base: '@evil.example/x' appended to it would be another host.
    await expect(fromOpenApi(description({ [path]: { get: { operationId: 'd' } } }), { baseUrl: apiOrigin })).rejects.toThrow(`the path of GET ${path} ${problem}`);
    await expect(fromOpenApi(description({ [path]: { get: { operationId: 'd' } } }), { baseUrl: apiOrigin, include: (r) => r.path === '/other' })).resolves.toBeDefined();
  });

  it('refuses a path variable without its parameter, and a header parameter whose name no request can carry', async () => {
    await expect(fromOpenApi(description({ '/pets/{petId}': { get: { operationId: 'd' } } }), { baseUrl: apiOrigin })).rejects.toThrow(
      /the path of GET \/pets\/\{petId\} has \{petId\}, but the operation has no path parameter named 'petId'/,
    );
    const badHeader = description({ '/d': { get: { operationId: 'd', parameters: [{ name: 'X Bad: 1', in: 'header', schema: { type: 'string' } }] } } });
    await expect(fromOpenApi(badHeader, { baseUrl: apiOrigin })).rejects.toThrow(/the header parameter "X Bad: 1" of GET \/d is not a valid HTTP header name/);
  });

  it('strips control characters from titles and descriptions', async () => {
    const doc = description({
      '/d': {
        get: {
          operationId: 'd',
          summary: 'a\u001b[2Jb\u0007',
          description: 'x\u0000y\nz',
          parameters: [{ name: 'q', in: 'query', description: 'q\u009bz', schema: { type: 'string', title: 't\u0008' } }],
        },
      },
    });
    const app = await createApp({ name: 'h', version: '1', tools: [await fromOpenApi(doc, { baseUrl: apiOrigin })] });
    const client = await createTestClient(app, { era: 'modern' });
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({ title: 'a[2Jb', description: 'xy\nz', inputSchema: { properties: { q: { description: 'qz', title: 't' } } } });
    await client.close();
  });
});

describe('hostile arguments', () => {
  const doc = description({
    '/p/{id}': {
      get: {
        operationId: 'p',
        parameters: [
          { name: 'id', in: 'path', required: true },
          { name: 'q', in: 'query' },
          { name: 'X-H', in: 'header', schema: { type: 'string' } },
          { name: 'c', in: 'cookie', schema: { type: 'string' } },
          { name: 'filter', in: 'query', schema: { type: 'object' } },
        ],
      },
    },
    '/styles/{simple}/{label}/{matrix}': {
      get: {
        operationId: 'styles',
        parameters: [
          { name: 'simple', in: 'path', required: true, schema: { type: 'object' }, explode: true },
          { name: 'label', in: 'path', required: true, style: 'label', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'matrix', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'array', items: { type: 'string' } } },
          { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'pipes', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } },
          { name: 'deep', in: 'query', style: 'deepObject', schema: { type: 'object' } },
          { name: 'X-List', in: 'header', schema: { type: 'array', items: { type: 'string' } } },
        ],
      },
    },
  });
  const options: FromOpenApiOptions = { baseUrl: '', auth: { type: 'apiKey', in: 'query', name: 'api_key', value: 'server-secret' } };

  it('refuses lone surrogates, and header values a header cannot carry, with an isError naming the argument; sends nothing', async () => {
    const app = await createApp({ name: 'h', version: '1', tools: [await fromOpenApi(doc, { ...options, baseUrl: `${apiOrigin}/v1` })] });
    const client = await createTestClient(app, { era: 'modern' });
    for (const [args, message] of [
      [{ id: '\uD800' }, "Invalid arguments: 'id' holds a lone UTF-16 surrogate"],
      [{ id: 'x', c: 'a\uDC00' }, "Invalid arguments: 'c' holds a lone UTF-16 surrogate"],
      [{ id: 'x', 'X-H': '日本' }, "Invalid arguments: 'X-H' holds characters outside Latin-1"],
      [{ id: 'x', 'X-H': 'a\u0001b' }, "Invalid arguments: 'X-H' holds a control character"],
      [{ id: 'x', filter: { api_key: 'client-key' } }, "Invalid arguments: an argument of GET /p/{id} would set the query parameter 'api_key'"],
    ] as const) {
      const result = await client.callTool({ name: 'p', arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(message);
    }
    expect(seen).toHaveLength(0);
    await client.close();
  });

  it("sends a query array of 600,000 items (too many to spread onto the call stack) and answers with the API's refusal, not an internal error", async () => {
    const app = await createApp({ name: 'h', version: '1', tools: [await fromOpenApi(doc, { ...options, baseUrl: `${apiOrigin}/v1` })] });
    const client = await createTestClient(app, { era: 'modern' });
    const result = await client.callTool({ name: 'p', arguments: { id: 'x', q: new Array<number>(600_000).fill(0) } });
    expect(result.isError).toBe(true);
    // node:http refuses a request line past its 16 KiB header limit before the handler sees it, and
    // closes the connection: on a busy machine fetch may still be writing the URL then, and reads a
    // reset instead of the 431. Either way the API refused it, and the tool says so.
    expect(textOf(result)).toMatch(/^GET \/p\/\{id\} (failed: HTTP 431 Request Header Fields Too Large$|could not be sent: (ECONNRESET|EPIPE|UND_ERR_SOCKET)\. Check that the API is reachable\.$)/);
    expect(textOf(await client.callTool({ name: 'p', arguments: { id: 'x', q: [1, 2] } }))).toContain('/v1/p/x?q=1&q=2&api_key=server-secret');
    await client.close();
  });

  it('keeps every value inside the base path, and writes each in its style', async () => {
    const app = await createApp({ name: 'h', version: '1', tools: [await fromOpenApi(doc, { ...options, baseUrl: `${apiOrigin}/v1` })] });
    const client = await createTestClient(app, { era: 'modern' });
    await client.callTool({ name: 'p', arguments: { id: '../../x?y=1#z\r\n%2F', q: 'a&b=c d+e' } });
    expect(seen.at(-1)!.url).toBe('/v1/p/..%2F..%2Fx%3Fy%3D1%23z%0D%0A%252F?q=a%26b%3Dc%20d%2Be&api_key=server-secret');
    // An object where a string is expected (no schema): the simple style, not '[object Object]'.
    await client.callTool({ name: 'p', arguments: { id: { a: 'b/c' }, filter: { role: 'admin', 'x&y': '1=2' } } });
    expect(seen.at(-1)!.url).toBe('/v1/p/a,b%2Fc?role=admin&x%26y=1%3D2&api_key=server-secret');
    const styled = await client.callTool({
      name: 'styles',
      arguments: { simple: { role: 'admin', name: 'A,B' }, label: ['x', 'y'], matrix: ['m', 'n'], ids: [3, 4], pipes: ['a', 'b|c'], deep: { color: 'red' }, 'X-List': ['a', 'b'] },
    });
    expect(styled.isError).toBeFalsy();
    expect(seen.at(-1)!.url).toBe('/v1/styles/role=admin,name=A%2CB/.x,y/;matrix=m;matrix=n?ids=3,4&pipes=a|b%7Cc&deep[color]=red&api_key=server-secret');
    expect(seen.at(-1)!.headers['x-list']).toBe('a,b');
    await client.close();
  });
});

describe("the API's answers", () => {
  const doc = description({ '/slowbody': { get: { operationId: 'slowbody' } }, '/moved': { get: { operationId: 'moved' } } });

  it('ends a body that stalls at the timeout, and never follows a redirect to another host with the credential', async () => {
    const app = await createApp({ name: 'h', version: '1', tools: [await fromOpenApi(doc, { baseUrl: `${apiOrigin}/v1`, timeoutMs: 400, auth: { type: 'bearer', token: 'server-token' } })] });
    const client = await createTestClient(app, { era: 'modern' });
    const slow = await client.callTool({ name: 'slowbody', arguments: {} });
    expect(textOf(slow)).toBe('GET /slowbody did not answer within 400 ms. Try again later, or raise timeoutMs.');
    const moved = await client.callTool({ name: 'moved', arguments: {} });
    expect(moved.isError).toBe(true);
    expect(textOf(moved)).toMatch(/^GET \/moved failed: HTTP 302 Found \(redirect to http:\/\/127\.0\.0\.1:\d+\/stolen, not followed\)/);
    expect(textOf(moved)).not.toContain('server-token');
    expect(otherSeen).toHaveLength(0);
    await client.close();
  });
});

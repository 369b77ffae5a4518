import 'reflect-metadata';
import { BuildError, ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi, type FromOpenApiOptions } from '@toolwright/openapi';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { closeLocal, listenLocal } from './fixtures/listenLocal';

/**
 * fromOpenApi, the rest of issue 28: output schemas from responses, cookie parameters, form and
 * multipart bodies, OAuth client credentials fetched from a real token endpoint, GETs served as
 * resources by route maps, and transforms. A real API and token endpoint on 127.0.0.1
 * (node:http), the real SDK v2 client in memory, both eras.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}
const seen: Seen[] = [];
const tokenRequests: { authorization?: string; body: string }[] = [];
let tokenLifetime = 3600;
let tokenCount = 0;
/** Tokens the API refuses from now on (revoked). */
const revoked = new Set<string>();
let server: Server;
let baseUrl: string;

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string', nullable: true } } };
const document = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', tags: ['pets'], responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: pet } } } } } },
      post: {
        operationId: 'createPet',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } } },
          },
        },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        tags: ['pets'],
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
      delete: { operationId: 'deletePet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '204': { description: 'gone' } } },
    },
    '/pets/{petId}/photo': {
      post: {
        operationId: 'uploadPhoto',
        parameters: [
          { name: 'petId', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'session', in: 'cookie', required: true, schema: { type: 'string' } },
          { name: 'theme', in: 'cookie', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: { 'multipart/form-data': { schema: { type: 'object', properties: { caption: { type: 'string' }, file: { type: 'string', format: 'binary' } } } } },
        },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { size: { type: 'integer' } } } } } } },
      },
    },
    '/broken': { get: { operationId: 'broken', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } },
    '/search': {
      get: {
        operationId: 'search',
        parameters: [
          { name: 'owner', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'kind', in: 'query', schema: { type: 'string', enum: ['cat', 'dog', 'bird'] } },
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/admin/reset': { post: { operationId: 'reset', tags: ['admin'], responses: { '204': { description: 'done' } } } },
  },
  components: { schemas: { Pet: pet } },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '').split('?')[0];
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (path === '/token') {
        tokenRequests.push({ authorization: req.headers.authorization, body: body.toString() });
        if (req.headers.authorization !== `Basic ${Buffer.from('svc:s3cret').toString('base64')}`) return json(401, { error: 'invalid_client' });
        return json(200, { access_token: `token-${++tokenCount}`, token_type: 'Bearer', expires_in: tokenLifetime });
      }
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const bearer = req.headers.authorization?.replace(/^Bearer /, '');
      if (bearer !== undefined && revoked.has(bearer)) return json(401, { message: 'token revoked' });
      if (path === '/pets' && req.method === 'GET') return json(200, [{ id: 1, name: 'Rex' }]);
      if (path === '/pets' && req.method === 'POST') return json(201, { id: 7, name: new URLSearchParams(body.toString()).get('name'), tag: null });
      if (path === '/pets/404') return json(404, { message: 'no such pet' });
      if (path.startsWith('/pets/') && path.endsWith('/photo')) return json(200, { size: body.length });
      if (path.startsWith('/pets/')) return json(200, { id: Number(path.split('/')[2]), name: 'Rex' });
      if (path === '/broken') return json(200, { id: 'not a number' });
      return json(200, { url: req.url });
    });
  });
  baseUrl = await listenLocal(server);
});

afterAll(() => closeLocal(server));

beforeEach(() => {
  seen.length = 0;
  tokenRequests.length = 0;
});

const oauth = (): FromOpenApiOptions['auth'] => ({
  type: 'oauth2',
  tokenUrl: `${baseUrl}/token`,
  clientId: 'svc',
  clientSecret: 's3cret',
  scopes: ['pets:read', 'pets:write'],
  params: { audience: 'pets-api' },
});

async function appFor(options: Partial<FromOpenApiOptions> = {}): Promise<App> {
  const tools = await fromOpenApi(document, { baseUrl, timeoutMs: 10_000, ...options });
  return createApp({ name: 'pets', version: '1', tools: [tools] });
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  it('gives tools the success response object schema as outputSchema, and checks responses against it', async () => {
    const client = await createTestClient(await appFor(), { era });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('getPet')!.outputSchema).toMatchObject({ type: 'object', $ref: '#/$defs/Pet', $defs: { Pet: { required: ['id', 'name'] } } });
    // An array response, or no JSON content: no output schema.
    expect(byName.get('listPets')!.outputSchema).toBeUndefined();
    expect(byName.get('deletePet')!.outputSchema).toBeUndefined();
    const got = await client.callTool({ name: 'getPet', arguments: { petId: 3 } });
    expect(got.isError).toBeFalsy();
    expect(got.structuredContent).toEqual({ id: 3, name: 'Rex' });
    const broken = await client.callTool({ name: 'broken', arguments: {} });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toBe(
      'GET /broken answered with JSON that does not match its described response:\n- name: is required\n- id: must be an integer (got string "not a number")\nThe API strays from its description; the server can turn output schemas off (outputSchemas: false).',
    );
    await client.close();
    const off = await createTestClient(await appFor({ outputSchemas: false }), { era });
    expect((await off.listTools()).tools.every((t) => t.outputSchema === undefined)).toBe(true);
    expect((await off.callTool({ name: 'broken', arguments: {} })).isError).toBeFalsy();
    await off.close();
  });

  it('sends cookie parameters, a form-urlencoded body and a multipart body with a file given as base64', async () => {
    const client = await createTestClient(await appFor(), { era });
    const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    expect(tools.get('uploadPhoto')!.inputSchema).toMatchObject({
      required: ['petId', 'session', 'body'],
      properties: { session: { type: 'string' }, body: { properties: { file: { type: 'string', contentEncoding: 'base64' } } } },
    });
    const created = await client.callTool({ name: 'createPet', arguments: { body: { name: 'Tom & Jerry', tags: ['a', 'b'] } } });
    expect(created.structuredContent).toEqual({ id: 7, name: 'Tom & Jerry', tag: null });
    expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen[0]!.body.toString()).toBe('name=Tom+%26+Jerry&tags=a&tags=b');

    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    const uploaded = await client.callTool({ name: 'uploadPhoto', arguments: { petId: 5, session: 'abc;1', theme: 'dark', body: { caption: 'hi', file: bytes.toString('base64') } } });
    expect(uploaded.isError).toBeFalsy();
    const sent = seen[1]!;
    expect(sent.headers.cookie).toBe('session=abc%3B1; theme=dark');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(sent.body), { headers: { 'content-type': sent.headers['content-type']! } }).formData();
    expect(form.get('caption')).toBe('hi');
    expect(Buffer.from(await (form.get('file') as Blob).arrayBuffer())).toEqual(bytes);
    await client.close();
  });

  it('serves GETs as resources and templates at the API URL by route maps, and leaves excluded operations out', async () => {
    const app = await appFor({
      routes: [
        { methods: ['get'], path: /^\/pets/, to: 'resource' },
        { tags: ['admin'], to: 'exclude' },
      ],
    });
    const client = await createTestClient(app, { era });
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['broken', 'createPet', 'deletePet', 'search', 'uploadPhoto']);
    expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: `${baseUrl}/pets`, name: 'listPets', mimeType: 'application/json' })]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: `${baseUrl}/pets/{petId}`, name: 'getPet' })]);
    const list = await client.readResource({ uri: `${baseUrl}/pets` });
    expect(JSON.parse((list.contents[0] as { text: string }).text)).toEqual([{ id: 1, name: 'Rex' }]);
    const one = await client.readResource({ uri: `${baseUrl}/pets/9` });
    expect(one.contents[0]).toMatchObject({ uri: `${baseUrl}/pets/9`, mimeType: 'application/json' });
    expect(JSON.parse((one.contents[0] as { text: string }).text)).toEqual({ id: 9, name: 'Rex' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /pets', 'GET /pets/9']);
    await expect(client.readResource({ uri: `${baseUrl}/pets/404` })).rejects.toMatchObject({ message: expect.stringMatching(/not found|404/i) });
    await client.close();
  });

  it('applies transforms: a query parameter hidden with the caller subject, another narrowed, a new name', async () => {
    const app = await appFor({
      transforms: {
        search: {
          name: 'find_my_pets',
          description: 'Find your pets.',
          arguments: { owner: { compute: (ctx) => ctx.authInfo?.extra?.sub }, kind: { narrow: { enum: ['cat', 'dog'] } }, limit: { narrow: { maximum: 10 } } },
        },
      },
    });
    const client = await createTestClient(app, { era, auth: { claims: { sub: 'ann' } } });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'find_my_pets')!;
    expect(tool.description).toBe('Find your pets.');
    expect(Object.keys(tool.inputSchema.properties!)).toEqual(['kind', 'limit']);
    expect(tool.inputSchema.required).toBeUndefined();
    expect((await client.callTool({ name: 'find_my_pets', arguments: { kind: 'cat', limit: 5 } })).isError).toBeFalsy();
    expect(seen[0]!.url).toBe('/search?owner=ann&kind=cat&limit=5');
    const sneaky = await client.callTool({ name: 'find_my_pets', arguments: { owner: 'bob' } });
    expect(textOf(sneaky)).toBe("Invalid arguments for tool 'find_my_pets':\n- owner: is set by the server and may not be sent; leave it out");
    const bird = await client.callTool({ name: 'find_my_pets', arguments: { kind: 'bird', limit: 50 } });
    expect(bird.isError).toBe(true);
    expect(textOf(bird)).toMatch(/- kind: .*\n- limit: /);
    expect(seen).toHaveLength(1);
    await client.close();
  });
});

describe('OAuth client credentials', () => {
  it('fetches one token for concurrent calls, keeps it, sends it as the bearer token, and asks again when it expires', async () => {
    tokenLifetime = 3600;
    const client = await createTestClient(await appFor({ auth: oauth() }));
    const calls = await Promise.all([1, 2, 3].map((id) => client.callTool({ name: 'getPet', arguments: { petId: id } })));
    expect(calls.map((c) => c.isError ?? false)).toEqual([false, false, false]);
    expect(tokenRequests).toHaveLength(1);
    expect(new URLSearchParams(tokenRequests[0]!.body)).toEqual(new URLSearchParams({ grant_type: 'client_credentials', scope: 'pets:read pets:write', audience: 'pets-api' }));
    const first = seen[0]!.headers.authorization;
    expect(first).toMatch(/^Bearer token-\d+$/);
    expect(new Set(seen.map((s) => s.headers.authorization))).toEqual(new Set([first]));
    await client.callTool({ name: 'getPet', arguments: { petId: 4 } });
    expect(tokenRequests).toHaveLength(1);
    await client.close();

    // A token that lives 1 s is renewed half a second before it expires: after that, the next call asks again.
    tokenLifetime = 1;
    const short = await createTestClient(await appFor({ auth: oauth() }));
    await short.callTool({ name: 'getPet', arguments: { petId: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await short.callTool({ name: 'getPet', arguments: { petId: 1 } });
    expect(tokenRequests).toHaveLength(3);
    expect(seen.at(-1)!.headers.authorization).not.toBe(seen.at(-2)!.headers.authorization);
    await short.close();
    tokenLifetime = 3600;
  });

  it('gets a new token and retries once when the API refuses the kept one', async () => {
    const client = await createTestClient(await appFor({ auth: oauth() }));
    await client.callTool({ name: 'getPet', arguments: { petId: 1 } });
    revoked.add(seen[0]!.headers.authorization!.slice('Bearer '.length));
    const again = await client.callTool({ name: 'getPet', arguments: { petId: 2 } });
    expect(again.isError).toBeFalsy();
    expect(tokenRequests).toHaveLength(2);
    expect(seen.map((s) => s.headers.authorization)).toEqual([seen[0]!.headers.authorization, seen[0]!.headers.authorization, seen[2]!.headers.authorization]);
    await client.close();
  });

  it('answers with an isError result, sending nothing to the API, when the token endpoint refuses the client', async () => {
    const client = await createTestClient(await appFor({ auth: { ...(oauth() as object), clientSecret: 'wrong' } as FromOpenApiOptions['auth'] }));
    const result = await client.callTool({ name: 'getPet', arguments: { petId: 1 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("GET /pets/{petId} was not sent: the server could not get its credential for the API. This is the server's configuration (its `auth` option), not your arguments.");
    expect(textOf(result)).not.toMatch(/wrong|s3cret/);
    expect(seen).toHaveLength(0);
    await client.close();
  });

  it('refuses a token URL that would send the secret in clear text to another host', async () => {
    await expect(fromOpenApi(document, { baseUrl, auth: { type: 'oauth2', tokenUrl: 'http://auth.example/token', clientId: 'svc', clientSecret: 'x' } })).rejects.toThrow(ConfigError);
  });
});

describe('route map and transform checks', () => {
  it('refuses a resource rule that matches a method other than GET, and a transform for no operation', async () => {
    await expect(fromOpenApi(document, { baseUrl, routes: [{ path: '/pets', to: 'resource' }] })).rejects.toThrow(/routes\[0\] maps POST \/pets to a resource; only GET/);
    const error = await appFor({ transforms: { nope: { name: 'x' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems[0]!.what).toBe("@TransformTools names tool 'nope', which the class does not serve");
  });
});

import 'reflect-metadata';
import { compileSchemaValidator } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi, type FromOpenApiOptions } from '@toolwright/openapi';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnListening } from '../../server/test/fixtures/spawnListening';

/**
 * A Petstore OpenAPI 3.1 description (fixtures/petstore-3.1.yaml) served by Stoplight Prism's mock
 * server, built from the same file, in a child process on 127.0.0.1; fromOpenApi makes tools of
 * it, createApp serves them, and the real SDK v2 client calls them in memory in both eras.
 *
 * Prism checks every request against the description: a request Toolwright built wrongly (a path,
 * query or header parameter, a body) gets a 422 and an `sl-violations` header, so each call that
 * must succeed is also checked to have drawn no violation.
 *
 * Prism (about 200 packages) is no dependency: the test installs the pinned version with npm on
 * first use into a folder outside the workspace and reuses it; the suite is skipped, saying so,
 * only when the npm registry cannot be reached for that first install.
 */
const PRISM_VERSION = '5.16.0';
const DESCRIPTION = join(__dirname, 'fixtures', 'petstore-3.1.yaml');
const NETWORK = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network/i;

/** The Prism CLI's entry file, installed on first use; a reason instead when the registry is unreachable. */
function installPrism(): { bin: string } | { unavailable: string } {
  const dir = join(tmpdir(), `toolwright-prism-cli-${PRISM_VERSION}`);
  const bin = join(dir, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  if (existsSync(bin)) return { bin };
  const work = `${dir}.${process.pid}`;
  mkdirSync(work, { recursive: true });
  try {
    writeFileSync(join(work, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `@stoplight/prism-cli@${PRISM_VERSION}`], {
      cwd: work,
      encoding: 'utf8',
      timeout: 240_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return { bin };
  } catch (error) {
    const output = `${(error as { stderr?: string }).stderr ?? ''} ${(error as Error).message}`;
    if (NETWORK.test(output)) return { unavailable: `the npm registry is unreachable, so @stoplight/prism-cli@${PRISM_VERSION} cannot be installed (${output.trim().split('\n')[0]})` };
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const prism = installPrism();
if ('unavailable' in prism) process.stderr.write(`SKIPPED petstore-prism.e2e: ${prism.unavailable}\n`);
const describeWithPrism = 'bin' in prism ? describe : describe.skip;

/** Every request the tools sent, with Prism's verdict on it. */
interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  violations: string | null;
}
const sent: Sent[] = [];
/** The platform fetch, recording each request and Prism's `sl-violations` header. */
const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  sent.push({
    method: init?.method ?? 'GET',
    url: String(input),
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    body: typeof init?.body === 'string' ? init.body : undefined,
    status: response.status,
    violations: response.headers.get('sl-violations'),
  });
  return response;
};

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const UUID = '3f2c6b1e-8a4d-4c1b-9e2f-5d7a0b6c1e42';

describeWithPrism('a Petstore 3.1 description served by Prism, called through the generated tools', () => {
  let child: ChildProcess;
  let baseUrl: string;
  let app: App;
  /** The same description, with `Prefer: code=…` sent by the server so Prism answers an error. */
  const preferring = (code: number) => appFor({ headers: { Prefer: `code=${code}` } });
  async function appFor(options: Partial<FromOpenApiOptions> = {}): Promise<App> {
    const tools = await fromOpenApi(DESCRIPTION, { baseUrl, fetch: recordingFetch, timeoutMs: 10_000, ...options });
    return await createApp({ name: 'petstore', version: '1.0.0', tools: [tools] });
  }

  beforeAll(async () => {
    // Prism listens on a port of its own choosing and prints where: a port picked here could be taken meanwhile by another test's server.
    const prismBin = (prism as { bin: string }).bin;
    const started = await spawnListening((port) => spawn(process.execPath, [prismBin, 'mock', DESCRIPTION, '--port', String(port), '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] }), {
      port: 0,
      listening: /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/,
      name: 'Prism',
    });
    child = started.child;
    baseUrl = started.said[1];
    app = await appFor();
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
  });

  beforeEach(() => {
    sent.length = 0;
  });

  it('Prism refuses a request that breaks the description (so the successes below mean something)', async () => {
    const response = await fetch(`${baseUrl}/pets/not-a-number`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(422);
    expect(await response.text()).toMatch(/petid must be integer/i);
  });

  describe.each(['legacy', 'modern'] as const)('through the SDK v2 client (%s era)', (era) => {
    it('lists one tool per operation, with input and output schemas from the description', async () => {
      const client = await createTestClient(app, { era });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['adoptPet', 'createPet', 'deletePet', 'getPet', 'listPets', 'updatePet']);
      const byName = new Map(tools.map((t) => [t.name, t]));
      const listPets = byName.get('listPets')!;
      expect(listPets).toMatchObject({ title: 'List pets', description: 'Lists the pets in the store, filtered by status and tags.', annotations: { readOnlyHint: true, openWorldHint: true } });
      expect(listPets.inputSchema).toMatchObject({
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'How many pets to return.' },
          tags: { type: 'array', items: { type: 'string', minLength: 1 } },
          'X-Request-Id': { type: 'string', minLength: 8 },
        },
        additionalProperties: false,
      });
      expect(listPets.inputSchema.required).toBeUndefined();
      expect(listPets.outputSchema).toMatchObject({ type: 'object', $defs: { PetPage: { required: ['items'] }, Pet: { properties: { tag: { type: ['string', 'null'] } } } } });
      // Path-level parameters ($refs to components) are the operation's: the path one required.
      expect(byName.get('getPet')!.inputSchema).toMatchObject({ properties: { petId: { type: 'integer', minimum: 1 }, 'X-Request-Id': { type: 'string' } }, required: ['petId'] });
      const createPet = byName.get('createPet')!;
      expect(createPet.inputSchema.required).toEqual(['Idempotency-Key', 'body']);
      expect(createPet.inputSchema.properties).toMatchObject({ 'Idempotency-Key': { type: 'string', format: 'uuid' }, body: { description: 'The pet to add.' } });
      expect(byName.get('deletePet')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
      // An operation without a 2xx JSON object response has no output schema.
      expect(byName.get('deletePet')!.outputSchema).toBeUndefined();
      expect(byName.get('adoptPet')!.outputSchema).toBeUndefined();
      await client.close();
    });

    it('calls a GET with query and header arguments; Prism finds the request valid and the answer matches the output schema', async () => {
      const client = await createTestClient(app, { era });
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: 'listPets', arguments: { limit: 5, status: 'available', tags: ['dog', 'small'], 'X-Request-Id': 'req-0001' } });
      expect(result.isError).toBeFalsy();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: 'GET', url: `${baseUrl}/pets?limit=5&status=available&tags=dog&tags=small`, status: 200, violations: null });
      expect(sent[0]!.headers['x-request-id']).toBe('req-0001');
      expect(result.structuredContent).toEqual({
        items: [
          { id: 1, name: 'Rex', status: 'available', tag: 'dog' },
          { id: 2, name: 'Tom', status: 'sold', tag: null },
        ],
        next: null,
      });
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
      const validate = compileSchemaValidator(tools.find((t) => t.name === 'listPets')!.outputSchema!);
      expect(validate(result.structuredContent)).toEqual(expect.objectContaining({ ok: true }));
      await client.close();
    });

    it('calls with a path parameter (path-level, from components) and gets the Pet', async () => {
      const client = await createTestClient(app, { era });
      const result = await client.callTool({ name: 'getPet', arguments: { petId: 1, 'X-Request-Id': 'req-0002' } });
      expect(result.isError).toBeFalsy();
      expect(sent[0]).toMatchObject({ method: 'GET', url: `${baseUrl}/pets/1`, status: 200, violations: null });
      expect(result.structuredContent).toEqual({ id: 1, name: 'Rex', status: 'available', tag: 'dog', birthDate: '2020-04-01' });
      await client.close();
    });

    it('POSTs a JSON body with a required header parameter: 201 and the created Pet', async () => {
      const client = await createTestClient(app, { era });
      const pet = { name: 'Rex', status: 'available', tag: null, birthDate: '2020-04-01' };
      const result = await client.callTool({ name: 'createPet', arguments: { 'Idempotency-Key': UUID, body: pet } });
      expect(result.isError).toBeFalsy();
      expect(sent[0]).toMatchObject({ method: 'POST', url: `${baseUrl}/pets`, body: JSON.stringify(pet), status: 201, violations: null });
      expect(sent[0]!.headers).toMatchObject({ 'idempotency-key': UUID, 'content-type': 'application/json', accept: 'application/json' });
      expect(result.structuredContent).toEqual({ id: 10, name: 'Rex', status: 'available', tag: 'dog', birthDate: '2020-04-01' });
      await client.close();
    });

    it('PATCHes with a 3.1 null-typed field and DELETEs (204, no body)', async () => {
      const client = await createTestClient(app, { era });
      const changed = await client.callTool({ name: 'updatePet', arguments: { petId: 1, body: { status: 'sold', tag: null } } });
      expect(changed.isError).toBeFalsy();
      expect(changed.structuredContent).toEqual({ id: 1, name: 'Rex', status: 'sold', tag: null });
      const removed = await client.callTool({ name: 'deletePet', arguments: { petId: 7 } });
      expect(removed.isError).toBeFalsy();
      expect(removed.structuredContent).toBeUndefined();
      expect(sent.map((s) => [s.method, s.url, s.status, s.violations])).toEqual([
        ['PATCH', `${baseUrl}/pets/1`, 200, null],
        ['DELETE', `${baseUrl}/pets/7`, 204, null],
      ]);
      await client.close();
    });

    it('an operation whose only response is an error is an isError result with the status and body', async () => {
      const client = await createTestClient(app, { era });
      const result = await client.callTool({ name: 'adoptPet', arguments: { petId: 3 } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toBe('POST /pets/{petId}/adoption failed: HTTP 409 Conflict\n{"code":409,"message":"Adoptions are closed until spring."}');
      expect(sent[0]).toMatchObject({ status: 409, violations: null });
      await client.close();
    });

    it('refuses bad arguments with field-level messages before any request', async () => {
      const client = await createTestClient(app, { era });
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['getPet', { petId: 0 }, /petId.*(>=|minimum|at least) 1/is],
        ['getPet', { petId: 'one' }, /petId.*integer/is],
        ['getPet', {}, /petId/],
        ['listPets', { limit: 500 }, /limit.*100/is],
        ['listPets', { status: 'lost' }, /status.*(available|allowed|one of)/is],
        ['listPets', { tags: [''] }, /tags/],
        ['listPets', { 'X-Request-Id': 'short' }, /X-Request-Id/],
        ['createPet', { body: { name: 'Rex' } }, /Idempotency-Key/],
        ['createPet', { 'Idempotency-Key': UUID, body: { status: 'available' } }, /body.*name/is],
        ['createPet', { 'Idempotency-Key': UUID, body: { name: 'Rex', colour: 'red' } }, /colour/],
        ['updatePet', { petId: 1, body: {} }, /body/],
      ];
      for (const [name, args, message] of cases) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, args, isError: result.isError }).toEqual({ name, args, isError: true });
        expect(textOf(result)).toMatch(message);
        expect(textOf(result)).not.toMatch(/\n\s+at /);
      }
      for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
        const result = await client.callTool({ name: 'getPet', arguments: JSON.parse(`{"petId":1,${JSON.stringify(key)}:1}`) as Record<string, unknown> });
        expect({ key, isError: result.isError, text: textOf(result) }).toEqual({ key, isError: true, text: expect.stringContaining(key) });
      }
      expect(sent).toEqual([]);
      // An own `__proto__` argument is refused in the 2025-11-25 era; in the 2026-07-28 era it is
      // lost on the way (the call succeeds without it): either way nothing of it reaches the API.
      const proto = await client.callTool({ name: 'getPet', arguments: JSON.parse('{"petId":1,"__proto__":{"X-Request-Id":"injected!"}}') as Record<string, unknown> });
      if (era === 'legacy') expect(proto.isError).toBe(true);
      expect(sent.map((s) => [s.url, s.headers])).toEqual(era === 'legacy' ? [] : [[`${baseUrl}/pets/1`, { accept: 'application/json' }]]);
      await client.close();
    });
  });

  it.each([
    [404, 'getPet', { petId: 42 }, 'GET /pets/{petId} failed: HTTP 404 Not Found\n{"code":404,"message":"No pet has that id."}'],
    [400, 'listPets', { limit: 3 }, 'GET /pets failed: HTTP 400 Bad Request\n{"code":400,"message":"Bad request."}'],
    [422, 'createPet', { 'Idempotency-Key': UUID, body: { name: 'Rex' } }, 'POST /pets failed: HTTP 422 Unprocessable Entity\n{"code":422,"message":"A pet named Rex is already in the store."}'],
    [422, 'updatePet', { petId: 2, body: { status: 'pending' } }, 'PATCH /pets/{petId} failed: HTTP 422 Unprocessable Entity\n{"code":422,"message":"A sold pet cannot change its status."}'],
  ] as const)('an HTTP %i from the API (Prefer: code=…) is an isError result with the status and body excerpt (%s)', async (code, name, args, text) => {
    const client = await createTestClient(await preferring(code), { era: 'modern' });
    const result = await client.callTool({ name, arguments: { ...args } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(text);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ status: code, violations: null });
    expect(sent[0]!.headers.prefer).toBe(`code=${code}`);
    await client.close();
  });

  it('cuts a long error body to errorBodyChars', async () => {
    const client = await createTestClient(await appFor({ headers: { Prefer: 'code=404' }, errorBodyChars: 10 }), { era: 'modern' });
    const result = await client.callTool({ name: 'getPet', arguments: { petId: 42 } });
    expect(textOf(result)).toBe('GET /pets/{petId} failed: HTTP 404 Not Found\n{"code":40… (34 more characters)');
    await client.close();
  });
});

import { ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi } from '@toolwright/openapi';
import { createServer, type Server } from 'node:http';
import { closeLocal, listenLocal } from './fixtures/listenLocal';

/**
 * A description's `pattern`s against hostile arguments. JavaScript's RegExp backtracks: on
 * `'a'.repeat(29) + '!'`, `^(a+)+$` and `^(\w+\s?)*$` take seconds (each character more doubles
 * that), and one such call would stall every session of the server. fromOpenApi runs them on RE2.
 * The description and the API are served over HTTP on 127.0.0.1 (node:http); the tools are
 * called by the real SDK v2 client over Streamable HTTP. The hostile lengths stall RegExp for
 * seconds, not forever, so that the test fails (rather than hangs) without the linear engine.
 */
const document = {
  openapi: '3.1.0',
  info: { title: 'Patterns', version: '1' },
  paths: {
    '/search': {
      get: {
        operationId: 'search',
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string', pattern: '^(\\w+\\s?)*$' } },
          { name: 'code', in: 'query', schema: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } },
          { name: 'pin', in: 'query', schema: { type: 'string', pattern: '^(?=.*\\d)[a-z0-9]{4,}$' } },
          // From GitHub's description: quadratic on RegExp (about 9 s for 100,000 letters), not exponential.
          { name: 'token', in: 'query', schema: { type: 'string', pattern: '[a-z]+_token_[0-9]+' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/labels': {
      post: {
        operationId: 'label',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  name: { $ref: '#/components/schemas/Name' },
                  labels: { type: 'object', patternProperties: { '^(a|aa)+$': { type: 'integer' } }, additionalProperties: false },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/profile': {
      get: {
        operationId: 'profile',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { handle: { $ref: '#/components/schemas/Name' } } } } } } },
      },
    },
  },
  components: { schemas: { Name: { type: 'string', pattern: '^(a+)+$' } } },
};

/** A handle the API answers with: the response check runs the description's pattern on it too. */
const HOSTILE = `${'a'.repeat(29)}!`;
const seen: string[] = [];
let api: Server;
let origin: string;
let app: App;

beforeAll(async () => {
  api = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/openapi.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    seen.push(`${req.method} ${url}`);
    const answer = url === '/v1/profile' ? { handle: HOSTILE } : { ok: true };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  origin = await listenLocal(api);
  const tools = await fromOpenApi(`${origin}/openapi.json`, { baseUrl: `${origin}/v1` });
  app = await createApp({ name: 'patterns', version: '1.0.0', tools: [tools] });
});

afterAll(() => closeLocal(api));

beforeEach(() => {
  seen.length = 0;
});

/** Each test's clients, closed after it whether it passed or not (an HTTP one holds a listener). */
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

/** The CPU time this process has used, in ms: server and client both run here. Unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Calls a tool and measures the CPU time its answer took (RegExp's backtracking would take seconds of it). */
async function timed(client: Awaited<ReturnType<typeof createTestClient>>, name: string, args: Record<string, unknown>) {
  const started = cpuMs();
  const result = await client.callTool({ name, arguments: args });
  return { result, ms: cpuMs() - started };
}

it('answers hostile arguments against catastrophic patterns at once, with the field that does not match', async () => {
  const client = await createTestClient(app, { transport: 'http' });
  clients.push(client);
  const cases = [
    { name: 'search', args: { q: HOSTILE }, line: '- q: must match the pattern ^(\\w+\\s?)*$' },
    { name: 'label', args: { body: { name: HOSTILE } }, line: '- body.name: must match the pattern ^(a+)+$' },
    // A property name is matched against patternProperties: `(a|aa)+$` is tried at every position.
    { name: 'label', args: { body: { labels: { [`${'a'.repeat(41)}!`]: 1 } } }, line: `- body.labels.${'a'.repeat(41)}!: is not allowed (unknown property)` },
  ];
  for (const { name, args, line } of cases) {
    const { result, ms } = await timed(client, name, args);
    expect(ms).toBeLessThan(1_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Invalid arguments for tool '${name}':\n${line}`);
  }
  // Linear, not just fast on short strings: 200,000 characters (RegExp would never finish the first).
  for (const [name, args] of [
    ['search', { q: `${'a'.repeat(200_000)}!` }],
    ['search', { token: 'a'.repeat(200_000) }],
    ['label', { body: { name: `${'a'.repeat(200_000)}!` } }],
  ] as const) {
    const { result, ms } = await timed(client, name, args);
    expect(ms).toBeLessThan(2_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/must match the pattern/);
  }
  expect(seen).toEqual([]);
  // The API's answer is checked against the response schema's pattern the same way.
  const { result, ms } = await timed(client, 'profile', {});
  expect(ms).toBeLessThan(1_000);
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/^GET \/profile answered with JSON that does not match its described response:\n- handle: must match the pattern \^\(a\+\)\+\$/);
}, 60_000);

it('keeps serving: the same client and another one go on calling while the patterns match as RegExp would', async () => {
  const client = await createTestClient(app, { transport: 'http' });
  const other = await createTestClient(app);
  clients.push(client, other);
  // A hostile call and, while it is being answered, an ordinary one from another session: both are
  // answered with little CPU spent (on RegExp, the second would wait for the first, seconds of CPU later).
  const started = cpuMs();
  const since = <T>(call: Promise<T>) => call.then((value) => ({ value, ms: cpuMs() - started }));
  const hostile = since(client.callTool({ name: 'search', arguments: { q: HOSTILE } }));
  const ordinary = since(new Promise((resolve) => setTimeout(resolve, 20)).then(() => other.callTool({ name: 'search', arguments: { q: 'hello' } })));
  const [first, second] = await Promise.all([hostile, ordinary]);
  expect(first.value.isError).toBe(true);
  expect(second.value.isError).toBeFalsy();
  expect(Math.max(first.ms, second.ms)).toBeLessThan(1_000);
  seen.length = 0;
  const listed = await other.listTools();
  // Clients see the patterns as the description wrote them.
  expect(listed.tools.find((t) => t.name === 'search')!.inputSchema.properties).toMatchObject({ q: { pattern: '^(\\w+\\s?)*$' }, code: { pattern: '^[A-Z]{3}-\\d{4}$' } });
  const accepted = [
    { q: 'hello world', code: 'ABC-1234', pin: 'abc1', token: 'x ghp_token_42 y' },
    { q: '', code: 'XYZ-0000', pin: '9999' },
  ];
  for (const args of accepted) {
    const result = await client.callTool({ name: 'search', arguments: args });
    expect(result.isError).toBeFalsy();
  }
  expect(seen).toHaveLength(2);
  expect(seen[0]).toBe('GET /v1/search?q=hello%20world&code=ABC-1234&pin=abc1&token=x%20ghp_token_42%20y');
  const refused: [Record<string, unknown>, string][] = [
    [{ code: 'ABC-12345' }, '- code: must match the pattern ^[A-Z]{3}-\\d{4}$'],
    [{ code: 'abc-1234' }, '- code: must match the pattern ^[A-Z]{3}-\\d{4}$'],
    [{ pin: 'abcd' }, '- pin: must match the pattern ^(?=.*\\d)[a-z0-9]{4,}$'],
    [{ q: 'two  spaces' }, '- q: must match the pattern ^(\\w+\\s?)*$'],
    [{ token: 'ghp_token_' }, '- token: must match the pattern [a-z]+_token_[0-9]+'],
  ];
  for (const [args, line] of refused) {
    const result = await other.callTool({ name: 'search', arguments: args });
    expect(textOf(result)).toBe(`Invalid arguments for tool 'search':\n${line}`);
  }
  const labels = await other.callTool({ name: 'label', arguments: { body: { name: 'aaa', labels: { a: 1, aaaa: 2 } } } });
  expect(labels.isError).toBeFalsy();
  const unknown = await other.callTool({ name: 'label', arguments: { body: { labels: { ab: 1 } } } });
  expect(textOf(unknown)).toBe("Invalid arguments for tool 'label':\n- body.labels.ab: is not allowed (unknown property)");
  expect(seen).toHaveLength(3);
}, 60_000);

it('refuses at start a pattern RE2 cannot run, naming it, where it is and the option; allowBacktrackingPattern runs it on RegExp', async () => {
  const pairs = {
    openapi: '3.1.0',
    info: { title: 'Pairs', version: '1' },
    paths: {
      '/pairs': { get: { operationId: 'pairs', parameters: [{ name: 'pair', in: 'query', schema: { $ref: '#/components/schemas/Pair' } }], responses: { '200': { description: 'ok' } } } },
    },
    components: { schemas: { Pair: { type: 'string', pattern: '^(\\w)\\1$' } } },
  };
  const refused = fromOpenApi(pairs, { baseUrl: `${origin}/v1` });
  await expect(refused).rejects.toThrow(ConfigError);
  await expect(refused).rejects.toThrow(
    'Toolwright: the pattern "^(\\\\w)\\\\1$" at #/components/schemas/Pair/pattern (in GET /pairs) uses a backreference (\\1), which a linear-time regular expression engine cannot run',
  );
  await expect(refused).rejects.toThrow('allow it with `allowBacktrackingPattern: (pattern) => pattern === "^(\\\\w)\\\\1$"`');

  const asked: string[] = [];
  const tools = await fromOpenApi(pairs, { baseUrl: `${origin}/v1`, allowBacktrackingPattern: (pattern, where) => (asked.push(`${pattern} ${where}`), pattern === '^(\\w)\\1$') });
  expect(asked).toEqual(['^(\\w)\\1$ #/components/schemas/Pair/pattern (in GET /pairs)']);
  const client = await createTestClient(await createApp({ name: 'pairs', version: '1.0.0', tools: [tools] }));
  clients.push(client);
  expect((await client.callTool({ name: 'pairs', arguments: { pair: 'aa' } })).isError).toBeFalsy();
  expect(textOf(await client.callTool({ name: 'pairs', arguments: { pair: 'ab' } }))).toBe("Invalid arguments for tool 'pairs':\n- pair: must match the pattern ^(\\w)\\1$");

  // In a response schema, such a pattern costs the tool its output schema instead.
  const answered = {
    ...pairs,
    paths: {
      '/pairs': {
        get: {
          operationId: 'pairs',
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { pair: { $ref: '#/components/schemas/Pair' } } } } } } },
        },
      },
    },
  };
  const withoutOutput = await fromOpenApi(answered, { baseUrl: `${origin}/v1` });
  expect(withoutOutput.operations[0]!.outputSchema).toBeUndefined();
});

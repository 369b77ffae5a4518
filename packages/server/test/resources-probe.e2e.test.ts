import 'reflect-metadata';
import { Param, Prompt, Resource } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { base64Header } from './fixtures/base64Header';
import { ERAS, type Era } from './fixtures/eras';
import { listenInMemory } from './fixtures/memoryStdio';
import { answerJson } from './fixtures/modernRequest';

/**
 * Resources, templates, prompts and completions fed hostile input through the web-standard
 * fetch handler and the stdio listener, in both eras, as raw JSON-RPC: percent-escapes that
 * decode to `/` or NUL or decode to nothing, overlong UTF-8, mixed-case schemes, `..`, fragments
 * and queries, 10,000 exploded items, URIs at and past `maxUriLength`, Object.prototype member
 * names, values of the wrong type. Each answer is the spec's (-32602, `data.uri` on a resource
 * not found), an error message never repeats a client's escape sequence or a megabyte of its
 * name, and the server keeps serving.
 */
class Library {
  @Resource('file:///static.txt')
  fixed() {
    return 'static';
  }
  @Resource('notes://{id}')
  note(@Param('id') id: string) {
    return `note:${JSON.stringify(id)}`;
  }
  @Resource('tree://host{/path*}')
  tree(@Param('path', { type: () => [String] }) path: string[]) {
    return path.length > 5 ? `${path.length} items` : JSON.stringify(path);
  }
  @Resource('Docs://Host/{kind}/{id}')
  doc(@Param('kind') kind: string, @Param('id') id: string) {
    return JSON.stringify([kind, id]);
  }
  @Prompt({ description: 'Greet someone.' })
  greet(@Param('name', { complete: (typed: string, context: { arguments: Record<string, string> }) => [`${typed}:${JSON.stringify(context.arguments)}`] }) name: string) {
    return `hi ${name}`;
  }
}

/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const MAX_URI = 30_000;
// What an error message must never carry raw: C0 and C1 controls, DEL, line separators, bidirectional overrides, lone surrogates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
const HOSTILE = '\u001b[2J\u001b]0;owned\u0007\u009b31m\u202e\u2028';
/** With a lone surrogate too: no Mcp-Name header can carry one (its UTF-8 has none), so only names the header does not mirror get it. */
const LONE = `${HOSTILE}\ud800`;

interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { uri?: string } };
}
type Send = (method: string, params: Record<string, unknown>) => Promise<Answer>;

/** An `Mcp-Name` header value: Base64 (SEP-2243) when the name is not printable ASCII. */
const headerValue = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : base64Header(text));

/** Raw requests to the fetch handler in process (stateless; an answer comes as JSON or as one SSE event). */
function fetchSender(app: App, era: Era): { send: Send; close(): Promise<void> } {
  const handler = createFetchHandler(app, { stateless: true });
  let id = 0;
  const send: Send = async (method, params) => {
    const message = era.request({ jsonrpc: '2.0', id: ++id, method, params });
    const headers = era.headers(message);
    if (headers['mcp-name'] !== undefined) headers['mcp-name'] = headerValue(headers['mcp-name']);
    const response = await handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': era.version, ...headers },
        body: JSON.stringify(message),
      }),
    );
    const json = answerJson(await response.text());
    return JSON.parse(json ?? `{"error":{"code":0,"message":"HTTP ${response.status} without an answer"}}`) as Answer;
  };
  return { send, close: async () => undefined };
}

/** Raw lines to the stdio listener on in-memory streams, opened as a client of `era` opens it. */
async function stdioSender(app: App, era: Era): Promise<{ send: Send; close(): Promise<void> }> {
  const stdio = await listenInMemory(app);
  for (const message of era.stdioOpening) {
    stdio.send(message);
    if ('id' in message) await stdio.answer(message.id);
  }
  let id = 0;
  const send: Send = async (method, params) => {
    const message = era.request({ jsonrpc: '2.0', id: `p${++id}`, method, params });
    stdio.send(message);
    return (await stdio.answer(message.id)) as Answer;
  };
  return { send, close: () => stdio.close() };
}

const read = (send: Send, uri: string) => send('resources/read', { uri });
const textOf = (answer: Answer) => ((answer.result?.contents as { text: string }[] | undefined) ?? [])[0]?.text;
const notFound = (uri: string) => ({ error: { code: -32602, message: `Resource not found: ${uri}. Call resources/list and resources/templates/list to see what this server offers.`, data: { uri } } });

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'probe-library', version: '1.0.0', tools: [Library], maxUriLength: MAX_URI });
});

const rows = ERAS.flatMap((era) => [
  { era, via: 'the fetch handler', open: () => Promise.resolve(fetchSender(app, era)) },
  { era, via: 'stdio', open: () => stdioSender(app, era) },
]);

describe.each(rows)('$era.name through $via', ({ era, open }) => {
  let send: Send;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ send, close } = await open());
  });
  afterAll(() => close());
  afterEach(async () => {
    // The server is alive after every hostile request.
    expect(textOf(await read(send, 'file:///static.txt'))).toBe('static');
  });

  it('decodes percent-escapes once, as data, and answers malformed and overlong ones as not found with data.uri', async () => {
    expect(textOf(await read(send, 'notes://a%2Fb'))).toBe('note:"a/b"');
    expect(textOf(await read(send, 'notes://a%00b'))).toBe('note:"a\\u0000b"');
    for (const uri of ['notes://%zz', 'notes://%e0%80', 'notes://%C0%AF', 'notes://%E0%80%AF', 'notes://a%']) expect(await read(send, uri)).toMatchObject(notFound(uri));
  });

  it('matches schemes, hosts and paths as written: no case folding, no resolving of .., no dropping of a fragment or query', async () => {
    expect(textOf(await read(send, 'Docs://Host/__proto__/constructor'))).toBe('["__proto__","constructor"]');
    expect(textOf(await read(send, 'Docs://Host/toString/hasOwnProperty'))).toBe('["toString","hasOwnProperty"]');
    expect(textOf(await read(send, 'tree://host/a/../b/%2e%2e'))).toBe('["a","..","b",".."]');
    for (const uri of ['NOTES://x', 'docs://host/a/b', 'FILE:///static.txt', 'file:///STATIC.txt', 'notes://x#frag', 'notes://x?q=1', 'file:///static.txt#f', 'file:///static.txt?q', 'notes://../x']) {
      expect(await read(send, uri)).toMatchObject(notFound(uri));
    }
  });

  it('reads a URI of exactly maxUriLength, refuses one past it without echoing it, and refuses 10,000 exploded items as not found', async () => {
    const at = `notes://${'n'.repeat(MAX_URI - 'notes://'.length)}`;
    expect(textOf(await read(send, at))).toBe(`note:"${'n'.repeat(MAX_URI - 8)}"`);
    expect(await read(send, `${at}n`)).toEqual(
      expect.objectContaining({
        error: { code: -32602, message: `Invalid params: the URI is ${MAX_URI + 1} characters long; this server reads URIs of at most ${MAX_URI} characters (the app's maxUriLength).` },
      }),
    );
    expect(textOf(await read(send, `tree://host${'/a'.repeat(1024)}`))).toBe('1024 items');
    // The CPU time of this process, where the server runs (in memory): a matcher worse than linear in the items would spend seconds of it.
    const started = process.cpuUsage();
    const many = `tree://host${'/a'.repeat(10_000)}`;
    const answer = await read(send, many);
    expect(cpuMsSince(started)).toBeLessThan(2_000);
    expect(answer.error).toMatchObject({ code: -32602, data: { uri: many } });
  });

  it('repeats no escape sequence and at most 200 characters of a name or URI in an error message', async () => {
    const checked = (answer: Answer) => {
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error!.message).not.toMatch(UNSAFE);
      expect(answer.error!.message.length).toBeLessThan(400);
      return answer.error!;
    };
    const uri = `notes://x?${HOSTILE}`;
    const missing = checked(await read(send, uri));
    expect(missing.data).toEqual({ uri });
    expect(missing.message).toBe(
      'Resource not found: notes://x?\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m\\u202e\\u2028. Call resources/list and resources/templates/list to see what this server offers.',
    );
    expect(checked(await send('prompts/get', { name: `greet${HOSTILE}` })).message).toBe(
      "Unknown prompt 'greet\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m\\u202e\\u2028'. Call prompts/list to see the available prompts.",
    );
    const long = 'p'.repeat(1_000_000);
    expect(checked(await send('prompts/get', { name: long })).message).toBe(`Unknown prompt '${'p'.repeat(199)}…'. Call prompts/list to see the available prompts.`);
    // An unknown tool's name too (the tools/call handler).
    expect(checked(await send('tools/call', { name: `t${HOSTILE}`, arguments: {} })).message).toBe(
      "Unknown tool 't\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m\\u202e\\u2028'. Call tools/list to see the available tools.",
    );
    for (const ref of [
      { type: 'ref/prompt', name: `x${LONE}` },
      { type: 'ref/prompt', name: long },
      { type: 'ref/resource', uri: `x://{y}${LONE}` },
      { type: 'ref/resource', uri: long },
    ]) {
      checked(await send('completion/complete', { ref, argument: { name: 'x', value: '' } }));
    }
  });

  it('completes and gets prompts with Object.prototype member names as argument names', async () => {
    const complete = (argument: Record<string, unknown>, context?: unknown) =>
      send('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument, ...(context !== undefined && { context }) });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect((await complete({ name, value: '' })).result?.completion).toEqual({ values: [] });
      expect((await send('completion/complete', { ref: { type: 'ref/resource', uri: 'notes://{id}' }, argument: { name, value: '' } })).result?.completion).toEqual({ values: [] });
    }
    const context = { arguments: JSON.parse('{"__proto__":"a","constructor":"b","toString":"c"}') as unknown };
    const { values } = (await complete({ name: 'name', value: 'v' }, context)).result?.completion as { values: string[] };
    expect(values).toHaveLength(1);
    expect(values[0]).toMatch(/^v:\{/);
    expect(JSON.parse(values[0].slice(2))).toMatchObject({ constructor: 'b', toString: 'c' });
    for (const name of ['constructor', 'toString', 'valueOf']) {
      expect((await send('prompts/get', { name: 'greet', arguments: { name: 'x', [name]: 'y' } })).error).toEqual({
        code: -32602,
        message: `Invalid arguments for prompt 'greet':\n- ${name}: is not allowed (unknown property)`,
      });
    }
  });

  it('refuses a context that is not an object, a ref of an unknown type and prompt arguments that are not strings with -32602 naming the field', async () => {
    const contextProblem = 'Invalid params for completion/complete: params.context must be an object whose arguments, when present, map argument names to string values.';
    for (const context of [{ arguments: 'x' }, { arguments: 5 }, { arguments: ['x'] }, { arguments: null }, 5, 'x']) {
      expect((await send('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' }, context })).error).toEqual({
        code: -32602,
        message: contextProblem,
      });
    }
    expect((await send('completion/complete', { ref: 'ref/prompt', argument: { name: 'name', value: '' } })).error).toEqual({
      code: -32602,
      message: "Invalid params for completion/complete: params.ref must be an object: { type: 'ref/prompt', name } or { type: 'ref/resource', uri }.",
    });
    for (const ref of [{ type: 'ref/tool', name: 'greet' }, { type: 'ref/__proto__' }, { type: 5 }]) {
      expect((await send('completion/complete', { ref, argument: { name: 'name', value: '' } })).error).toEqual({
        code: -32602,
        message: "Invalid params for completion/complete: params.ref.type must be 'ref/prompt' or 'ref/resource'.",
      });
    }
    for (const args of [{ name: 1 }, { name: ['x'] }, { name: null }, { name: { toString: 'x' } }, 'x', ['x']]) {
      expect((await send('prompts/get', { name: 'greet', arguments: args })).error).toEqual({
        code: -32602,
        message: 'Invalid params for prompts/get: params.arguments must be an object of string values when present.',
      });
    }
    expect((await send('prompts/get', { name: 'greet', arguments: { name: 'x' } })).result?.messages).toBeDefined();
    const templates = await send('resources/templates/list', {});
    expect((templates.result?.resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate)).toEqual(['notes://{id}', 'tree://host{/path*}', 'Docs://Host/{kind}/{id}']);
    for (const cursor of [HOSTILE, 'x'.repeat(100_000), 5]) {
      const { error } = await send('resources/templates/list', { cursor });
      expect(error?.code).toBe(-32602);
      expect(JSON.stringify(error).length).toBeLessThan(400);
      expect(error!.message).not.toMatch(UNSAFE);
    }
  });

  it(era.modern ? 'answers resources/subscribe -32601, a method 2026-07-28 does not have' : 'subscribes to what it serves and refuses control characters and unknown URIs', async () => {
    if (era.modern) {
      expect((await send('resources/subscribe', { uri: 'notes://x' })).error?.code).toBe(-32601);
      return;
    }
    expect((await send('resources/subscribe', { uri: 'notes://x' })).result).toEqual({});
    expect((await send('resources/subscribe', { uri: 'notes://%zz' })).error).toMatchObject(notFound('notes://%zz').error);
    expect((await send('resources/subscribe', { uri: `notes://x${HOSTILE}` })).error).toEqual({
      code: -32602,
      message: 'Invalid params: a subscribed URI cannot hold control characters (such as a line break). Send the URI as resources/list gives it.',
    });
  });
});

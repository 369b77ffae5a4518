/**
 * The protocol's side channels against a hostile client, over stdio (in memory) and Streamable
 * HTTP (node listener and fetch handler), in both eras: `_meta.progressToken` of every shape,
 * `notifications/cancelled` of every kind and in storms, `logging/setLevel` with values the spec
 * does not have, `ping` and `notifications/initialized` where they do not belong, resource
 * subscriptions, floods of `notifications/roots/list_changed`, and `_meta` huge, deep and with
 * prototype-named keys. Where the SDK's own server drops a message unanswered (a malformed
 * progressToken), Toolwright answers -32600; every other answer is the SDK's. After each case
 * the server still serves a normal call. A client that stops reading costs bounded memory:
 * progress and log lines past a bound are left out, not kept.
 */
import { PassThrough, Writable } from 'node:stream';
import { Ctx, Param, Resource, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { MAX_PENDING_PROGRESS } from '../src/pipeline/progressSender';
import { ERAS, LEGACY, type Era } from './fixtures/eras';
import { createFetchHandler } from '@toolwright/server/fetch';
import { serveFetch } from './fixtures/serveFetch';
import { HTTP_ENDPOINTS, type HttpEndpoint } from './fixtures/httpEndpoints';
import { ACCEPT_BOTH, initializeBody, messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

type Message = Record<string, unknown>;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** What the tools saw, for the tests to wait on and check. */
const seen = { finished: 0, aborted: 0, metaKeys: [] as string[] };

class SideChannelTools {
  @Tool({ description: 'Echoes.' })
  echo(@Param('text') text: string) {
    return `echo: ${text}`;
  }

  @Tool({ description: 'Reports progress n times, yielding to the event loop every 100 updates.' })
  async progress(@Param('n', { type: () => Number }) n: number, @Ctx() ctx: ToolContext) {
    for (let i = 1; i <= n; i++) {
      await ctx.progress(i, n, `step ${i}`);
      if (i % 100 === 0) await new Promise(setImmediate);
    }
    seen.finished++;
    return 'reported';
  }

  @Tool({ description: 'Reports progress n times with a message of size characters, yielding to the event loop every 10 updates.' })
  async flood(@Param('n', { type: () => Number }) n: number, @Param('size', { type: () => Number }) size: number, @Ctx() ctx: ToolContext) {
    const text = 'x'.repeat(size);
    for (let i = 1; i <= n; i++) {
      await ctx.progress(i, n, text);
      if (i % 10 === 0) await new Promise(setImmediate);
    }
    seen.finished++;
    return 'flooded';
  }

  @Tool({ description: 'Logs n lines of the given text at info, yielding to the event loop every 100 lines.' })
  async logs(@Param('n', { type: () => Number }) n: number, @Param('text') text: string, @Ctx() ctx: ToolContext) {
    for (let i = 1; i <= n; i++) {
      ctx.log.info(text);
      if (i % 100 === 0) await new Promise(setImmediate);
    }
    seen.finished++;
    return 'logged';
  }

  @Tool({ description: 'Sleeps ms milliseconds; a plain tool (no context), which a 2025 connection serves on its fast path.' })
  async nap(@Param('ms', { type: () => Number }) ms: number) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'napped';
  }

  @Tool({ description: 'Waits until cancelled, or ms milliseconds.' })
  async wait(@Param('ms', { type: () => Number }) ms: number, @Ctx() ctx: ToolContext) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        seen.aborted++;
        resolve();
      });
    });
    return ctx.signal.aborted ? 'aborted' : 'waited';
  }

  @Tool({ description: 'Reports progress once, lets the stream go out, then answers bytes characters.' })
  async big(@Param('bytes', { type: () => Number }) bytes: number, @Ctx() ctx: ToolContext) {
    await ctx.progress(1, 1, 'about to answer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    return 'b'.repeat(bytes);
  }

  @Tool({ description: "Names the keys of the request's _meta." })
  meta(@Ctx() ctx: ToolContext) {
    seen.metaKeys = Object.keys(ctx.meta ?? {});
    return { keys: seen.metaKeys };
  }

  @Resource('side://readme', { description: 'A fixed text.' })
  readme() {
    return 'read me';
  }

  @Resource('side://items/{id}', { description: 'An item.' })
  item(@Param('id') id: string) {
    return `item ${id}`;
  }
}

/** A stdio connection on in-memory streams whose reader can stop taking what the server writes. */
async function openStdio(app: App) {
  const stdin = new PassThrough();
  const out: Message[] = [];
  let buffered = '';
  let held: (() => void)[] | undefined;
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      buffered += String(chunk);
      let i: number;
      while ((i = buffered.indexOf('\n')) >= 0) {
        out.push(JSON.parse(buffered.slice(0, i)) as Message);
        buffered = buffered.slice(i + 1);
      }
      // While held, the writable keeps what follows in its buffer: the client reads no more.
      if (held) held.push(done);
      else done();
    },
  });
  const listener = await app.listen({ transport: 'stdio', stdin, stdout, exitOnClose: false });
  const send = (message: unknown) => stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  const answer = (id: unknown, timeoutMs = 10_000) => waitFor(() => out.find((m) => m.id === id && !('method' in m)), `the answer to ${String(id)}`, { timeoutMs });
  return {
    out,
    send,
    answer,
    /** The client stops reading: later writes stay in the output's buffer. */
    hold: () => (held = []),
    /** The client reads again, everything that waited first. */
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const done of waiting) done();
    },
    close: () => listener.close(),
  };
}
type Stdio = Awaited<ReturnType<typeof openStdio>>;

/** A stdio connection opened as `era` opens one. */
async function openEraStdio(app: App, era: Era): Promise<Stdio> {
  const stdio = await openStdio(app);
  for (const opening of era.stdioOpening) {
    stdio.send(opening);
    if ('id' in opening) await stdio.answer(opening.id);
  }
  return stdio;
}

let next = 0;
/** A request of `era` with a fresh id. */
const requestOf = (era: Era, method: string, params?: Message): Message & { id: string } =>
  era.request({ jsonrpc: '2.0', id: `r${next++}`, method, ...(params && { params }) }) as Message & { id: string };
const call = (era: Era, name: string, args: Message = {}, meta?: Message) => requestOf(era, 'tools/call', { name, arguments: args, ...(meta && { _meta: meta }) });

/** The server still answers a normal call on `stdio`. */
async function expectServing(stdio: Stdio, era: Era): Promise<void> {
  const alive = call(era, 'echo', { text: 'alive' });
  stdio.send(alive);
  expect(await stdio.answer(alive.id)).toMatchObject({ result: { content: [{ type: 'text', text: 'echo: alive' }] } });
}

const progressOf = (out: Message[], token: unknown) =>
  out.filter((m) => m.method === 'notifications/progress' && JSON.stringify((m.params as Message).progressToken) === JSON.stringify(token)).map((m) => (m.params as Message).progress as number);

/** The `_meta` keys the `meta` tool saw, from its answer. */
const keysOf = (answer: Message) => (JSON.parse(((answer.result as Message).content as { text: string }[])[0].text) as { keys: string[] }).keys;

const INVALID_META = 'Invalid Request: "params._meta" must be an object; its progressToken a string or integer.';

describe('side channels, hostile input', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'side-channels', version: '1.0.0', tools: [SideChannelTools], logger: silent });
  });

  describe.each(ERAS)('stdio ($name)', (era: Era) => {
    let stdio: Stdio;
    beforeEach(async () => {
      stdio = await openEraStdio(app, era);
    });
    afterEach(async () => {
      stdio.release();
      await stdio.close();
    });

    it('echoes every valid progressToken exactly, and answers a malformed one -32600 (the SDK drops it unanswered)', async () => {
      for (const token of [-5, 0, 2 ** 53 - 1, '', 'x'.repeat(10_000), '__proto__', 'constructor', 'toString']) {
        const request = call(era, 'progress', { n: 2 }, { progressToken: token });
        stdio.send(request);
        expect(await stdio.answer(request.id)).toMatchObject({ result: { content: [{ text: 'reported' }] } });
        expect(progressOf(stdio.out, token)).toEqual([1, 2]);
      }
      for (const token of [1e300, 2 ** 64, -1.5, 1.5, { a: 1 }, [1], null, true]) {
        const request = call(era, 'progress', { n: 2 }, { progressToken: token });
        stdio.send(request);
        expect(await stdio.answer(request.id)).toEqual({ jsonrpc: '2.0', id: request.id, error: { code: -32600, message: INVALID_META } });
      }
      expect(stdio.out.filter((m) => m.method === 'notifications/progress')).toHaveLength(16);
      await expectServing(stdio, era);
    });

    it('serves two running calls that share a progressToken, each with all of its updates', async () => {
      const first = call(era, 'progress', { n: 300 }, { progressToken: 'same' });
      const second = call(era, 'progress', { n: 300 }, { progressToken: 'same' });
      stdio.send(first);
      stdio.send(second);
      await stdio.answer(first.id);
      await stdio.answer(second.id);
      expect(progressOf(stdio.out, 'same')).toHaveLength(600);
      await expectServing(stdio, era);
    });

    it('ignores cancellations of nothing (unknown, finished, malformed ids, a 1 MB reason) without a word, and keeps serving', async () => {
      const finished = call(era, 'echo', { text: 'done' });
      stdio.send(finished);
      await stdio.answer(finished.id);
      const before = stdio.out.length;
      const cancels: unknown[] = [
        { requestId: 'unknown' },
        { requestId: finished.id },
        { requestId: '__proto__' },
        { requestId: 'constructor' },
        { requestId: 1e300 },
        { requestId: { id: 1 } },
        { requestId: null },
        {},
        { requestId: 'unknown', reason: 'r'.repeat(1 << 20) },
        { requestId: 'unknown', reason: { not: 'a string' } },
        undefined,
      ];
      for (const params of cancels) stdio.send(era.request({ jsonrpc: '2.0', method: 'notifications/cancelled', ...(params !== undefined && { params }) }));
      await expectServing(stdio, era);
      expect(stdio.out.slice(before).filter((m) => m.id === undefined || m.id === null)).toEqual([]);
    });

    it('ends a cancelled call without an answer, and a storm of 10,000 cancellations leaves it serving', async () => {
      const aborted = seen.aborted;
      const running = call(era, 'wait', { ms: 20_000 });
      stdio.send(running);
      await new Promise((resolve) => setTimeout(resolve, 50));
      stdio.send(era.request({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: running.id, reason: 'stop' } }));
      await waitFor(() => seen.aborted > aborted, 'the call to see its cancellation');
      // The id may be reused at once: the new request is answered, the cancelled one never is.
      stdio.send({ ...call(era, 'echo', { text: 'reused' }), id: running.id });
      expect(await stdio.answer(running.id)).toMatchObject({ result: { content: [{ text: 'echo: reused' }] } });
      // A plain call, answered without the SDK on a 2025 connection, is not answered once cancelled either.
      const plain = call(era, 'nap', { ms: 200 });
      stdio.send(plain);
      stdio.send(era.request({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: plain.id } }));
      const after = call(era, 'nap', { ms: 300 });
      stdio.send(after);
      await stdio.answer(after.id);
      expect(stdio.out.filter((m) => m.id === plain.id)).toEqual([]);
      let storm = '';
      for (let i = 0; i < 10_000; i++) storm += `${JSON.stringify(era.request({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i, reason: 'storm' } }))}\n`;
      stdio.send(storm.slice(0, -1));
      await expectServing(stdio, era);
      expect(stdio.out.filter((m) => m.id === running.id)).toHaveLength(1);
    });

    it('takes a _meta nested 100,000 deep, one of megabytes, and one with prototype-named keys, without polluting anything', async () => {
      const envelope = JSON.stringify(era.request({ params: {} }).params as Message)
        .slice(1, -1)
        .replace(/^"_meta":\{/, '')
        .replace(/\}$/, '');
      const depth = 100_000;
      const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const id = `deep${next++}`;
      stdio.send(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"meta","arguments":{},"_meta":{${envelope ? `${envelope},` : ''}"deep":${deep}}}}`);
      expect(keysOf(await stdio.answer(id))).toEqual(['deep']);

      const huge = call(era, 'meta', {}, { blob: 'x'.repeat(8 << 20), many: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])) });
      stdio.send(huge);
      expect(keysOf(await stdio.answer(huge.id))).toEqual(['blob', 'many']);

      const protoId = `proto${next++}`;
      stdio.send(
        `{"jsonrpc":"2.0","id":"${protoId}","method":"tools/call","params":{"name":"meta","arguments":{},"_meta":{${envelope ? `${envelope},` : ''}"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"toString":1,"progressToken":"p"}}}`,
      );
      expect(keysOf(await stdio.answer(protoId))).toEqual(['__proto__', 'constructor', 'toString', 'progressToken']);
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      await expectServing(stdio, era);
    });

    it('leaves out progress updates while the client does not read, sends them in order once it does, and keeps serving', async () => {
      const finished = seen.finished;
      stdio.hold();
      const request = call(era, 'progress', { n: 20_000 }, { progressToken: 'held' });
      stdio.send(request);
      await waitFor(() => seen.finished > finished, 'the tool to report all its progress');
      stdio.release();
      await stdio.answer(request.id);
      const sent = progressOf(stdio.out, 'held');
      // Before the output backs up a few hundred go out; after it, MAX_PENDING_PROGRESS wait and one more, not 20,000.
      expect(sent.length).toBeGreaterThan(MAX_PENDING_PROGRESS);
      expect(sent.length).toBeLessThan(2_000);
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
      expect(new Set(sent).size).toBe(sent.length);
      await expectServing(stdio, era);
    });

    it('leaves out log lines, empty ones too, while the client does not read, and says how many once it reads again', async () => {
      if (!era.modern) {
        const level = requestOf(era, 'logging/setLevel', { level: 'info' });
        stdio.send(level);
        await stdio.answer(level.id);
      }
      const finished = seen.finished;
      stdio.hold();
      const lines = 100_000;
      const request = call(era, 'logs', { n: lines, text: '' }, era.modern ? { 'io.modelcontextprotocol/logLevel': 'info' } : undefined);
      stdio.send(request);
      await waitFor(() => seen.finished > finished, 'the tool to log all its lines', { timeoutMs: 20_000 });
      stdio.release();
      await stdio.answer(request.id);
      // Every line, or those that went out and the note on the rest.
      const logged = await waitFor(() => {
        const messages = stdio.out.filter((m) => m.method === 'notifications/message').map((m) => (m.params as Message).data);
        return (messages.length >= lines || messages.some((data) => typeof data === 'string' && data.startsWith('['))) && messages;
      }, 'the log lines');
      const note = logged.find((data) => typeof data === 'string' && data.startsWith('[')) as string;
      const empty = logged.filter((data) => data === '').length;
      expect(empty).toBeLessThan(lines / 2);
      expect(note).toBe(`[${lines - empty} log lines were left out: the client did not take them as fast as they came]`);
      await expectServing(stdio, era);
    }, 30_000);
  });

  describe('stdio, 2025-11-25 session channels', () => {
    const era = LEGACY;
    let stdio: Stdio;
    beforeEach(async () => {
      stdio = await openEraStdio(app, era);
    });
    afterEach(() => stdio.close());

    it('refuses a logging/setLevel level the spec does not have with -32602 naming the levels, and filters ctx.log by a valid one', async () => {
      for (const level of ['loud', 'warn', 'DEBUG', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 5, null, ['debug'], { level: 'debug' }]) {
        const request = requestOf(era, 'logging/setLevel', { level });
        stdio.send(request);
        expect(await stdio.answer(request.id)).toMatchObject({
          error: { code: -32602, message: 'Invalid params for logging/setLevel: params.level must be one of debug, info, notice, warning, error, critical, alert, emergency.' },
        });
      }
      const missing = requestOf(era, 'logging/setLevel');
      stdio.send(missing);
      expect(await stdio.answer(missing.id)).toMatchObject({ error: { code: -32602 } });

      const level = requestOf(era, 'logging/setLevel', { level: 'warning' });
      stdio.send(level);
      expect(await stdio.answer(level.id)).toMatchObject({ result: {} });
      const quiet = call(era, 'logs', { n: 3, text: 'info line' });
      stdio.send(quiet);
      await stdio.answer(quiet.id);
      expect(stdio.out.filter((m) => m.method === 'notifications/message')).toEqual([]);
      await expectServing(stdio, era);
    });

    it('answers ping with any params or _meta, takes notifications/initialized twice, and a flood of roots/list_changed', async () => {
      for (const params of [{}, { extra: 1 }, { _meta: { progressToken: 'p' } }, { _meta: { __proto__: 1, constructor: 2 } }]) {
        const ping = requestOf(era, 'ping', params);
        stdio.send(ping);
        expect(await stdio.answer(ping.id)).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
      }
      const before = stdio.out.length;
      stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: { again: true } } });
      stdio.send(Array.from({ length: 5_000 }, () => '{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}').join('\n'));
      await expectServing(stdio, era);
      expect(stdio.out.slice(before)).toHaveLength(1);
    });

    it('answers a ping and takes notifications/initialized before initialize, as the SDK does', async () => {
      const fresh = await openStdio(app);
      try {
        fresh.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        fresh.send({ jsonrpc: '2.0', id: 'early', method: 'ping' });
        expect(await fresh.answer('early')).toEqual({ jsonrpc: '2.0', id: 'early', result: {} });
        for (const opening of era.stdioOpening) fresh.send(opening);
        await fresh.answer('open');
        await expectServing(fresh, era);
      } finally {
        await fresh.close();
      }
    });

    it('refuses subscriptions to hostile URIs, bounds them at 100 a session, and unsubscribes from what was never subscribed', async () => {
      const subscribe = async (uri: unknown) => {
        const request = requestOf(era, 'resources/subscribe', { uri });
        stdio.send(request);
        return stdio.answer(request.id);
      };
      expect(await subscribe('side://readme')).toMatchObject({ result: {} });
      for (const uri of ['side://nope', '__proto__', 'constructor', '']) expect(await subscribe(uri)).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^Resource not found/) } });
      expect(await subscribe('side://readme\n')).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/control characters/) } });
      expect(await subscribe(`side://${'x'.repeat(5_000)}`)).toMatchObject({ error: { code: -32602 } });
      for (const uri of [5, null, { uri: 'side://readme' }])
        expect(await subscribe(uri)).toMatchObject({ error: { code: -32602, message: 'Invalid params for resources/subscribe: params.uri must be a string.' } });
      for (let i = 1; i < 100; i++) expect(await subscribe(`side://items/${i}`)).toMatchObject({ result: {} });
      expect(await subscribe('side://items/100')).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/already holds the most subscriptions it may \(100\)/) } });
      // Subscribing again to one held is no new subscription.
      expect(await subscribe('side://items/1')).toMatchObject({ result: {} });
      for (const uri of ['side://never', '__proto__', 'x'.repeat(5_000)]) {
        const request = requestOf(era, 'resources/unsubscribe', { uri });
        stdio.send(request);
        expect(await stdio.answer(request.id)).toEqual({ jsonrpc: '2.0', id: request.id, result: {} });
      }
      await expectServing(stdio, era);
    });
  });

  describe.each(HTTP_ENDPOINTS)('HTTP %s', (_label, open, stateless) => {
    let endpoint: HttpEndpoint;
    beforeAll(async () => {
      endpoint = await open(app, stateless);
    });
    afterAll(() => endpoint.close());

    describe.each(ERAS)('$name', (era: Era) => {
      /** The headers of a new client: its own session, when the endpoint keeps them for this era. */
      const clientHeaders = async (): Promise<Record<string, string>> => (stateless || era.modern ? {} : { 'mcp-session-id': await openRawSession(endpoint.url), 'mcp-protocol-version': era.version });
      const ask = async (message: Message, headers: Record<string, string>) => {
        const response = await post(endpoint.url, message, { ...headers, ...era.headers(message) });
        return { status: response.status, messages: await messagesOf(response) };
      };
      const expectAlive = async (headers: Record<string, string>) => {
        const alive = call(era, 'echo', { text: 'alive' });
        expect((await ask(alive, headers)).messages).toContainEqual(expect.objectContaining({ id: alive.id, result: expect.objectContaining({ content: [{ type: 'text', text: 'echo: alive' }] }) }));
      };

      it("another client's cancellation does not end a call; cancellations of nothing are taken (202); each call gets its own progress under a shared token", async () => {
        const mine = await clientHeaders();
        const theirs = await clientHeaders();
        const running = call(era, 'wait', { ms: 300 });
        const answered = ask(running, mine);
        await new Promise((resolve) => setTimeout(resolve, 50));
        for (const params of [{ requestId: running.id }, { requestId: '__proto__' }, { requestId: 1e300 }, {}, { requestId: 'x', reason: 'r'.repeat(100_000) }]) {
          const cancel = era.request({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
          const response = await post(endpoint.url, cancel, { ...theirs, ...era.headers(cancel) });
          expect(response.status).toBe(202);
          await response.text();
        }
        expect((await answered).messages).toContainEqual(expect.objectContaining({ id: running.id, result: expect.objectContaining({ content: [{ type: 'text', text: 'waited' }] }) }));

        const first = call(era, 'progress', { n: 3 }, { progressToken: 'shared' });
        const second = call(era, 'progress', { n: 3 }, { progressToken: 'shared' });
        const [a, b] = await Promise.all([ask(first, mine), ask(second, mine)]);
        for (const { messages } of [a, b]) expect(progressOf(messages, 'shared')).toEqual([1, 2, 3]);
        await expectAlive(mine);
      });

      it('takes a _meta nested 100,000 deep and one with prototype-named keys', async () => {
        const headers = await clientHeaders();
        const depth = 100_000;
        const request = call(era, 'meta', {}, { deep: 0 });
        const body = JSON.stringify(request).replace('"deep":0', `"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
        const deep = await post(endpoint.url, body, { ...headers, ...era.headers(request) });
        expect(deep.status).toBe(200);
        expect(keysOf((await messagesOf(deep)).find((m) => m.id === request.id)!)).toEqual(expect.arrayContaining(['deep']));
        const proto = call(era, 'meta', {}, { toString: 1 });
        const protoBody = JSON.stringify(proto).replace('"toString":1', '"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"toString":1');
        const answered = await post(endpoint.url, protoBody, { ...headers, ...era.headers(proto) });
        // The SDK's web-standard transport (the fetch handler's 2025 era) parses each message with its schemas, which drop a `__proto__` member: as the SDK does.
        expect(keysOf((await messagesOf(answered)).find((m) => m.id === proto.id)!)).toEqual(expect.arrayContaining(['constructor', 'toString']));
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        await expectAlive(headers);
      });

      it('answers a malformed progressToken 400 with -32600, and keeps serving', async () => {
        const headers = await clientHeaders();
        for (const token of [1e300, 1.5, { a: 1 }, null]) {
          const request = call(era, 'progress', { n: 1 }, { progressToken: token });
          const { status, messages } = await ask(request, headers);
          expect(status).toBe(400);
          expect(messages).toEqual([{ jsonrpc: '2.0', id: request.id, error: { code: -32600, message: INVALID_META } }]);
        }
        await expectAlive(headers);
      });
    });
  });

  describe.each([
    ['node listener', (stateless: boolean) => app.listen({ transport: 'http', port: 0, stateless, requestLogLevel: 'silent', exitOnSignal: false, maxBufferedBytes: 64 * 1024 })],
    [
      'fetch handler',
      async (stateless: boolean): Promise<HttpEndpoint> => {
        const handler = createFetchHandler(app, { stateless, logError: () => undefined, maxBufferedBytes: 64 * 1024 });
        const served = await serveFetch(handler);
        return { url: `${served.url}/mcp`, close: () => handler.close().then(() => served.close()) };
      },
    ],
  ] as const)('%s: an answer larger than maxBufferedBytes', (_label, open) => {
    it.each(ERAS.flatMap((era) => [false, true].map((stateless) => [era.name, stateless, era] as const)))('reaches a client that reads (%s, stateless %s)', async (_name, stateless, era) => {
      const endpoint = await open(stateless);
      try {
        const headers: Record<string, string> = stateless || era.modern ? {} : { 'mcp-session-id': await openRawSession(endpoint.url), 'mcp-protocol-version': era.version };
        // 256 KiB in one event, four times the bound, after a progress event that opened the stream.
        const request = call(era, 'big', { bytes: 256 * 1024 }, { progressToken: 'big' });
        const response = await post(endpoint.url, request, { ...headers, ...era.headers(request) });
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const answer = (await messagesOf(response)).find((m) => m.id === request.id);
        expect(((answer?.result as Message).content as { text: string }[])[0].text).toHaveLength(256 * 1024);
      } finally {
        await endpoint.close();
      }
    });
  });

  describe.each(ERAS)('fetch handler, a client that does not read its stream ($name)', (era: Era) => {
    it('drops the stream once megabytes wait unread, instead of keeping every event, and keeps serving', async () => {
      const handler = createFetchHandler(app, { logError: () => undefined });
      const ask = (message: Message, headers: Record<string, string> = {}) =>
        handler(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers, ...era.headers(message) },
            body: JSON.stringify(message),
          }),
        );
      try {
        let headers: Record<string, string> = {};
        if (!era.modern) {
          const opened = await ask(initializeBody());
          headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': era.version };
          await opened.text();
          await (await ask({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
        }
        const finished = seen.finished;
        // 5,000 progress events of 4 KiB: 20 MiB, more than the bound.
        const unread = await ask(call(era, 'flood', { n: 5_000, size: 4_096 }, { progressToken: 'unread' }), headers);
        expect(unread.headers.get('content-type')).toMatch(/^text\/event-stream/);
        await waitFor(() => seen.finished > finished, 'the tool to report all its progress', { timeoutMs: 20_000 });
        expect(5_000 * 4_096).toBeGreaterThan(16 * 1024 * 1024); // the default maxBufferedBytes
        await expect(unread.text()).rejects.toThrow();

        const alive = call(era, 'echo', { text: 'alive' });
        expect(await messagesOf(await ask(alive, headers))).toContainEqual(
          expect.objectContaining({ id: alive.id, result: expect.objectContaining({ content: [{ type: 'text', text: 'echo: alive' }] }) }),
        );
      } finally {
        await handler.close({ drainTimeoutMs: 100 });
      }
    }, 30_000);

    it('takes its bound from maxBufferedBytes, as the node listener does', async () => {
      const bounded = createFetchHandler(app, { logError: () => undefined, maxBufferedBytes: 256 * 1024 });
      const unbounded = createFetchHandler(app, { logError: () => undefined });
      const ask = async (handler: typeof bounded, message: Message) => {
        let headers: Record<string, string> = {};
        if (!era.modern) {
          const post = (body: unknown, extra: Record<string, string> = {}) =>
            handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...extra }, body: JSON.stringify(body) }));
          const opened = await post(initializeBody());
          headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': era.version };
          await opened.text();
          await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
        }
        return handler(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers, ...era.headers(message) },
            body: JSON.stringify(message),
          }),
        );
      };
      try {
        // 200 progress events of 4 KiB: 800 KiB, past 256 KiB and far below the default.
        const flood = () => call(era, 'flood', { n: 200, size: 4_096 }, { progressToken: 'bounded' });
        const finished = seen.finished;
        const dropped = await ask(bounded, flood());
        await waitFor(() => seen.finished > finished, 'the tool to report all its progress', { timeoutMs: 20_000 });
        await expect(dropped.text()).rejects.toThrow();
        const kept = await ask(unbounded, flood());
        expect((await kept.text()).length).toBeGreaterThan(200 * 4_096);
      } finally {
        await bounded.close({ drainTimeoutMs: 100 });
        await unbounded.close({ drainTimeoutMs: 100 });
      }
    }, 30_000);
  });
});

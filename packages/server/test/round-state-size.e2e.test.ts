import 'reflect-metadata';
import { ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createTestClient } from '@toolwright/server/testing';
import { Asking } from './fixtures/hostileAnswers';
import { listenInMemory } from './fixtures/memoryStdio';
import { modernRequest } from './fixtures/modernRequest';
import { serveFetch } from './fixtures/serveFetch';

/**
 * A 2026-07-28 round's `requestState` carries every answer accepted so far back to the client,
 * sealed, at about 4/3 of their size, and the client must send it back in its retry. A state
 * larger than the retry may be (an HTTP endpoint's `maxBodyBytes`, a stdio line's 16 MiB, or
 * `requestState.maxBytes`) is never handed out: the round fails at once with JSON-RPC -32602
 * naming the limit and the answer that made the state large, before the client is asked the next
 * question. Before: the client got a state it could never send back (its retry was refused with
 * 413, or a too-long stdio line), after answering one more question for nothing.
 * The `both` tool asks the client's model (`sample-1`), then the user (`elicit-2`): the model's
 * reply rides in the state of the second round.
 */
const MiB = 1024 * 1024;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'asking', version: '1.0.0', tools: [Asking] });
});

/** What refuses a state too large for the retry, up to the limit's own words. */
const TOO_LARGE = /^The answers to this call's questions would make a requestState of (\d+) bytes, /;
const reply = (text: string) => ({ role: 'assistant' as const, content: { type: 'text' as const, text }, model: 'm' });
/** The size the refusal gives a reply: its JSON's. */
const sizeOf = (text: string) => JSON.stringify(reply(text)).length;

/** A 2026-07-28 SDK v2 client over HTTP (the node listener) whose model replies with `text` and whose user accepts; counts the questions it is asked. */
async function clientOf(text: string, listen?: { maxBodyBytes: number }) {
  const asked = { sampling: 0, elicitation: 0 };
  const client = await createTestClient(app, {
    transport: 'http',
    protocol: '2026-07-28',
    sampling: () => (asked.sampling++, reply(text)),
    elicitation: () => (asked.elicitation++, { action: 'accept', content: { name: 'Ada' } }),
    ...(listen && { listen }),
  });
  return { client, asked };
}

describe('2026-07-28 over HTTP on 127.0.0.1: the node listener', () => {
  it('a reply just under the body limit fails the call at once with -32602 naming the limit and its key; the user is not asked the next question', async () => {
    const text = 'x'.repeat(4 * MiB - 4096);
    const { client, asked } = await clientOf(text);
    try {
      const error = (await client.callTool({ name: 'both', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: number; message?: string };
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(TOO_LARGE);
      expect(error?.message).toContain(
        "more than the client could send back: a request to this server may hold at most 4194304 bytes (an HTTP endpoint's maxBodyBytes, a stdio line's 16 MiB), and the retry repeats the call's arguments and _meta (",
      );
      expect(error?.message).toContain(
        `the largest: inputResponses['sample-1'] (${sizeOf(text)} bytes). Send smaller answers, or raise the server's request limit (maxBodyBytes, over HTTP); then start the call again without requestState.`,
      );
      expect(Number(TOO_LARGE.exec(error.message!)![1])).toBeGreaterThan(4 * MiB);
      // At once, counted rather than timed: the round failed before the user was asked (a hang fails at jest's timeout).
      expect(asked).toEqual({ sampling: 1, elicitation: 0 });
      // The server serves on, and a normal reply still completes both rounds.
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('a normal reply completes; so does one whose state, echoed with the last answer, still fits the body limit', async () => {
    for (const text of ['hi', 'y'.repeat(3_000_000)]) {
      const { client, asked } = await clientOf(text);
      try {
        const result = (await client.callTool({ name: 'both', arguments: {} })) as { content: { text: string }[]; isError?: boolean };
        expect(result.isError).toBeUndefined();
        expect(result.content[0].text).toBe(`${text} accept`);
        expect(asked).toEqual({ sampling: 1, elicitation: 1 });
      } finally {
        await client.close();
      }
    }
  });

  it("follows the endpoint's own maxBodyBytes", async () => {
    const { client, asked } = await clientOf('z'.repeat(200_000), { maxBodyBytes: 256 * 1024 });
    try {
      await expect(client.callTool({ name: 'both', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('a request to this server may hold at most 262144 bytes') as unknown as string,
      });
      expect(asked).toEqual({ sampling: 1, elicitation: 0 });
    } finally {
      await client.close();
    }
  });
});

describe('2026-07-28 over HTTP on 127.0.0.1: the fetch handler', () => {
  it('refuses a state larger than its maxBodyBytes leaves the retry, and completes a normal call', async () => {
    const handler = createFetchHandler(app, { maxBodyBytes: 256 * 1024, logError: () => undefined });
    const served = await serveFetch(handler);
    const url = `${served.url}/mcp`;
    const capabilities = ENVELOPE['io.modelcontextprotocol/clientCapabilities'];
    const call = (params: Record<string, unknown> = {}) => modernRequest(url, 'tools/call', { name: 'both', arguments: {}, ...params }, { capabilities });
    try {
      const first = await call();
      expect(first.resultType).toBe('input_required');
      const text = 'w'.repeat(250_000);
      const large = await call({ inputResponses: { 'sample-1': reply(text) }, requestState: first.requestState }).then(
        () => undefined,
        (e: unknown) => e as { code: number; message: string },
      );
      expect(large?.code).toBe(-32602);
      expect(large?.message).toContain("a request to this server may hold at most 262144 bytes (an HTTP endpoint's maxBodyBytes, a stdio line's 16 MiB)");
      expect(large?.message).toContain(`the largest: inputResponses['sample-1'] (${sizeOf(text)} bytes)`);

      const again = await call();
      const second = await call({ inputResponses: { 'sample-1': reply('hi') }, requestState: again.requestState });
      expect(second.resultType).toBe('input_required');
      const done = await call({ inputResponses: { 'elicit-2': { action: 'accept', content: { name: 'Ada' } } }, requestState: second.requestState });
      expect(done.content).toEqual([{ type: 'text', text: 'hi accept' }]);
    } finally {
      await Promise.all([handler.close(), served.close()]);
    }
  });
});

describe('2026-07-28 over stdio (raw lines, in memory)', () => {
  it('a reply that fits a line but whose state would not fit the next one is -32602; the session serves on', async () => {
    const session = await listenInMemory(app);
    try {
      let calls = 0;
      const call = async (retry: string): Promise<{ result?: { requestState?: string; content?: unknown }; error?: { code: number; message: string } }> => {
        const id = `call-${++calls}`;
        session.sendLine(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"both","arguments":{}${retry},"_meta":${JSON.stringify(ENVELOPE)}}}`);
        return session.answer(id) as never;
      };
      const first = await call('');
      const large = await call(`,"inputResponses":{"sample-1":${JSON.stringify(reply('v'.repeat(13 * MiB)))}},"requestState":${JSON.stringify(first.result!.requestState)}`);
      expect(large.error?.code).toBe(-32602);
      expect(large.error?.message).toContain('a request to this server may hold at most 16777216 bytes');
      expect(large.error?.message).toContain(`the largest: inputResponses['sample-1'] (${sizeOf('v'.repeat(13 * MiB))} bytes)`);
      const again = await call('');
      const next = await call(`,"inputResponses":{"sample-1":${JSON.stringify(reply('hi'))}},"requestState":${JSON.stringify(again.result!.requestState)}`);
      const done = await call(`,"inputResponses":{"elicit-2":{"action":"decline"}},"requestState":${JSON.stringify(next.result!.requestState)}`);
      expect(done.result?.content).toEqual([{ type: 'text', text: 'hi decline' }]);
    } finally {
      await session.close();
    }
  });
});

describe('requestState.maxBytes', () => {
  it('bounds the state on any transport (here in memory, which has no limit of its own), naming the option', async () => {
    const bounded = await createApp({ name: 'asking', version: '1.0.0', tools: [Asking], requestState: { maxBytes: 64 * 1024 } });
    const asked = { elicitation: 0 };
    const client = await createTestClient(bounded, {
      protocol: '2026-07-28',
      sampling: () => reply('u'.repeat(60_000)),
      elicitation: () => (asked.elicitation++, { action: 'accept', content: { name: 'Ada' } }),
    });
    try {
      await expect(client.callTool({ name: 'both', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(
          /^The answers to this call's questions would make a requestState of \d+ bytes, more than this server hands out \(requestState\.maxBytes is 65536\)\. .* the largest: inputResponses\['sample-1'\] \(60068 bytes\)\. Send smaller answers, or raise requestState\.maxBytes; then start the call again without requestState\.$/,
        ) as unknown as string,
      });
      expect(asked.elicitation).toBe(0);
    } finally {
      await client.close();
    }
  });

  it("createServer's maxRequestBytes, for a transport of your own, must be a positive number of bytes", async () => {
    expect(() => app.createServer({ era: 'modern', maxRequestBytes: 0 })).toThrow(new ConfigError('createServer: maxRequestBytes must be a positive number of bytes, got 0.'));
  });

  it('must be an integer of at least 1024', async () => {
    for (const maxBytes of [0, 100, 1.5, Number.NaN]) {
      await expect(createApp({ name: 'asking', version: '1.0.0', tools: [Asking], requestState: { maxBytes } })).rejects.toThrow(ConfigError);
    }
    await expect(createApp({ name: 'asking', version: '1.0.0', tools: [Asking], requestState: { maxBytes: 100 } })).rejects.toThrow(
      "requestState.maxBytes must be an integer of at least 1024 (bytes), got 100. Leave it out to bound states by the transport's request limit alone.",
    );
  });
});

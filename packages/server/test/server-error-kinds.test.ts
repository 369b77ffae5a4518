/**
 * What the server throws carries a kind a caller can switch on: 'config' for a wrong option or
 * argument, 'protocol' for what a client sent, 'internal' for a bug to report. One case per
 * kind of site; no-plain-errors.test.ts keeps new plain `Error`s out.
 */
import { ConfigError, ToolwrightError } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createHttpHandler, InMemoryEventStore } from '@toolwright/server/http';
import { NodeStreamableTransport } from '../src/http/NodeStreamableTransport';
import { ProtocolError } from '../src/sdk/ProtocolError';
import { assertSupportedNode } from '../src/app/assertSupportedNode';
import { InputRound } from '../src/roundtrip/InputRound';
import { RoundTripError } from '../src/roundtrip/RoundTripError';
import { jsonObject } from '../src/sdk/toWire';
import { HttpTools } from './fixtures/http.tools';

const caught = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

describe('the server throws Toolwright errors with a kind', () => {
  it.each<[string, () => unknown, RegExp]>([
    ['an unsupported Node.js', () => assertSupportedNode('18.20.0'), /needs Node\.js/],
    ['an invalid cache hint', () => createApp({ name: 'x', version: '1', tools: [HttpTools], cache: { lists: { ttlMs: -1 } } }), /cache hint for tools\/list/],
    [
      'createHttpHandler with auth but no auth.resource',
      async () => createHttpHandler(await createApp({ name: 'x', version: '1', tools: [HttpTools] }), { auth: { authorizationServers: ['https://as.example'], verifyToken: async () => undefined } }),
      /auth\.resource is required/,
    ],
    [
      'a transport started twice',
      async () => {
        const t = new NodeStreamableTransport();
        await t.start();
        await t.start();
      },
      /already started/,
    ],
    [
      'a value JSON cannot carry in a descriptor',
      () => jsonObject({ meta: { at: () => 1 } }),
      /^Toolwright: a descriptor has 'meta\.at' set to a function, which JSON cannot carry to clients\. Give a string, a finite number/,
    ],
    [
      'two different questions with one key',
      () => {
        const round = new InputRound(undefined, undefined);
        try {
          round.resolve({ method: 'roots/list' } as never, 'k');
        } catch {
          /* the interrupt that records the question */
        }
        round.resolve({ method: 'elicitation/create', params: { message: 'other' } } as never, 'k');
      },
      /Two different questions use the key 'k'/,
    ],
  ])("'config' for %s", async (_, run, message) => {
    const error = await caught(run);
    expect((error as Error).message).toMatch(message);
    expect(ConfigError.is(error)).toBe(true);
    expect(error).toBeInstanceOf(ConfigError);
  });

  it("'internal' for a replay after an event id the store does not have", async () => {
    const error = await caught(() => new InMemoryEventStore().replayEventsAfter('42', { send: async () => undefined }));
    expect(ToolwrightError.is(error)).toBe(true);
    expect((error as ToolwrightError).kind).toBe('internal');
    expect((error as Error).message).toMatch(/unknown event id '42'/);
  });

  it("owns the kind 'protocol' with ProtocolError: the base class refuses it", () => {
    expect(ProtocolError.KIND).toBe('protocol');
    expect(() => new ToolwrightError('x', { kind: ProtocolError.KIND } as never)).toThrow("the kind 'protocol' belongs to ProtocolError");
  });

  it("'protocol' with -32602 for a round the client sent wrong", () => {
    const error = new RoundTripError('requestState must be the string the server sent.');
    expect(ProtocolError.is(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'protocol', code: -32602, name: 'RoundTripError' });
  });
});

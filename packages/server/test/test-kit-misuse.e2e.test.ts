/** The test kit used wrongly, as an app team might: each mistake fails at once, saying what and how to fix it. */
import 'reflect-metadata';
import { Service } from 'typedi';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';

@Service()
class Clock {
  now(): string {
    return 'real time';
  }
}

@Service()
class KitTools {
  constructor(private readonly clock: Clock) {}

  @Tool({ description: 'The time.' })
  time(): string {
    return this.clock.now();
  }

  @Tool({ description: 'A picture, no text.' })
  picture() {
    return { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] };
  }
}

describe('test kit misuse', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'kit-misuse', version: '0.0.0', tools: [KitTools] });
  });

  it('refuses a forgotten await on createApp, and a missing app, before connecting', async () => {
    await expect(createTestClient(createApp({ name: 'kit-misuse', version: '0.0.0', tools: [KitTools] }) as never)).rejects.toThrow(
      'createTestClient: got a Promise, not an app. Await the app first: createTestClient(await createApp({ ... })).',
    );
    await expect(createTestClient(undefined as never)).rejects.toThrow(/the first argument must be the app createApp returned.*got undefined/);
  });

  it.each([
    ['a plain object', { Clock: { now: () => 'fake' } }, /overrides must be a Map or a list of \[class, instance\] pairs, got an object/],
    ['a class name', [['Clock', { now: () => 'fake' }]], /overrides\[0\] is keyed by the string 'Clock'; the key must be the service class/],
    ['a lone class', [Clock], /overrides\[0\] must be a \[class, instance\] pair/],
    ['an Object.prototype name', [['__proto__', {}]], /overrides\[0\] is keyed by the string '__proto__'/],
  ])('refuses overrides given as %s, and the app keeps serving', async (_, overrides, message) => {
    await expect(createTestClient(app, { overrides: overrides as never })).rejects.toThrow(message);
    const client = await createTestClient(app, { overrides: new Map([[Clock, { now: () => 'fake time' }]]) });
    try {
      expect(await toolText(client.callTool({ name: 'time', arguments: {} }))).toBe('fake time');
    } finally {
      await client.close();
    }
  });

  it.each([{ requestLogLevel: 'warn' as const }, { logLevel: 'warn' as const }])(
    'over HTTP, takes a request log level the test asks for (%j), where the kit default disagreed with it',
    async (listen) => {
      const client = await createTestClient(app, { transport: 'http', listen });
      try {
        expect(await toolText(client.callTool({ name: 'time', arguments: {} }))).toBe('real time');
      } finally {
        await client.close();
      }
    },
  );

  it('a request that is not valid JSON-RPC (params: []) rejects that request, and the client and the process go on', async () => {
    const client = await createTestClient(app);
    await expect(client.request({ method: 'tools/list', params: [] as never })).rejects.toThrow(/createTestClient: the client sent a message that is not valid JSON-RPC/);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('time');
    await client.close();
  });

  it('toolText fails on a result with no text block instead of answering an empty string', async () => {
    const client = await createTestClient(app);
    try {
      await expect(toolText(client.callTool({ name: 'picture', arguments: {} }))).rejects.toThrow(/Expected text content, but the result has no text block[^]*"type": "image"/);
    } finally {
      await client.close();
    }
  });
});

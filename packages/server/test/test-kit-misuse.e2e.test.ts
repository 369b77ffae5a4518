/** The test kit used wrongly, as an app team might: each mistake fails at once, saying what and how to fix it. */
import 'reflect-metadata';
import { Service } from 'typedi';
import { ConfigError, Tool } from '@toolwright/core';
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

  it.each([
    [
      'an unknown transport',
      { transport: 'htp' },
      `createTestClient: unknown transport "htp". Use 'memory' (the default: the app in this process), 'http' (the app on a free port of 127.0.0.1) or 'stdio' (a server process: createTestClient({ transport: 'stdio', command, args }), without an app).`,
    ],
    ['an unknown era', { era: 'new' }, `createTestClient: unknown era "new". Use 'legacy' (2025-11-25, the default) or 'modern' (2026-07-28), or give protocol instead.`],
    [
      'a misspelt option',
      { overide: [] },
      'Toolwright: createTestClient has no option `overide` (did you mean `overrides`?). Fix the name or remove it; the options are on the Testing page of the docs.',
    ],
    [
      'a misspelt option over HTTP',
      { transport: 'http', bearr: 'token' },
      "Toolwright: createTestClient({ transport: 'http' }) has no option `bearr` (did you mean `bearer`?). Fix the name or remove it; the options are on the Testing page of the docs.",
    ],
    [
      "stdio's stderr in memory",
      { stderr: 'ignore' },
      "createTestClient: `stderr` is an option of transport 'stdio', not of transport 'memory' (the default), so it would be ignored. Remove it, or call createTestClient({ transport: 'stdio', command, args }) without an app (a server process).",
    ],
    [
      "stdio's command in memory",
      { command: 'node' },
      "createTestClient: `command` is an option of transport 'stdio', not of transport 'memory' (the default), so it would be ignored. Remove it, or call createTestClient({ transport: 'stdio', command, args }) without an app (a server process).",
    ],
    [
      "HTTP's bearer in memory",
      { bearer: 'token' },
      "createTestClient: `bearer` is an option of transport 'http', not of transport 'memory' (the default), so it would be ignored. Remove it, or pass transport: 'http' (the app on a free port of 127.0.0.1).",
    ],
    [
      "HTTP's listen with transport: 'memory' named",
      { transport: 'memory', listen: { stateless: true } },
      "createTestClient: `listen` is an option of transport 'http', not of transport 'memory' (the default), so it would be ignored. Remove it, or pass transport: 'http' (the app on a free port of 127.0.0.1).",
    ],
    [
      "memory's overrides over HTTP",
      { transport: 'http', overrides: [] },
      "createTestClient: overrides apply in memory (the default transport), where the test owns the server; over 'http' the listener builds its servers.",
    ],
    ['options that are not an object', 'http', `createTestClient: the options must be an object such as { transport: 'http' } or { era: 'modern' }, got "http".`],
  ])('refuses %s before connecting, and the app keeps serving', async (_, options, message) => {
    const started: string[] = [];
    const hooked = await createApp({ name: 'kit-misuse', version: '0.0.0', tools: [KitTools], onStart: () => void started.push('start') });
    const refused = await createTestClient(hooked, options as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(message);
    // No listener opened (over HTTP the start hooks would have run).
    expect(started).toEqual([]);
    const client = await createTestClient(app);
    try {
      expect(await toolText(client.callTool({ name: 'time', arguments: {} }))).toBe('real time');
    } finally {
      await client.close();
    }
  });

  it.each([
    ["HTTP's headers", { headers: {} }, "`headers` is an option of transport 'http', not of transport 'stdio'"],
    ["memory's overrides", { overrides: [] }, "`overrides` is an option of transport 'memory' (the default), not of transport 'stdio'"],
    ['a misspelt option', { argz: [] }, "Toolwright: createTestClient({ transport: 'stdio' }) has no option `argz` (did you mean `args`?)."],
    ['an unknown stderr', { stderr: 'pipe' }, `createTestClient: unknown stderr "pipe". Use 'inherit' (the server's logs shown, the default) or 'ignore' (dropped).`],
    ['an unknown era', { era: 'legacyy' }, 'createTestClient: unknown era "legacyy".'],
  ])('over stdio, refuses %s before it starts the process', async (_, extra, message) => {
    // The command would fail to start; the refusal comes first.
    await expect(createTestClient({ transport: 'stdio', command: '/nonexistent/server', ...extra } as never)).rejects.toThrow(message);
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

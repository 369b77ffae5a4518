import { Client } from '@modelcontextprotocol/client';
import type { App } from '@toolwright/server';
import { ConfigError, ToolwrightError } from '@toolwright/core';
import { createTestClient, toolError, toolText, type TestClient, type TestClientOptions, type TestProtocol } from '@toolwright/server/testing';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The test kit through real servers: the same app (fixtures/kit-app.js) in memory, served
 * over HTTP on a free port, and as a stdio child process; each in both protocol eras, with
 * the answers to elicitation, sampling and roots given as options, and a caller given as `auth`.
 */
const { createKitApp } = require('./fixtures/kit-app.js') as { createKitApp: () => Promise<App> };
const FIXTURE = join(__dirname, 'fixtures', 'kit-app.js');

type Mode = 'memory' | 'http' | 'stdio';
const rows = (['memory', 'http', 'stdio'] as const).flatMap((mode) => (['2025-11-25', '2026-07-28'] as const).map((protocol) => ({ mode, protocol })));

describe.each(rows)('$mode, $protocol', ({ mode, protocol }: { mode: Mode; protocol: TestProtocol }) => {
  let app: App;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    app = await createKitApp();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  /** A client for this row, with `options` on top. */
  async function connect(options: Omit<TestClientOptions, 'transport' | 'protocol'> = {}): Promise<TestClient> {
    const client =
      mode === 'stdio'
        ? await createTestClient({ ...options, transport: 'stdio', command: process.execPath, args: [FIXTURE], stderr: 'ignore', protocol })
        : await createTestClient(app, { ...options, transport: mode, protocol });
    clients.push(client);
    return client;
  }

  it('connects with the SDK v2 client, which speaks the era asked for, and serves the app', async () => {
    const client = await connect();
    expect(client).toBeInstanceOf(Client);
    expect((client as Client).getNegotiatedProtocolVersion()).toBe(protocol);
    expect(client.getServerVersion()).toMatchObject({ name: 'kit', version: '1.2.3' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ask', 'visit', 'summarize', 'roots', 'whoami']);
    expect(await toolText(client.callTool({ name: 'whoami', arguments: {} }))).toBe('anonymous');
  });

  it('answers elicitation from a list, in order', async () => {
    const client = await connect({
      elicitation: [
        { action: 'accept', content: { name: 'Ada' } },
        { action: 'accept', content: { city: 'London' } },
      ],
    });
    expect(await toolText(client.callTool({ name: 'ask', arguments: {} }))).toBe(`Ada from London (${protocol === '2026-07-28' ? 'modern' : 'legacy'})`);
  });

  it('answers elicitation with a function of the question, and a URL elicitation', async () => {
    const asked: string[] = [];
    const client = await connect({
      elicitation: (request) => {
        asked.push(request.message);
        if (request.mode === 'url') return { action: 'accept' };
        return request.message === 'Your name?' ? { action: 'accept', content: { name: 'Grace' } } : { action: 'decline' };
      },
    });
    expect(await toolText(client.callTool({ name: 'ask', arguments: {} }))).toMatch(/^Grace from decline/);
    expect(await toolText(client.callTool({ name: 'visit', arguments: {} }))).toBe('visit: accept');
    expect(asked).toEqual(['Your name?', 'Your city?', 'Sign in to continue.']);
  });

  it('answers sampling with text, or with a function', async () => {
    const text = await connect({ sampling: 'A short summary.' });
    expect(await toolText(text.callTool({ name: 'summarize', arguments: { text: 'a long text' } }))).toBe('toolwright-test-model: A short summary.');
    const fn = await connect({ sampling: (request) => ({ role: 'assistant', content: { type: 'text', text: `${request.maxTokens} tokens` }, model: 'mine' }) });
    expect(await toolText(fn.callTool({ name: 'summarize', arguments: { text: 'x' } }))).toBe('mine: 50 tokens');
  });

  it('answers roots/list', async () => {
    const client = await connect({ roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b' }] });
    expect(await toolText(client.callTool({ name: 'roots', arguments: {} }))).toBe('file:///work/a file:///work/b');
  });

  it('without an answer, declares no capability: the call fails for it', async () => {
    const client = await connect();
    const call = client.callTool({ name: 'summarize', arguments: { text: 'x' } });
    // 2025: a tool error the model reads; 2026-07-28: the request is refused (a missing client capability).
    if (protocol === '2026-07-28') await expect(call).rejects.toThrow(/no 'sampling' capability/);
    else expect(await toolError(call)).toMatch(/no 'sampling' capability/);
  });

  it('acts as the caller given in auth: scopes and roles open tools, and the members see them', async () => {
    const client = await connect({ auth: { scopes: ['notes:write'], roles: ['admin'], clientId: 'ci' } });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['write', 'purge']));
    expect(await toolText(client.callTool({ name: 'write', arguments: { note: 'n1' } }))).toBe('wrote n1');
    expect(await toolText(client.callTool({ name: 'purge', arguments: {} }))).toBe('purged');
    expect(JSON.parse(await toolText(client.callTool({ name: 'whoami', arguments: {} })))).toMatchObject({ clientId: 'ci', scopes: ['notes:write'], roles: ['admin'] });
  });

  it('a caller without the scope does not see the tool', async () => {
    const client = await connect({ auth: { scopes: ['notes:read'] } });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('write');
  });

  if (mode !== 'stdio') {
    it('passes claims through to authInfo.extra', async () => {
      const client = await connect({ auth: { scopes: [], claims: { sub: 'alice', tenant: 't1' } } });
      expect(JSON.parse(await toolText(client.callTool({ name: 'whoami', arguments: {} })))).toMatchObject({ sub: 'alice', claims: { sub: 'alice', tenant: 't1' } });
    });
  }
});

describe('createTestClient options', () => {
  let app: App;
  beforeAll(async () => {
    app = await createKitApp();
  });

  it('over HTTP, sends a bearer token to an app that checks tokens itself', async () => {
    const verifyToken = (token: string) => (token === 'secret' ? { token, clientId: 'c', scopes: ['notes:write'] } : undefined);
    const listen = { auth: { verifyToken, authorizationServers: ['https://auth.example.com'] } };
    const client = await createTestClient(app, { transport: 'http', bearer: 'secret', listen });
    try {
      expect(await toolText(client.callTool({ name: 'write', arguments: { note: 'x' } }))).toBe('wrote x');
    } finally {
      await client.close();
    }
    await expect(createTestClient(app, { transport: 'http', bearer: 'wrong', listen })).rejects.toThrow();
  });

  it('stops the HTTP listener with the client', async () => {
    const client = await createTestClient(app, { transport: 'http', protocol: '2026-07-28' });
    const url = (client as unknown as { _transport?: { _url?: URL } })._transport?._url;
    await client.close();
    expect(url).toBeInstanceOf(URL);
    await expect(fetch(url!, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('says what is wrong with contradicting or impossible options', async () => {
    await expect(createTestClient(app, { protocol: '2025-11-25', era: 'modern' } as never)).rejects.toThrow(/protocol '2025-11-25' is the legacy era/);
    await expect(createTestClient(app, { protocol: '2024-11-05' } as never)).rejects.toThrow(/unknown protocol '2024-11-05'/);
    await expect(createTestClient(app, { transport: 'stdio', command: 'node' } as never)).rejects.toThrow(/without an app/);
    await expect(createTestClient({ transport: 'stdio', command: process.execPath, args: [FIXTURE], auth: { claims: { a: 1 } } })).rejects.toThrow(/claims cannot reach a stdio server/);
  });

  // A server process that stopped before answering (not built yet, a wrong path, a failing start
  // hook) failed createTestClient with the SDK's bare 'Connection closed', naming neither the
  // process nor why it stopped, and with stderr: 'ignore' nothing else said it either.
  it('says which server process stopped before answering, and why when its stderr says so', async () => {
    const crashes = ['-e', 'console.error("Error: Cannot find module \'/app/dist/server.js\'"); process.exit(1)'];
    for (const stderr of ['ignore', 'inherit'] as const) {
      const written = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const failure = await createTestClient({ transport: 'stdio', command: process.execPath, args: crashes, stderr }).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(failure?.message).toBe(
          `createTestClient: the server process \`${process.execPath} -e 'console.error("Error: Cannot find module '\\''/app/dist/server.js'\\''"); process.exit(1)'\` stopped before it answered (Connection closed). ` +
            "The end of its stderr:\nError: Cannot find module '/app/dist/server.js'",
        );
        // Shown as it was before when asked for, and not when ignored.
        expect(written.mock.calls.map(([chunk]) => String(chunk)).join('')).toBe(stderr === 'inherit' ? "Error: Cannot find module '/app/dist/server.js'\n" : '');
      } finally {
        written.mockRestore();
      }
    }
    // The 2026-07-28 era said the same with no stderr: the SDK asked a short-lived copy of the process, whose stderr and exit it kept to itself.
    const modern = await createTestClient({ transport: 'stdio', protocol: '2026-07-28', command: process.execPath, args: crashes, stderr: 'ignore' }).catch((error: Error) => error);
    expect(modern).toBeInstanceOf(ToolwrightError);
    expect((modern as Error).message).toBe(
      `createTestClient: the server process \`${process.execPath} -e 'console.error("Error: Cannot find module '\\''/app/dist/server.js'\\''"); process.exit(1)'\` stopped before it answered ` +
        '(Version negotiation failed: the connection closed during the server/discover probe before the server offered pinned protocol version 2026-07-28 (no fallback in pin mode)). ' +
        "The end of its stderr:\nError: Cannot find module '/app/dist/server.js'",
    );
  });

  it('fails a wrong option with a ConfigError that says how to fix it', async () => {
    for (const wrong of [
      createTestClient(app, { protocol: '2024-11-05' } as never),
      createTestClient(app, { protocol: '2026-07-28', era: 'legacy' }),
      createTestClient(app, { transport: 'stdio', command: 'node' } as never),
      createTestClient(Promise.resolve(app) as never),
    ]) {
      await expect(wrong).rejects.toBeInstanceOf(ConfigError);
    }
  });

  /** The message createTestClient fails with over stdio, for the process `node args`. */
  const connectFailure = (args: string[], protocol: TestProtocol = '2025-11-25') =>
    createTestClient({ transport: 'stdio', protocol, command: process.execPath, args, stderr: 'ignore' }).then(
      () => 'connected',
      (error: Error) => error.message,
    );

  // Every failed connect was said to be a process that "stopped before it answered", also one
  // that was running and had answered, and one that never started.
  it("says the process stopped only when it did; else passes on the SDK's error, naming the command", async () => {
    const answersAnOldVersion = [
      '-e',
      `process.stdin.once('data', (d) => { const m = JSON.parse(String(d).split('\\n')[0]); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '1999-01-01', capabilities: {}, serverInfo: { name: 'old', version: '1' } } }) + '\\n'); setInterval(() => undefined, 1000); });`,
    ];
    expect(await connectFailure(answersAnOldVersion)).toMatch(/^createTestClient: connecting to the server process `.*` failed: Server's protocol version is not supported: 1999-01-01\.$/);
    const missing = await createTestClient({ transport: 'stdio', command: '/nonexistent/server', args: [], stderr: 'ignore' }).catch((error: Error) => error.message);
    expect(missing).toBe('createTestClient: connecting to the server process `/nonexistent/server` failed: spawn /nonexistent/server ENOENT.');
  });

  // The command was joined with spaces, so an argument holding spaces or quotes could not be run by hand.
  it('quotes the command as a shell reads it: pasted into sh, it runs the same process', async () => {
    const args = ['-e', `console.error("it's " + process.argv.slice(1).join('|')); process.exit(3)`, 'two words', "it's", '$HOME', ''];
    const failure = await connectFailure(args);
    const command = /`(.*)` stopped before it answered/.exec(failure)![1];
    const run = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 3, stderr: "it's two words|it's|$HOME|\n" });
    expect(failure).toContain("The end of its stderr:\nit's two words|it's|$HOME|");
  });

  // 4,096 bytes that are not UTF-8 filled the quoted tail with 2,000 U+FFFD and pushed out the line that said why.
  it('describes binary output at the end of stderr instead of quoting it, and keeps the text before it', async () => {
    const failure = await connectFailure([
      '-e',
      `process.stderr.write('Error: the real reason\\n'); process.stderr.write(Buffer.alloc(4096, 0xff)); process.stderr.write(Buffer.alloc(64, 0)); process.exit(1)`,
    ]);
    expect(failure).toMatch(/stopped before it answered \(Connection closed\)\. The end of its stderr:\nError: the real reason\n\[binary output left out\]$/);
  });

  it('types the client as the SDK v2 Client in both eras (compile-time checks)', async () => {
    const legacy: Client = await createTestClient(app);
    const modern: Client = await createTestClient(app, { era: 'modern' });
    const either: TestClient[] = [legacy, modern];
    await Promise.all(either.map((c) => c.close()));
  });
});

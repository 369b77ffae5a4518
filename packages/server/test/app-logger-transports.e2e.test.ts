/**
 * `createApp({ logger })` is where the framework logs: the transports write what failed there
 * too (a malformed stdio message, an HTTP request that failed, a body read before the endpoint
 * got it, a fetch app whose start failed, the SDK's warning that `jsonResponse` drops a call's
 * notifications), bounded as stderr is, and nothing of it reaches stderr or the console. An explicit `logError` of the fetch handler still wins.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Param, Tool, type ToolLogger } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { AuthorizationServerMount } from '@toolwright/server/auth';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { initializeBody, post } from './fixtures/httpHelpers';
import { ERAS, MODERN } from './fixtures/eras';
import { listenInMemory } from './fixtures/memoryStdio';

class Echo {
  @Tool({ description: 'Answers with its text.' })
  echo(@Param('text') text: string): string {
    return text;
  }
}

interface Line {
  level: string;
  message: string;
  data?: unknown;
}

/** A logger that keeps its lines, as an app's pino or winston would take them. */
function recordingLogger(): { lines: Line[]; logger: ToolLogger } {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, data?: unknown) => void lines.push({ level, message, data });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/**
 * The count line of the default stderr logger's throttle, which all stderr loggers of a process share. These
 * apps log elsewhere, so such a line comes from an earlier test file of this jest worker: one that flooded the
 * default logger and left its count due at the end of a 10 s window.
 */
const OTHER_FILES_COUNT = /^\[toolwright\] (warn|error) [^:\n]*: \d+ more (warn|error) line\(s\) like the last ones were left out in 10 s\n$/;

/** Everything written to stderr or the console while `run` runs. */
async function outsideTheLogger(run: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const keep = (...args: unknown[]) => void written.push(args.map(String).join(' '));
  const spies = [
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (OTHER_FILES_COUNT.test(String(chunk)) ? true : written.push(String(chunk)) > 0)),
    jest.spyOn(console, 'error').mockImplementation(keep),
    jest.spyOn(console, 'warn').mockImplementation(keep),
    jest.spyOn(console, 'info').mockImplementation(keep),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written.join('');
}

/** A node server in front of `handler` that reads every request body first, as a body parser does, and keeps it. */
async function behindBodyParser(handler: HttpHandler): Promise<{ base: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => void handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the transports log in the app's logger", () => {
  it.each(ERAS)('stdio: a malformed message of a $name connection is warned of in the logger, and the connection keeps serving', async (era) => {
    const { lines, logger } = recordingLogger();
    const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
    let stdio!: Awaited<ReturnType<typeof listenInMemory>>;
    const outside = await outsideTheLogger(async () => {
      stdio = await listenInMemory(app);
      for (const message of era.stdioOpening) stdio.send(message);
      stdio.send(era.alive);
      expect(await stdio.answer(era.alive.id as string)).toHaveProperty('result');
      stdio.sendLine('{"jsonrpc":"2.0","id":1,"method":');
      expect(await stdio.answer(null)).toMatchObject({ error: { code: -32700 } });
      stdio.send({ ...era.alive, id: 'again' });
      expect(await stdio.answer('again')).toHaveProperty('result');
      await stdio.close();
    });
    expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^toolwright stdio: .*Parse error/) }]);
    expect(outside).toBe('');
  });

  it('stdio: a malformed first line, before any message picks the era, is warned of in the logger too', async () => {
    const { lines, logger } = recordingLogger();
    const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
    let stdio!: Awaited<ReturnType<typeof listenInMemory>>;
    const outside = await outsideTheLogger(async () => {
      stdio = await listenInMemory(app);
      stdio.sendLine('{"jsonrpc":"2.0","id":1,"method":');
      expect(await stdio.answer(null)).toMatchObject({ error: { code: -32700 } });
      await stdio.close();
    });
    expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^toolwright stdio: .*Parse error/) }]);
    expect(outside).toBe('');
  });

  describe('the node listener', () => {
    it('a request that fails in the handler: one error line with the error, in the logger', async () => {
      const { lines, logger } = recordingLogger();
      const failing: AuthorizationServerMount = {
        auth: { verifyToken: async () => ({ token: 't', clientId: 'c', scopes: [] }), resource: 'http://127.0.0.1/mcp' },
        paths: ['/oauth/boom'],
        handle: async () => undefined,
        handleNode: async () => {
          throw new Error('the mounted server broke');
        },
      };
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger, oauth: failing });
      const outside = await outsideTheLogger(async () => {
        const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent' });
        try {
          const response = await fetch(new URL('/oauth/boom', listener.url));
          expect(response.status).toBe(500);
          expect(await response.text()).not.toContain('the mounted server broke');
        } finally {
          await listener.close();
        }
      });
      expect(lines).toEqual([{ level: 'error', message: 'toolwright http: request failed', data: expect.objectContaining({ message: 'the mounted server broke' }) }]);
      expect(outside).toBe('');
    });

    it('a body read before the endpoint (Streamable HTTP and legacy SSE): the fix in the logger, a few lines of many', async () => {
      const { lines, logger } = recordingLogger();
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const handler = createHttpHandler(app, { requestLogLevel: 'silent', legacySse: true });
      const { base, server } = await behindBodyParser(handler);
      const outside = await outsideTheLogger(async () => {
        try {
          const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } });
          const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
          let text = '';
          while (!/data: (\/messages\S*)/.test(text)) text += (await reader.read()).value ?? '';
          const messages = `${base}${/data: (\/messages\S*)/.exec(text)![1]}`;
          const legacy = await fetch(messages, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initializeBody()) });
          expect(legacy.status).toBe(500);
          await reader.cancel();
          expect(lines).toHaveLength(1);
          for (let i = 0; i < 12; i++) expect((await post(`${base}/mcp`, initializeBody())).status).toBe(500);
        } finally {
          await handler.close();
          await new Promise((resolve) => server.close(resolve));
        }
      });
      // The legacy line, then 4 of the 12 Streamable HTTP lines (one kind, 5 per 10 s), then the count of the other 8, written by the close.
      expect(lines).toHaveLength(6);
      expect(lines.pop()).toEqual({ level: 'warn', message: expect.stringMatching(/^toolwright http: 8 more error\b.* line\(s\) like the last ones were left out in 10 s$/) });
      for (const line of lines) {
        expect(line.level).toBe('error');
        expect(line.message).toMatch(/^toolwright http: the body of a POST was read before the MCP endpoint got it .*Mount the endpoint before the body parser/);
      }
      expect(outside).toBe('');
    });

    it('listening beyond this machine with no auth: the warning in the logger', async () => {
      const { lines, logger } = recordingLogger();
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const outside = await outsideTheLogger(async () => {
        const listener = await app.listen({ transport: 'http', host: '0.0.0.0', port: 0, requestLogLevel: 'silent' });
        await listener.close();
      });
      expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^toolwright http: listening on 0\.0\.0\.0, beyond this machine, with no allowedHosts and no auth/) }]);
      expect(outside).toBe('');
    });

    it("jsonResponse: the SDK's warning that a 2026-07-28 call's notifications are dropped, in the logger, once", async () => {
      const { lines, logger } = recordingLogger();
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const outside = await outsideTheLogger(async () => {
        const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', jsonResponse: true });
        try {
          for (let i = 0; i < 2; i++) {
            const response = await post(listener.url, MODERN.alive, MODERN.headers(MODERN.alive));
            expect(response.headers.get('content-type')).toMatch(/^application\/json/);
            expect(await response.json()).toHaveProperty('result.tools');
          }
        } finally {
          await listener.close();
        }
      });
      expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^toolwright http: responseMode: 'json' drops mid-call notifications/) }]);
      expect(outside).toBe('');
    });

    it('a logger that throws does not fail the answer', async () => {
      const logger: ToolLogger = {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: () => {
          throw new Error('the log is full');
        },
      };
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const handler = createHttpHandler(app, { requestLogLevel: 'silent' });
      const { base, server } = await behindBodyParser(handler);
      try {
        expect((await post(`${base}/mcp`, initializeBody())).status).toBe(500);
      } finally {
        await handler.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('the fetch handler', () => {
    const spent = async (): Promise<Request> => {
      const request = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1' },
        body: JSON.stringify(initializeBody()),
      });
      await request.text();
      return request;
    };

    it("without logError: a request that fails is logged in the app's logger", async () => {
      const { lines, logger } = recordingLogger();
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const handler = createFetchHandler(app);
      const outside = await outsideTheLogger(async () => {
        expect((await handler(await spent())).status).toBe(500);
        await handler.close();
      });
      expect(lines).toEqual([{ level: 'error', message: expect.stringMatching(/^toolwright fetch: the body of POST \/mcp was read before the handler got the request/) }]);
      expect(outside).toBe('');
    });

    it("jsonResponse: the SDK's warning that a 2026-07-28 call's notifications are dropped, in the logger", async () => {
      const { lines, logger } = recordingLogger();
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const outside = await outsideTheLogger(async () => {
        const handler = createFetchHandler(app, { jsonResponse: true });
        await handler.close();
      });
      expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^toolwright fetch: responseMode: 'json' drops mid-call notifications/) }]);
      expect(outside).toBe('');
    });

    it("with logError: that one hears it, the app's logger does not", async () => {
      const { lines, logger } = recordingLogger();
      const app = await createApp({ name: 'logged', version: '1', tools: [Echo], logger });
      const heard: string[] = [];
      const handler = createFetchHandler(app, { logError: (message) => void heard.push(message) });
      expect((await handler(await spent())).status).toBe(500);
      await handler.close();
      expect(heard).toEqual([expect.stringMatching(/^toolwright fetch: the body of POST \/mcp was read/)]);
      expect(lines).toEqual([]);
    });

    it("app.fetch: a start hook that fails is logged once in the app's logger", async () => {
      const { lines, logger } = recordingLogger();
      const app: App = await createApp({
        name: 'logged',
        version: '1',
        tools: [Echo],
        logger,
        onStart: () => {
          throw new Error('the database is down');
        },
      });
      const outside = await outsideTheLogger(async () => {
        for (let i = 0; i < 2; i++) expect((await app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }))).status).toBe(500);
      });
      expect(lines.filter((line) => line.message.startsWith('toolwright fetch:'))).toEqual([
        { level: 'error', message: expect.stringMatching(/^toolwright fetch: the app did not start: .*the database is down$/) },
      ]);
      expect(outside).toBe('');
    });
  });
});

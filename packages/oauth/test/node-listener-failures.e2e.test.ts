import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createOAuthServer, MemoryOAuthStore } from '@toolwright/oauth';
import { authorizeUrl, pkcePair, registerClient } from './fixtures/rawFlow';

/**
 * `createServer(oauth.node(next))`, as the guide shows: node's http server drops the promise a
 * listener returns, so a rejection of it is unhandled and ends the process under node's default
 * (`--unhandled-rejections=throw`). The listener must never reject: a client that cut its request
 * off is not answered, a request that cannot be read is answered 400 `invalid_request`, and a
 * failure while answering (an endpoint's response that fails, a `next` that rejects) 500 with no
 * detail; each is logged. A `next` that rejects after it answered in full is only logged: the
 * client gets the whole answer it was sent. Here the listener's promises are kept to see how
 * each settled, and the server is asked again after each failure to see that it still serves.
 */
/** The size of the answer `next` sends in full before it rejects: more than a socket takes at once, so node still holds part of it. */
const ANSWERED_SIZE = 8 * 1024 * 1024;
type Line = { level: string; message: string };

describe('oauth.node when a request fails (the listener never rejects)', () => {
  let server: Server;
  let base: string;
  let port: number;
  const lines: Line[] = [];
  const outcomes: Promise<unknown>[] = [];
  /** What the host does to the next request before the listener gets it. */
  let before: (req: IncomingMessage) => void = () => {};

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    const log = (level: string) => (message: string) => void lines.push({ level, message });
    const oauth = await createOAuthServer({
      issuer: base,
      resource: `${base}/mcp`,
      scopes: ['a'],
      store: new MemoryOAuthStore(),
      // A login page of the app's own whose body fails while it is sent.
      signIn: () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              controller.error(new Error('the login page template is missing (secret-detail)'));
            },
          }),
          { headers: { 'content-type': 'text/html' } },
        ),
      logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    });
    const listener = oauth.node(async (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/next-fails') throw new Error('next failed (secret-detail)');
      if (req.url === '/next-fails-after-answering') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(ANSWERED_SIZE) });
        res.end(Buffer.alloc(ANSWERED_SIZE, 1));
        throw new Error('the audit write after the answer failed');
      }
      res.writeHead(404).end();
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      before(req);
      outcomes.push(
        listener(req, res).then(
          () => 'resolved',
          (error: unknown) => error,
        ),
      );
    });
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  /** Every listener promise so far resolved (none rejected), and the server still answers its metadata. */
  async function expectStillServing(): Promise<void> {
    expect(await Promise.all(outcomes)).toEqual(outcomes.map(() => 'resolved'));
    const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(metadata.status).toBe(200);
    await metadata.body?.cancel();
  }

  /** Sends `head` and `body` on a raw connection; resolves with what came back once a chunked answer ended (or the connection did). */
  function raw(head: string, body: string, options: { dropAfterMs?: number } = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      let received = '';
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`${head}\r\n\r\n${body}`);
        if (options.dropAfterMs !== undefined)
          setTimeout(() => {
            socket.destroy();
            resolve(received);
          }, options.dropAfterMs);
      });
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        received += chunk;
        if (received.endsWith('\r\n0\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
  }

  it('a /token body the client cuts off (Content-Length 1000, 11 bytes sent, connection dropped): nothing answered, nothing rejected', async () => {
    const head = `POST /token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000`;
    expect(await raw(head, 'grant_type=', { dropAfterMs: 100 })).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expectStillServing();
    expect(lines.filter((line) => line.level === 'debug' && /POST \/token: the client closed the connection/.test(line.message))).toHaveLength(1);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('a body stream that fails while the client waits: 400 invalid_request, logged as a warning', async () => {
    before = (req) => {
      before = () => {};
      setTimeout(() => req.emit('error', new Error('the body stream failed')), 50);
    };
    const head = `POST /token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000`;
    const answer = await raw(head, 'grant_type=');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(dechunked(answer))).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/could not be read/) });
    await expectStillServing();
    expect(lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/POST \/token: the request could not be read, answered 400: the body stream failed/) });
  });

  it("a method a web Request cannot carry (TRACE /token) is the client's: 400 invalid_request, a warning, no error line", async () => {
    const errorsBefore = lines.filter((l) => l.level === 'error').length;
    const answer = await raw(`TRACE /token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close`, '');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(dechunked(answer))).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/could not be read/) });
    await expectStillServing();
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(errorsBefore);
  });

  it("an endpoint's response whose body fails (the app's login page): 500 server_error with no detail, the error logged", async () => {
    const clientId = String((await registerClient(base)).body.client_id);
    const response = await fetch(authorizeUrl(base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ error: 'server_error', error_description: 'the authorization server failed; its log has the details' });
    expect(text).not.toContain('secret-detail');
    await expectStillServing();
    expect(lines).toContainEqual({ level: 'error', message: expect.stringMatching(/GET \/authorize failed: .*login page template is missing/) });
    // The query (client_id, code_challenge, state) is no part of the line.
    expect(lines.some((line) => line.message.includes('code_challenge'))).toBe(false);
  });

  it('a next listener that rejects: 500 server_error with no detail, logged', async () => {
    const response = await fetch(`${base}/next-fails`);
    const text = await response.text();
    expect([response.status, JSON.parse(text)]).toEqual([500, { error: 'server_error', error_description: expect.any(String) }]);
    expect(text).not.toContain('secret-detail');
    await expectStillServing();
    expect(lines).toContainEqual({ level: 'error', message: expect.stringMatching(/GET \/next-fails failed: .*next failed/) });
  });

  it('a next listener that rejects after it answered in full: the client gets the whole answer, the failure is logged', async () => {
    const response = await fetch(`${base}/next-fails-after-answering`);
    const received = (await response.arrayBuffer()).byteLength;
    expect([response.status, received]).toEqual([200, ANSWERED_SIZE]);
    await expectStillServing();
    expect(lines).toContainEqual({ level: 'error', message: expect.stringMatching(/GET \/next-fails-after-answering failed after it was answered: .*audit write/) });
  });
});

/** The body of a raw HTTP/1.1 answer sent in chunks. */
function dechunked(answer: string): string {
  let rest = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  let body = '';
  for (;;) {
    const sizeEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, sizeEnd), 16);
    if (!(size > 0)) return body;
    body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
    rest = rest.slice(sizeEnd + 2 + size + 2);
  }
}

import { connect, constants, createServer, type Http2Server } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOAuthServer, MemoryOAuthStore } from '@toolwright/oauth';

type Line = { level: string; message: string };

/**
 * `oauth.node(next)` behind node:http2 when the client cancels its stream before it is answered:
 * no one is left to answer, so the failure is a debug line, not an error. Node's HTTP/2
 * compatibility response has no `destroyed`, so the listener read the cancelled stream as open,
 * logged an error with its stack and tried to answer it.
 */
describe('oauth.node behind node:http2: a stream the client cancelled before its answer', () => {
  let server: Http2Server;
  let base: string;
  const lines: Line[] = [];
  const outcomes: Promise<unknown>[] = [];
  /** Resolves as the next request reaches the listener. */
  let arrived: () => void = () => {};

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const log = (level: string) => (message: string) => void lines.push({ level, message });
    const oauth = await createOAuthServer({
      issuer: base,
      resource: `${base}/mcp`,
      scopes: ['a'],
      store: new MemoryOAuthStore(),
      signIn: () => ({ subject: 'ada' }),
      logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    });
    // The app's route fails once its client has gone (a lookup that gave up when the stream closed).
    const listener = oauth.node(async (_req: IncomingMessage, res: ServerResponse) => {
      await new Promise((resolve) => res.once('close', resolve));
      throw new Error('the lookup gave up: its stream closed');
    });
    server.on('request', (req, res) => {
      arrived();
      outcomes.push(
        listener(req as unknown as IncomingMessage, res as unknown as ServerResponse).then(
          () => 'resolved',
          (error: unknown) => error,
        ),
      );
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is logged at debug level as a client that went away, and nothing is answered or rejected', async () => {
    const session = connect(base);
    try {
      const arriving = new Promise<void>((resolve) => (arrived = resolve));
      const stream = session.request({ ':path': '/app', ':method': 'GET' });
      stream.on('error', () => undefined);
      await arriving;
      stream.close(constants.NGHTTP2_CANCEL);
      expect(await Promise.all(outcomes)).toEqual(['resolved']);
      expect(lines).toEqual([{ level: 'debug', message: expect.stringMatching(/^toolwright oauth: GET \/app: the client closed the connection before it was answered/) }]);
    } finally {
      session.destroy();
    }
  });
});

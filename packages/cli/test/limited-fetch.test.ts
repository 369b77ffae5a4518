import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { limitedFetch } from '../src/client/limitedFetch';

/**
 * limitedFetch over real HTTP on 127.0.0.1, with a limit of 100 bytes: an event stream is
 * limited per line, wherever the line's chunks fall; a JSON answer in total.
 */
const LIMIT = 100;
let server: Server;
let base: string;
/** What the server sends for each path: the parts of the body, each written after a pause so that each arrives as its own chunk. */
const BODIES: Record<string, { type: string; parts: string[] }> = {
  // One line of 120 bytes: 90 in a first chunk, its last 30 and its newline in the second (then a short line).
  '/line-across-chunks': { type: 'text/event-stream', parts: [`data: ${'x'.repeat(84)}`, `${'x'.repeat(30)}\n\ndata: ok\n\n`] },
  // Many short lines, 300 bytes in all.
  '/short-lines': { type: 'text/event-stream', parts: [`data: ${'y'.repeat(40)}\n\n`.repeat(3), `data: ${'y'.repeat(40)}\n\n`.repeat(3)] },
  // A JSON answer of 120 bytes in two chunks.
  '/json': { type: 'application/json', parts: [`"${'z'.repeat(60)}`, `${'z'.repeat(58)}"`] },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = Object.hasOwn(BODIES, req.url ?? '') ? BODIES[req.url!] : undefined;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': body.type });
    let i = 0;
    const next = (): void => {
      if (i === body.parts.length) return void res.end();
      res.write(body.parts[i++]);
      setTimeout(next, 30);
    };
    res.on('error', () => undefined);
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

async function read(path: string) {
  const limited = limitedFetch('the server', LIMIT);
  const response = await limited.fetch(`${base}${path}`);
  try {
    return { text: await response.text(), failure: limited.failure?.message };
  } catch (error) {
    return { error: (error as Error).message, failure: limited.failure?.message };
  }
}

describe('limitedFetch', () => {
  it('refuses an event-stream line longer than the limit whose newline arrives in a later chunk', async () => {
    const { error, failure } = await read('/line-across-chunks');
    expect(failure).toMatch(/^the server sent a message of more than/);
    expect(error).toBe(failure);
  });

  it('reads an event stream of short lines whatever its length in all', async () => {
    expect(await read('/short-lines')).toEqual({ text: BODIES['/short-lines'].parts.join(''), failure: undefined });
  });

  it('counts a JSON answer in total', async () => {
    const { failure } = await read('/json');
    expect(failure).toMatch(/^the server sent a message of more than/);
  });
});

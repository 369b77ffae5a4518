import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createHttpHandler } from '@toolwright/server/http';
import { withHeaders } from '../src/fetch/withHeaders';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody, rawRequest } from './fixtures/httpHelpers';

/**
 * The fetch handler, which a runtime may serve over HTTP/2, answers as the node listener does:
 * a Host with user information is refused before the URL's length is counted, and its answers
 * carry none of the connection-specific fields an HTTP/2 message may not carry (RFC 9113 §8.2.2).
 */

const MAX = 60;
/** A Host with user information (`name@`), and a target that puts the URL past MAX. */
const HOST = 'localhost:1@attacker.example';
const PATH = `/mcp?${'x'.repeat(MAX)}`;
const USER_INFO = { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('carries user information') } };

describe('a Host with user information on a URL over maxUrlLength', () => {
  it('is 400 (the malformed Host) from the node listener and the fetch handler alike, not 414 from one of them', async () => {
    const app = await createApp({ name: 'parity', version: '1.0.0', tools: [HttpTools] });
    const headers = { host: HOST, 'content-type': 'application/json', accept: ACCEPT_BOTH };
    const body = JSON.stringify(initializeBody(1));

    const fetchHandler = createFetchHandler(app, { maxUrlLength: MAX, logError: () => {} });
    const listener = createHttpHandler(app, { maxUrlLength: MAX, requestLogLevel: 'silent' });
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const overFetch = await fetchHandler(new Request(`http://localhost${PATH}`, { method: 'POST', headers, body }));
      const overNode = await rawRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`, { method: 'POST', headers: { ...headers, connection: 'close' }, body });
      expect({ fetch: overFetch.status, node: overNode.status }).toEqual({ fetch: 400, node: 400 });
      expect(await overFetch.json()).toEqual(USER_INFO);
      expect(JSON.parse(overNode.body)).toEqual(USER_INFO);
      // Without user information, the same URL is too long for both.
      const tooLong = await fetchHandler(new Request(`http://localhost${PATH}`, { method: 'POST', headers: { ...headers, host: 'localhost' }, body }));
      expect(tooLong.status).toBe(414);
      await tooLong.body?.cancel();
    } finally {
      await Promise.all([fetchHandler.close({ drainTimeoutMs: 0 }), listener.close({ drainTimeoutMs: 0 })]);
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the fetch handler's answers leave out the connection-specific fields", () => {
  const FIELDS = { connection: 'keep-alive', 'keep-alive': 'timeout=5', 'proxy-connection': 'keep-alive', 'transfer-encoding': 'chunked', upgrade: 'h2c' };
  const namesOf = (response: Response) => [...response.headers.keys()].sort();

  it.each([
    ['with CORS headers to add', { 'access-control-allow-origin': 'https://app.example' }],
    ['with none to add', undefined],
  ])('every one of them, %s; the other fields and the body are kept', async (_case, extra) => {
    const answered = withHeaders(new Response('data: {}\n\n', { status: 200, headers: { ...FIELDS, 'content-type': 'text/event-stream' } }), extra);
    expect(namesOf(answered)).toEqual(['content-type', ...Object.keys(extra ?? {})].sort());
    expect({ status: answered.status, body: await answered.text() }).toEqual({ status: 200, body: 'data: {}\n\n' });
  });

  it('a response with none of them and nothing to add is handed back as it is', () => {
    const response = new Response('{}', { headers: { 'content-type': 'application/json' } });
    expect(withHeaders(response, undefined)).toBe(response);
  });
});

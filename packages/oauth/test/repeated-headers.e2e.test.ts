import { request } from 'node:http';
import { registerClient } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * A header that may not repeat, sent twice to the token endpoint: two Authorization headers
 * (RFC 9110 §5.3: its value is no list), two Content-Types. Through the node listener the
 * endpoint saw node's `req.headers`, which keep the first line only: the first Basic
 * credentials authenticated the client, and the first Content-Type made the body a form.
 * Through the fetch handler (Deno, Bun, workerd) `Headers` joins the lines, which is neither
 * one Basic credential nor one media type: 401 and 400. Both now see every line.
 */

/** A POST to `path` with `headers` sent line by line as given (repeated names too); its status and JSON body. */
function post(base: string, path: string, headers: [string, string][], body: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const lines: [string, string][] = [['Host', `${hostname}:${port}`], ['Content-Length', String(Buffer.byteLength(body))], ...headers];
    const req = request({ hostname, port, path, method: 'POST', headers: lines.flat() }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(['node', 'fetch'] as const)('the token endpoint (%s) with a header that may not repeat sent twice', (mode) => {
  let served: Served;
  let basic: string;
  beforeAll(async () => {
    served = await serveOAuth(mode);
    const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'client_secret_basic' });
    basic = `Basic ${btoa(`${String(body.client_id)}:${String(body.client_secret)}`)}`;
  });
  afterAll(() => served.close());

  const FORM: [string, string] = ['Content-Type', 'application/x-www-form-urlencoded'];
  const REFRESH = 'grant_type=refresh_token&refresh_token=x';

  it('once, the client authenticates (the checks themselves work)', async () => {
    const answer = await post(served.base, '/token', [FORM, ['Authorization', basic]], REFRESH);
    expect(answer).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/refresh token is not valid/) } });
  });

  it.each([
    ['the good credentials first', () => [basic, 'Basic d3Jvbmc6d3Jvbmc=']],
    ['the same good credentials twice', () => [basic, basic]],
  ])('two Authorization headers (%s): 401 invalid_client, the client is not authenticated', async (_, values) => {
    const answer = await post(served.base, '/token', [FORM, ...values().map((value): [string, string] => ['Authorization', value])], REFRESH);
    expect(answer).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.any(String) } });
  });

  it('two Content-Type headers, the form first: 400 invalid_request, the body is not read as a form', async () => {
    const answer = await post(served.base, '/token', [FORM, ['Content-Type', 'text/plain'], ['Authorization', basic]], REFRESH);
    expect(answer).toEqual({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(/x-www-form-urlencoded/) } });
  });
});

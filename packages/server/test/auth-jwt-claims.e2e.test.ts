import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { initializeBody, post } from './fixtures/httpHelpers';

const SERVER = join(__dirname, 'fixtures', 'jwt-claims-server.js');
const ISSUER = 'https://issuer.example.test';
const RESOURCE = 'https://mcp.example.test/mcp';
const b64 = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** An RS256 JWT (signed here with node:crypto; the server checks it with jose through jwtVerifier). */
function jwt(key: KeyObject, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1', ...header })}.${b64({ iss: ISSUER, aud: RESOURCE, sub: 'alice', client_id: 'app-1', iat: now(), exp: now() + 600, ...claims })}`;
  return `${body}.${b64(sign('sha256', Buffer.from(body), key))}`;
}

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const JWKS = JSON.stringify({ keys: [{ ...keys.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] });

/** The fixture server in a process; its stderr lines as they come. */
async function serve(env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, JWKS, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /url=(\S+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${stderr}`)));
  });
  return { url, child, stderr: () => stderr };
}

/** Waits until the server's stderr has a line matching `pattern` (the request log line is written once the answer is out). */
async function logLine(stderr: () => string, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = stderr()
      .split('\n')
      .find((l) => pattern.test(l));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('jwtVerifier over HTTP: claims and headers a token must get right', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.child.kill('SIGKILL'));

  const status = async (token: string) => (await post(server.url, initializeBody(), { authorization: `Bearer ${token}` })).status;

  it('accepts a well-formed token', async () => {
    expect(await status(jwt(keys.privateKey, {}))).toBe(200);
  });

  it.each([
    ['a numeric sub', { sub: 42 }],
    ['an empty sub', { sub: '' }],
    ['no sub', { sub: undefined }],
    ['an object as sub', { sub: { id: 'alice' } }],
  ])('refuses %s with 401 invalid_token (bindings need a subject)', async (_what, claims) => {
    const response = await post(server.url, initializeBody(), { authorization: `Bearer ${jwt(keys.privateKey, claims)}` });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token", error_description="The access token is invalid."');
  });

  it.each([
    ['CR/LF', 'x\r\nSet-Cookie: owned=1'],
    ['a non-Latin-1 character', 'ext-日本'],
  ])('answers a crit header naming an extension with %s with a fixed 401, and logs it on one line', async (_what, crit) => {
    const response = await post(server.url, initializeBody(), { authorization: `Bearer ${jwt(keys.privateKey, {}, { crit: [crit] })}` });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="The access token is invalid.", resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"',
    );
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The access token is invalid.' });
    const line = await logLine(server.stderr, /Extension Header Parameter/);
    expect(JSON.parse(line)).toMatchObject({ level: 'warn', status: 401, error: expect.stringContaining('is not recognized') });
    expect(server.stderr()).not.toContain('request failed');
  });

  it('applies the clock tolerance (30 s) to exp at the endpoint as jose does: 10 s late passes, 40 s late does not', async () => {
    expect(await status(jwt(keys.privateKey, { exp: now() - 10 }))).toBe(200);
    expect(await status(jwt(keys.privateKey, { exp: now() - 40 }))).toBe(401);
  });
});

describe('jwtVerifier options', () => {
  it("with typ: 'at+jwt', accepts only RFC 9068 access tokens", async () => {
    const server = await serve({ TYP: 'at+jwt' });
    try {
      const status = async (header: Record<string, unknown>) => (await post(server.url, initializeBody(), { authorization: `Bearer ${jwt(keys.privateKey, {}, header)}` })).status;
      expect(await status({ typ: 'at+jwt' })).toBe(200);
      expect(await status({ typ: 'application/at+jwt' })).toBe(200);
      expect(await status({ typ: 'JWT' })).toBe(401);
      expect(await status({ typ: undefined })).toBe(401);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('with clockToleranceSeconds: 0, a token 10 s past exp is refused', async () => {
    const server = await serve({ CLOCK_TOLERANCE: '0' });
    try {
      expect((await post(server.url, initializeBody(), { authorization: `Bearer ${jwt(keys.privateKey, { exp: now() - 10 })}` })).status).toBe(401);
      expect((await post(server.url, initializeBody(), { authorization: `Bearer ${jwt(keys.privateKey, {})}` })).status).toBe(200);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

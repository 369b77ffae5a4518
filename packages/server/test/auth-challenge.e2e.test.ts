import type { AuthInfo } from '@toolwright/core';
import { ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { TokenVerifier } from '@toolwright/server/auth';
import { createHttpHandler, type HttpListener } from '@toolwright/server/http';
import { HttpTools, NoteTools } from './fixtures/http.tools';
import { initializeBody, post } from './fixtures/httpHelpers';

const RESOURCE = 'https://mcp.example.test/mcp';
const now = () => Math.floor(Date.now() / 1000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A verifier that fails the way jose does on a token whose `crit` header names an unknown
 * extension: its message quotes the (unverified) header. The token is base64url JSON here.
 */
const verifyToken: TokenVerifier = (token) => {
  const claims = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { crit?: string[]; exp?: number; sub?: string };
  if (claims.crit) throw new Error(`Extension Header Parameter "${claims.crit[0]}" is not recognized`);
  const info: AuthInfo = { token, clientId: 'app-1', scopes: ['notes:read'], expiresAt: claims.exp ?? now() + 600, extra: { sub: claims.sub ?? 'alice' } };
  return info;
};
const token = (claims: Record<string, unknown>) => Buffer.from(JSON.stringify(claims)).toString('base64url');

describe('WWW-Authenticate carries fixed text, whatever the token says', () => {
  let app: App;
  let listener: HttpListener;
  const lines: string[] = [];
  const stderr: string[] = [];
  let restore: () => void;

  beforeAll(async () => {
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
    restore = () => (process.stderr.write = write);
    app = await createApp({ name: 'challenge', version: '1.0.0', tools: [HttpTools, NoteTools] });
    listener = await app.listen({
      transport: 'http',
      port: 0,
      exitOnSignal: false,
      requestLogLevel: 'warn',
      logWrite: (line) => void lines.push(line),
      auth: { resource: RESOURCE, authorizationServers: ['https://auth.example.test'], verifyToken },
    });
  });
  afterAll(async () => {
    await listener.close();
    restore();
  });

  it.each([
    ['CR/LF', 'x\r\nSet-Cookie: owned=1'],
    ['a non-Latin-1 character', 'ext-日本'],
    ['a double quote and a backslash', 'a"b\\c'],
  ])('a verifier message with %s gives 401 with the fixed description, and the detail in one log line', async (_what, crit) => {
    lines.length = 0;
    const response = await post(listener.url, initializeBody(), bearer(token({ crit: [crit] })));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="The access token is invalid.", resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"',
    );
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The access token is invalid.' });
    const logged = lines.join('');
    expect(logged.split('\n').filter(Boolean)).toHaveLength(1);
    const entry = JSON.parse(logged) as { level: string; status: number; error: string };
    expect(entry).toMatchObject({ level: 'warn', status: 401 });
    expect(entry.error).toContain('Extension Header Parameter');
    expect(entry.error).not.toMatch(/[\r\n]/);
    expect(stderr.join('')).not.toContain('request failed');
  });

  it('applies the clock tolerance (30 s by default) to expiresAt, as jwtVerifier does to exp', async () => {
    expect((await post(listener.url, initializeBody(), bearer(token({ exp: now() - 10 })))).status).toBe(200);
    const late = await post(listener.url, initializeBody(), bearer(token({ exp: now() - 40 })));
    expect(late.status).toBe(401);
    expect(late.headers.get('www-authenticate')).toContain('error_description="The access token has expired."');
  });
});

describe('the tolerance a verifier carries is the endpoint’s', () => {
  it('auth.clockToleranceSeconds, else the verifier’s clockToleranceSeconds, decides', async () => {
    const app = await createApp({ name: 'tolerance', version: '1.0.0', tools: [HttpTools] });
    const strictVerifier = Object.assign((t: string) => verifyToken(t), { clockToleranceSeconds: 0 });
    const base = { transport: 'http' as const, port: 0, exitOnSignal: false, requestLogLevel: 'silent' as const };
    const strict = await app.listen({ ...base, auth: { resource: RESOURCE, authorizationServers: ['https://auth.example.test'], verifyToken: strictVerifier } });
    const lenient = await app.listen({ ...base, auth: { resource: RESOURCE, authorizationServers: ['https://auth.example.test'], verifyToken: strictVerifier, clockToleranceSeconds: 120 } });
    try {
      const expired = bearer(token({ exp: now() - 10 }));
      expect((await post(strict.url, initializeBody(), expired)).status).toBe(401);
      expect((await post(lenient.url, initializeBody(), bearer(token({ exp: now() - 60 })))).status).toBe(200);
    } finally {
      await Promise.all([strict.close(), lenient.close()]);
    }
  });
});

describe('allowAnonymous with requiredScopes', () => {
  const auth = { resource: RESOURCE, authorizationServers: ['https://auth.example.test'], verifyToken, allowAnonymous: true, requiredScopes: ['notes:read'] };

  it('is refused at startup, saying what to change (an anonymous caller would skip the required scopes)', async () => {
    const app = await createApp({ name: 'anonymous', version: '1.0.0', tools: [HttpTools] });
    const listening = app.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'silent', auth });
    await expect(listening).rejects.toThrow(ConfigError);
    await expect(listening).rejects.toThrow(/auth\.allowAnonymous and auth\.requiredScopes \(notes:read\) cannot be combined.*Remove allowAnonymous.*@RequireScopes/);
    expect(() => createHttpHandler(app, { auth })).toThrow(/cannot be combined/);
  });

  it('each alone still serves: anonymous callers without requiredScopes, scoped tokens with them', async () => {
    const app = await createApp({ name: 'anonymous', version: '1.0.0', tools: [HttpTools] });
    const base = { transport: 'http' as const, port: 0, exitOnSignal: false, requestLogLevel: 'silent' as const };
    const open = await app.listen({ ...base, auth: { ...auth, requiredScopes: undefined } });
    const scoped = await app.listen({ ...base, auth: { ...auth, allowAnonymous: false } });
    try {
      expect((await post(open.url, initializeBody())).status).toBe(200);
      expect((await post(scoped.url, initializeBody())).status).toBe(401);
      expect((await post(scoped.url, initializeBody(), bearer(token({})))).status).toBe(200);
    } finally {
      await Promise.all([open.close(), scoped.close()]);
    }
  });
});

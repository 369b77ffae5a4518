import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CALLBACK, codeFor, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

const run = promisify(execFile);
const SERVER_AUTH = join(__dirname, '..', '..', 'server', 'dist', 'auth', 'index.js');

/**
 * The access tokens are ones the server's own `jwtVerifier` accepts: it runs from the build in a
 * fresh node (where jose loads), fetches the keys from the authorization server's jwks_uri over
 * HTTP, and checks issuer, audience and `typ: at+jwt`.
 */
describe("jwtVerifier (the resource server's JWT check) accepts the access tokens", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('node', { signIn: () => ({ subject: 'grace', roles: ['admin'] }) });
  });
  afterAll(() => served.close());

  const verify = async (token: string, audience: string): Promise<{ ok: boolean; info?: Record<string, unknown>; error?: string }> => {
    const script = `
      const { jwtVerifier } = require(${JSON.stringify(SERVER_AUTH)});
      const [issuer, audience, jwksUrl, token] = process.argv.slice(1);
      jwtVerifier({ issuer, audience, jwksUrl, typ: 'at+jwt' })(token).then(
        (info) => process.stdout.write(JSON.stringify({ ok: true, info: { ...info, token: undefined } })),
        (error) => process.stdout.write(JSON.stringify({ ok: false, error: error.code ?? error.message })),
      );`;
    const { stdout } = await run(process.execPath, ['-e', script, served.oauth.issuer, audience, String(served.oauth.metadata.jwks_uri), token]);
    return JSON.parse(stdout) as never;
  };

  it('with the subject, client, scopes and roles; and refuses them for another audience', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    const accepted = await verify(String(tokens.body.access_token), served.mcpUrl);
    expect(accepted).toMatchObject({ ok: true, info: { clientId, scopes: ['notes:read', 'notes:write'], extra: { sub: 'grace', roles: ['admin'] } } });
    expect(await verify(String(tokens.body.access_token), 'https://other.example/mcp')).toEqual({ ok: false, error: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateProject, type TemplateName } from '@toolwright/cli';
import type { AuthInfo } from '@toolwright/core';
import { createTestClient } from '@toolwright/server/testing';
import { createWeatherApp } from '../../../examples/weather/src/app';

type SignInFromEnv = (env: NodeJS.ProcessEnv, issuer: string) => { signIn?: unknown; upstream?: unknown };
type TokenAuth = (env: NodeJS.ProcessEnv) => { verifyToken(token: string): AuthInfo | undefined } | undefined;

/**
 * What generated code does with hostile or mistaken input: one file of a template, written out
 * and loaded (its imports are @toolwright/* or types only), or the example generated from it.
 */
describe('generated code, given bad input', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-generated-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  function load<T>(template: TemplateName, path: string): T {
    const file = generateProject({ template, transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9' }).find((f) => f.path === path)!;
    const target = join(tmp, `${template}-${path.replaceAll('/', '-')}`);
    writeFileSync(target, file.content);
    return require(target) as T;
  }

  // It fell back to the development sign-in whenever one OIDC_ variable was missing or misspelt, and on any issuer.
  it('oauth: a partial OIDC configuration, or the development sign-in off this machine, stops the server rather than letting everyone in', () => {
    const { signInFromEnv } = load<{ signInFromEnv: SignInFromEnv }>('oauth', 'src/signIn.ts');
    const oidc = { OIDC_ISSUER: 'https://accounts.example.com', OIDC_CLIENT_ID: 'id', OIDC_CLIENT_SECRET: 'secret' };
    expect(() => signInFromEnv({ OIDC_ISSUER: oidc.OIDC_ISSUER, OIDC_CLIENT_ID: 'id' }, 'http://127.0.0.1:3000')).toThrow(
      'OIDC_CLIENT_SECRET is not set: set all of OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET to sign users in at your OpenID Connect provider, or none of them.',
    );
    expect(() => signInFromEnv({}, 'https://mcp.example.com')).toThrow(/^The issuer https:\/\/mcp.example.com is not on this machine, and no sign-in is set up: .* DEV_SIGN_IN=1/);
    expect(signInFromEnv({ DEV_SIGN_IN: '1' }, 'https://mcp.example.com')).toEqual({ signIn: expect.any(Function) });
    expect(signInFromEnv({}, 'http://127.0.0.1:3000')).toEqual({ signIn: expect.any(Function) });
    expect(signInFromEnv({}, 'http://localhost:3000')).toEqual({ signIn: expect.any(Function) });
    expect(signInFromEnv(oidc, 'https://mcp.example.com')).toEqual({ upstream: expect.any(Object) });
  });

  // A base64 token (ending in '=') was refused, and the refusal printed the whole entry, token and all, to the log.
  it('http: reads tokens that end in =, and never repeats an entry of MCP_TOKENS in its errors', () => {
    const { tokenAuth } = load<{ tokenAuth: TokenAuth }>('http', 'src/auth.ts');
    const auth = tokenAuth({ MCP_TOKENS: 'c2VjcmV0IQ===ci, b3RoZXI==alice' })!;
    expect(auth.verifyToken('c2VjcmV0IQ==')).toMatchObject({ clientId: 'ci' });
    expect(auth.verifyToken('b3RoZXI=')).toMatchObject({ clientId: 'alice' });
    expect(auth.verifyToken('c2VjcmV0IQ')).toBeUndefined();
    for (const entry of ['l3aked', 'l3aked=', '=ci']) {
      expect(() => tokenAuth({ MCP_TOKENS: `s3cret=ci,${entry}` })).toThrow(new Error('MCP_TOKENS: entry 2 of 2 is not token=client. Example: MCP_TOKENS="s3cret=ci"'));
    }
  });

  // The cities were a plain object: 'constructor' and '__proto__' found Object's members, and the call failed its output schema.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('weather: get_weather knows no city called %s', async (location) => {
    const client = await createTestClient(await createWeatherApp());
    try {
      const result = await client.callTool({ name: 'get_weather', arguments: { location } });
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: `No weather data for '${location}'. Known cities: tokyo, paris, new york.` }] });
    } finally {
      await client.close();
    }
  });
});

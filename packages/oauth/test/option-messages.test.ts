/**
 * createOAuthServer refuses bad options at start with a ConfigError that says what is wrong,
 * where, and what to write instead, and never quotes the secret.
 */
import { ConfigError } from '@toolwright/core';
import { createOAuthServer, keycloakUpstream, type OAuthServerOptions } from '@toolwright/oauth';

const base: OAuthServerOptions = { issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp', signIn: () => ({ subject: 'ada' }) };
const refusal = (options: Partial<OAuthServerOptions>) =>
  createOAuthServer({ ...base, ...options }).then(
    () => 'started',
    (error: Error) => `${error instanceof ConfigError ? 'ConfigError' : error.constructor.name}: ${error.message}`,
  );

describe('createOAuthServer option messages', () => {
  it('refuses a secret that is not a string, which used to be taken as its text (a weak key)', async () => {
    expect(await refusal({ secret: 12_345_678 as never })).toBe(
      'ConfigError: Toolwright oauth: secret must be a string of at least 32 characters; the one given is a number. Generate one (e.g. openssl rand -base64 48), read it from the environment, and give every instance the same.',
    );
  });

  it('says how long a short secret is, and never quotes it', async () => {
    const message = await refusal({ secret: 'hunter2-is-not-long-enough' });
    expect(message).toMatch(/^ConfigError: Toolwright oauth: secret must be a string of at least 32 characters; the one given has 26\. Generate one/);
    expect(message).not.toContain('hunter2');
  });

  it('refuses a client lifetime that is not a positive number of seconds, naming the default', async () => {
    expect(await refusal({ unusedClientTtlSeconds: 0 })).toBe(
      'ConfigError: Toolwright oauth: unusedClientTtlSeconds must be a positive number of seconds, got 0. Give one such as 86400 (the default), or leave it out.',
    );
    expect(await refusal({ clientTtlSeconds: '30d' as never })).toMatch(/^ConfigError: Toolwright oauth: clientTtlSeconds must be a positive number of seconds, got "30d"\. Give one such as 15552000/);
  });

  it('names a bad scope and shows how scopes are written', async () => {
    expect(await refusal({ scopes: ['notes:read notes:write'] })).toBe(
      `ConfigError: Toolwright oauth: scopes has "notes:read notes:write", which is not a scope token (RFC 6749 §3.3: printable ASCII without spaces, '"' or '\\'). Name each scope on its own, e.g. scopes: ['notes:read', 'notes:write'].`,
    );
  });

  it('gives the fix for an issuer with a query, an http issuer off this machine, and one that is not a URL', async () => {
    expect(await refusal({ issuer: 'https://auth.example.com/?tenant=a' })).toMatch(
      /issuer must have no query or fragment, got '.*'\. Give its origin and path only, e\.g\. 'https:\/\/auth\.example\.com'\.$/,
    );
    expect(await refusal({ issuer: 'http://auth.example.com' })).toMatch(/or use http:\/\/localhost:<port> while developing\.$/);
    expect(await refusal({ issuer: 'auth.example.com' })).toBe("ConfigError: Toolwright oauth: issuer must be an absolute URL, got 'auth.example.com'. Give one such as 'https://auth.example.com'.");
    expect(await refusal({ resource: 'mcp' })).toBe("ConfigError: Toolwright oauth: resource must be an absolute URL, got 'mcp'. Give one such as 'https://mcp.example.com/mcp'.");
  });

  it.each(['form_post', 'query'])('refuses upstream authorizeParams that set response_mode (%s): the callback takes GET with the answer in the query only', async (mode) => {
    const upstream = {
      name: 'corp',
      issuer: 'https://id.example.com',
      clientId: 'toolwright',
      clientSecret: 'upstream-secret',
      scopes: ['openid'],
      authorizeParams: { prompt: 'login', response_mode: mode },
    };
    expect(await refusal({ signIn: undefined, upstream, secret: 'a-test-secret-of-at-least-32-characters' })).toBe(
      `ConfigError: Toolwright oauth: upstream corp: authorizeParams sets response_mode ("${mode}"), but https://auth.example.com/callback takes the provider's answer only as a GET with it in the query (a form_post is refused with 405, so no one could sign in). Remove response_mode from authorizeParams.`,
    );
    expect(await refusal({ signIn: undefined, upstream: { ...upstream, authorizeParams: { prompt: 'login' } }, secret: 'a-test-secret-of-at-least-32-characters' })).toBe('started');
  });

  it.each([
    ['issuer', { issuer: 'http://id.example.com' }, "'https://id.example.com'"],
    ['authorizationEndpoint', { issuer: undefined, authorizationEndpoint: 'http://id.example.com/authorize', tokenEndpoint: 'https://id.example.com/token' }, "'https://id.example.com/authorize'"],
    ['tokenEndpoint', { issuer: undefined, authorizationEndpoint: 'https://id.example.com/authorize', tokenEndpoint: 'http://192.168.1.20/token' }, "'https://192.168.1.20/token'"],
    ['userinfoEndpoint', { userinfoEndpoint: 'http://id.example.com/userinfo' }, "'https://id.example.com/userinfo'"],
    ['revocationEndpoint', { revocationEndpoint: 'http://id.example.com/revoke' }, "'https://id.example.com/revoke'"],
  ])('refuses an upstream %s that is plain http off this machine, naming it and its https form', async (option, fields, fix) => {
    const upstream = { name: 'corp', issuer: 'https://id.example.com', clientId: 'toolwright', clientSecret: 'upstream-secret', scopes: ['openid'], ...fields };
    const given = (fields as Record<string, string>)[option];
    expect(await refusal({ signIn: undefined, upstream, secret: 'a-test-secret-of-at-least-32-characters' })).toBe(
      `ConfigError: Toolwright oauth: upstream corp: ${option} must be an https URL (http only on localhost, 127.0.0.1 or [::1], or on a host named in the provider's plainHttpHosts), got '${given}': over plain http, anyone on the way could read or change what this server exchanges with the provider (its client secret, codes and tokens). Give the https one, e.g. ${fix}. Only if the provider is on a private network with this server (e.g. the same docker compose network), where no one else is on the way, name its host in the upstream provider's plainHttpHosts, e.g. plainHttpHosts: ['${new URL(given).host}'].`,
    );
  });

  describe('plainHttpHosts: plain http to a provider on a private network', () => {
    const options = { signIn: undefined, secret: 'a-test-secret-of-at-least-32-characters' };
    const keycloak = (plainHttpHosts?: readonly string[]) =>
      keycloakUpstream({ baseUrl: 'http://keycloak:8080', realm: 'x', clientId: 'mcp', clientSecret: 'upstream-secret', ...(plainHttpHosts && { plainHttpHosts }) });

    it('refuses an http issuer on a private host without it, naming it as the way out', async () => {
      expect(await refusal({ ...options, upstream: keycloak() })).toBe(
        "ConfigError: Toolwright oauth: upstream keycloak: issuer must be an https URL (http only on localhost, 127.0.0.1 or [::1], or on a host named in the provider's plainHttpHosts), got 'http://keycloak:8080/realms/x': over plain http, anyone on the way could read or change what this server exchanges with the provider (its client secret, codes and tokens). Give the https one, e.g. 'https://keycloak:8080/realms/x'. Only if the provider is on a private network with this server (e.g. the same docker compose network), where no one else is on the way, name its host in the upstream provider's plainHttpHosts, e.g. plainHttpHosts: ['keycloak:8080'].",
      );
    });

    it.each([[['keycloak']], [['keycloak:8080']], [['KEYCLOAK', 'other']]])('takes the http issuer and endpoints on the host it names (%j)', async (hosts) => {
      expect(await refusal({ ...options, upstream: keycloak(hosts) })).toBe('started');
      const endpoints = { issuer: undefined, authorizationEndpoint: 'http://keycloak:8080/auth', tokenEndpoint: 'http://keycloak:8080/token', userinfoEndpoint: 'http://keycloak:8080/userinfo' };
      expect(await refusal({ ...options, upstream: { ...keycloak(hosts), ...endpoints } })).toBe('started');
    });

    it.each([
      ['another host', ['keycloak'], { tokenEndpoint: 'http://db:8080/token' }, 'tokenEndpoint'],
      ['another port', ['keycloak:8443'], {}, 'issuer'],
      ['a longer name ending in it', ['keycloak'], { revocationEndpoint: 'http://evil-keycloak:8080/revoke' }, 'revocationEndpoint'],
    ])('still refuses plain http to %s', async (_name, hosts, fields, option) => {
      expect(await refusal({ ...options, upstream: { ...keycloak(hosts), ...fields } })).toMatch(
        new RegExp(`^ConfigError: Toolwright oauth: upstream keycloak: ${option} must be an https URL \\(.*plainHttpHosts\\), got 'http://`),
      );
    });

    it.each([
      [['http://keycloak:8080'], "has 'http://keycloak:8080', which is a URL: give its host only (plain http is what the option is about), e.g. 'keycloak:8080'"],
      [['https://keycloak/realms/x'], "has 'https://keycloak/realms/x', which is a URL: give its host only (plain http is what the option is about), e.g. 'keycloak'"],
      [['http:keycloak'], "has 'http:keycloak', which is a URL: give its host only (plain http is what the option is about), e.g. 'keycloak'"],
      [[''], 'has an empty entry'],
      [['keycloak', 42], 'has 42, which is no string'],
      [['keycloak/realms/x'], "has 'keycloak/realms/x', which is no host name (or host:port)"],
      [['*'], "has '*', which is no host name (or host:port)"],
      [['user@keycloak'], "has 'user@keycloak', which is no host name (or host:port)"],
      ['keycloak', 'must be an array of host names, got "keycloak"'],
    ])('refuses plainHttpHosts %j at start, saying what is wrong and how to write it', async (hosts, problem) => {
      // With an https issuer: the option itself is checked, even where nothing needs it.
      const upstream = { ...keycloakUpstream({ baseUrl: 'https://sso.example.com', realm: 'x', clientId: 'mcp', clientSecret: 'upstream-secret' }), plainHttpHosts: hosts as never };
      expect(await refusal({ ...options, upstream })).toBe(
        `ConfigError: Toolwright oauth: upstream keycloak: plainHttpHosts ${problem}. List the host names (or host:port) of a provider on a private network that this server may reach over plain http, e.g. plainHttpHosts: ['keycloak'] or ['keycloak:8080'].`,
      );
    });
  });

  it('refuses an upstream endpoint that is no absolute URL, and takes plain http on this machine', async () => {
    const upstream = { name: 'corp', authorizationEndpoint: '/authorize', tokenEndpoint: 'https://id.example.com/token', clientId: 'toolwright', clientSecret: 'upstream-secret', scopes: ['openid'] };
    const options = { signIn: undefined, secret: 'a-test-secret-of-at-least-32-characters' };
    expect(await refusal({ ...options, upstream })).toBe(
      "ConfigError: Toolwright oauth: upstream corp: authorizationEndpoint must be an absolute URL, got '/authorize'. Give the provider's full URL, e.g. 'https://idp.example.com/authorize'.",
    );
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']) {
      expect(await refusal({ ...options, upstream: { ...upstream, authorizationEndpoint: `${local}/authorize`, tokenEndpoint: `${local}/token`, userinfoEndpoint: `${local}/userinfo` } })).toBe(
        'started',
      );
      expect(await refusal({ ...options, upstream: { ...upstream, authorizationEndpoint: undefined, tokenEndpoint: undefined, issuer: local } })).toBe('started');
    }
  });

  it('names the resources authFor serves, and how to serve another', async () => {
    const server = await createOAuthServer(base);
    expect(() => server.authFor('https://other.example.com/mcp')).toThrow(
      "Toolwright oauth: authFor('https://other.example.com/mcp'): this server issues tokens only for https://mcp.example.com/mcp. Pass one of them, or add 'https://other.example.com/mcp' to the resource option.",
    );
  });
});

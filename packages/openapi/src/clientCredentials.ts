import { ConfigError } from '@toolwright/core';
import type { OAuthClientCredentials } from './FromOpenApiOptions';
import { readCappedText } from '@toolwright/core/internal';

/** The most of a token endpoint's answer read: a token response is small. */
const MAX_TOKEN_RESPONSE = 64 * 1024;

/**
 * An access token from the client credentials grant, kept until shortly before it expires.
 * Calls that need it while it is being fetched wait for the same request; a failed request is
 * not kept, so the next call asks again.
 */
export class ClientCredentialsToken {
  private current: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;
  private readonly url: URL;

  constructor(
    private readonly config: OAuthClientCredentials,
    private readonly fetchFn: typeof fetch,
    private readonly timeoutMs: number,
  ) {
    this.url = checkedTokenUrl(config.tokenUrl);
    if (typeof config.clientId !== 'string' || config.clientId === '')
      throw new ConfigError(
        "Toolwright: fromOpenApi()'s oauth2 auth needs a `clientId` (a non-empty string): auth: { type: 'oauth2', tokenUrl, clientId: 'my-client', clientSecret: () => process.env.CLIENT_SECRET! }.",
      );
  }

  /** A valid access token: the kept one, or a new one. */
  get(): Promise<string> {
    if (this.current && Date.now() < this.current.renewAt) return Promise.resolve(this.current.token);
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forgets `token` (the API refused it), so the next `get` asks for a new one. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async request(): Promise<string> {
    const { config } = this;
    const secret = typeof config.clientSecret === 'function' ? await config.clientSecret() : config.clientSecret;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (config.scopes?.length) form.set('scope', config.scopes.join(' '));
    for (const [k, v] of Object.entries(config.params ?? {})) form.set(k, v);
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    if (config.clientAuth === 'body') {
      form.set('client_id', config.clientId);
      form.set('client_secret', secret);
    } else {
      // RFC 6749 section 2.3.1: both parts form-encoded before they are joined.
      const pair = `${formEncode(config.clientId)}:${formEncode(secret)}`;
      headers.set('authorization', `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`);
    }
    const started = Date.now();
    const response = await this.fetchFn(this.url, { method: 'POST', headers, body: form, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
    const text = await readCappedText(response, MAX_TOKEN_RESPONSE);
    if (text === undefined) throw new Error('the token endpoint answered with more than 64 KiB');
    let body: { access_token?: unknown; expires_in?: unknown; token_type?: unknown; error?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // reported below
    }
    if (!response.ok || typeof body.access_token !== 'string' || body.access_token === '') {
      const error = typeof body.error === 'string' ? ` (${body.error})` : '';
      throw new Error(`the token endpoint answered HTTP ${response.status}${error} without an access token`);
    }
    if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') throw new Error(`the token endpoint gave a '${body.token_type}' token, not a bearer token`);
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    const margin = Math.min(config.renewBeforeSeconds ?? 30, lifetime / 2);
    this.current = { token: body.access_token, renewAt: started + (lifetime - margin) * 1000 };
    return body.access_token;
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function checkedTokenUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `Toolwright: fromOpenApi()'s oauth2 tokenUrl ${JSON.stringify(String(raw).slice(0, 200))} is not an absolute URL. Give the token endpoint's full URL, e.g. 'https://auth.example.com/oauth/token'.`,
    );
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError(`Toolwright: fromOpenApi()'s oauth2 tokenUrl must be https: (http: only on a loopback host), since the client secret is sent to it; got ${url.protocol}.`);
  }
  return url;
}

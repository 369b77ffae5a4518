import type { OAuthClient } from './OAuthClient';
import type { OAuthContext } from './OAuthContext';
import { sameString, sha256 } from './webCrypto';

export type ClientAuthentication = { ok: true; client: OAuthClient } | { ok: false; status: 400 | 401; error: 'invalid_client' | 'invalid_request'; description: string };

/**
 * Who is calling the token or revocation endpoint: `client_secret_basic` (Authorization:
 * Basic), `client_secret_post`, or a public client naming itself with `client_id`. A client
 * must use the method it registered with.
 */
export async function authenticateClient(context: OAuthContext, request: Request, form: URLSearchParams): Promise<ClientAuthentication> {
  let clientId = form.get('client_id') ?? undefined;
  let secret: string | undefined;
  let method: OAuthClient['tokenEndpointAuthMethod'] = 'none';
  const header = request.headers.get('authorization');
  if (header && /^basic /i.test(header)) {
    let decoded: string;
    try {
      decoded = atob(header.slice(6).trim());
    } catch {
      return { ok: false, status: 401, error: 'invalid_client', description: 'the Basic credentials are not base64' };
    }
    const colon = decoded.indexOf(':');
    if (colon < 0) return { ok: false, status: 401, error: 'invalid_client', description: 'the Basic credentials have no colon' };
    const basicId = safeDecode(decoded.slice(0, colon));
    if (clientId !== undefined && clientId !== basicId) return { ok: false, status: 400, error: 'invalid_request', description: 'client_id differs from the Basic credentials' };
    clientId = basicId;
    secret = safeDecode(decoded.slice(colon + 1));
    method = 'client_secret_basic';
  } else if (form.has('client_secret')) {
    secret = form.get('client_secret')!;
    method = 'client_secret_post';
  }
  if (!clientId) return { ok: false, status: 401, error: 'invalid_client', description: 'the request names no client: send client_id' };
  const found = await context.findClient(clientId);
  if ('error' in found) return { ok: false, status: 401, error: 'invalid_client', description: found.error };
  const client = found.client;
  if (client.tokenEndpointAuthMethod !== method) {
    return { ok: false, status: 401, error: 'invalid_client', description: `this client authenticates with ${client.tokenEndpointAuthMethod}, not ${method}` };
  }
  if (method !== 'none' && !(client.clientSecretHash && secret !== undefined && sameString(await sha256(secret), client.clientSecretHash))) {
    return { ok: false, status: 401, error: 'invalid_client', description: 'the client secret is wrong' };
  }
  return { ok: true, client };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

import { checkClientMetadata } from '../clientMetadata';
import type { OAuthClient } from '../OAuthClient';
import type { OAuthContext } from '../OAuthContext';
import { json, oauthError } from '../oauthResponses';
import { allowOf } from '../optionsAnswer';
import { readCappedText } from '@toolwright/core/internal';
import { randomToken, sha256 } from '../webCrypto';

/** The methods the registration endpoint serves. */
export const REGISTER_METHODS: readonly string[] = ['POST'];

const MAX_BODY = 16 * 1024;

/** Dynamic client registration (RFC 7591): checks the metadata, makes a client id (and a secret for a confidential client). */
export async function register(context: OAuthContext, request: Request): Promise<Response> {
  if (!REGISTER_METHODS.includes(request.method)) return oauthError('invalid_request', 'register with POST and a JSON body', 405, { Allow: allowOf(REGISTER_METHODS) });
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return oauthError('invalid_client_metadata', 'send the client metadata as application/json');
  const text = await readCappedText(request, MAX_BODY);
  if (text === undefined) return oauthError('invalid_client_metadata', `the client metadata is larger than ${MAX_BODY} bytes`, 413);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return oauthError('invalid_client_metadata', 'the body is not JSON');
  }
  const checked = checkClientMetadata(body);
  if (!checked.ok) return oauthError(checked.error, checked.description);
  const clientId = `twc_${randomToken(18)}`;
  const method = checked.client.tokenEndpointAuthMethod;
  const secret = method === 'client_secret_basic' || method === 'client_secret_post' ? randomToken(32) : undefined;
  const client: OAuthClient = { ...checked.client, clientId, source: 'registered', ...(secret && { clientSecretHash: await sha256(secret) }) };
  // Kept a day or so until it signs someone in (then for ttl.client): registrations anyone may send do not hold the store for long.
  await context.store.set(`client:${clientId}`, JSON.stringify(client), context.ttl.unusedClient);
  return json(
    {
      client_id: clientId,
      client_id_issued_at: Math.floor(context.now() / 1000),
      ...(secret && { client_secret: secret, client_secret_expires_at: 0 }),
      ...checked.echo,
    },
    201,
  );
}

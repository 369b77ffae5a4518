/**
 * A session's principal is labelled (`client:<client>\0sub:<sub>`, or `client:<client>\0token:<digest>`
 * when the verifier names no subject): a token whose client id is `client:<X>` and whose subject is
 * `token:<D>` once had the principal of the subject-less token of client X whose digest is D, and
 * reached that token's sessions.
 */
import { createHash } from 'node:crypto';
import { createApp } from '@toolwright/server';
import { principalOf } from '../src/http/principalOf';
import { openRawSession, post } from './fixtures/httpHelpers';

describe('principalOf', () => {
  it('a caller with a subject never has the principal of a subject-less token of another client', () => {
    const victim = { token: 'api-key-of-alice', clientId: 'api-keys', scopes: [] };
    const digest = createHash('sha256').update(victim.token).digest('base64url');
    const crafted = { token: 'another-token', clientId: 'client:api-keys', scopes: [], extra: { sub: `token:${digest}` } };
    expect(principalOf(crafted)).not.toBe(principalOf(victim));
  });
});

describe('over real HTTP: the crafted caller reaches the session of the subject-less token', () => {
  const digest = createHash('sha256').update('key-alice').digest('base64url');
  // One verifier serving two kinds of token: API keys (client 'api-keys', no user), and user tokens whose client and user come from the token.
  const verifyToken = (token: string) => {
    if (token === 'key-alice') return { token, clientId: 'api-keys', scopes: [] };
    if (token === 'user-token') return { token, clientId: 'client:api-keys', scopes: [], extra: { sub: `token:${digest}` } };
    return undefined;
  };
  it('gets 404 for the session key-alice opened', async () => {
    const app = await createApp({ name: 'p', version: '1.0.0', tools: [], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', exitOnSignal: false, auth: { verifyToken } });
    try {
      const session = await openRawSession(listener.url, { authorization: 'Bearer key-alice' });
      const other = await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { authorization: 'Bearer user-token', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      await other.text();
      expect(other.status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

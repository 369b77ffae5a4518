import { randomUUID } from 'node:crypto';
import { MemoryOAuthStore } from '@toolwright/oauth';
import { ClientKey, madeUpCodeForm } from './fixtures/clientKey';
import { startDocumentHost } from './fixtures/documentHost';
import { CALLBACK } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/** How many failed jwks_uris an instance remembers in memory when the store has no room for them. */
const CAP = 1000;

/**
 * When the clients' share of the store is full, an instance remembers the jwks_uris it could not
 * fetch in its memory only, and at most 1,000 of them: the oldest is forgotten past that, so
 * clients registering jwks_uris that fail cannot grow the instance's memory without bound.
 * One jwks_uri is served down (503) by a real https host, so each fetch of it is counted; the
 * 1,000 others name hosts the guarded fetcher finds no address for, so they fail at once,
 * without a connection. The thousands of requests go to `oauth.handle` (the fetch handler, as
 * Deno, Bun or Workers call it) rather than through a socket each.
 */
describe('the jwks_uri failures an instance remembers in memory', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let served: Served;
  const warnings: string[] = [];
  // A clock that stands still: every failure stays within its 30 s, however long the test takes.
  const frozen = Date.now();
  const now = () => frozen;
  beforeAll(async () => {
    host = await startDocumentHost();
    const logger = { debug() {}, info() {}, warn: (line: string) => void warnings.push(line), error: (line: string) => void warnings.push(line) };
    // The clients' share is half: CAP + 1 clients fill it, and no failure can be kept in the store.
    const store = new MemoryOAuthStore({ now, maxEntries: 2 * (CAP + 1) });
    served = await serveOAuth('fetch', { now, logger, store, rateLimit: false, clientDocuments: { fetcher: host.fetcher() } });
  });
  afterAll(async () => {
    await served?.close();
    await host?.close();
  });

  /** The status and JSON body of `oauth.handle`'s answer to a POST at `path`. */
  async function post(path: string, type: string, body: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await served.oauth.handle(new Request(`${served.base}${path}`, { method: 'POST', headers: { 'content-type': type }, body }));
    return { status: answer!.status, body: (await answer!.json()) as Record<string, unknown> };
  }
  const registration = (jwksUri?: string) =>
    JSON.stringify({ redirect_uris: [CALLBACK], ...(jwksUri ? { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri } : { token_endpoint_auth_method: 'none' }) });

  /** Runs `task` for each of `items`, `width` at a time. */
  async function inBatches<T>(items: readonly T[], task: (item: T) => Promise<void>, width = 50): Promise<void> {
    for (let start = 0; start < items.length; start += width) await Promise.all(items.slice(start, start + width).map(task));
  }

  it(`holds ${CAP} of them: one more forgets the oldest, which is then fetched again`, async () => {
    const path = `/${randomUUID()}/jwks.json`;
    host.routes.set(`client.example${path}`, (_req, res) => void res.writeHead(503).end());
    const fetches = () => host.hits.filter((hit) => hit.includes(path)).length;
    const key = new ClientKey(undefined, now);
    const register = async (jwksUri: string) => {
      const { status, body } = await post('/register', 'application/json', registration(jwksUri));
      expect(status).toBe(201);
      return String(body.client_id);
    };
    const oldest = await register(`https://client.example${path}`);
    const others: string[] = [];
    await inBatches(
      Array.from({ length: CAP }, (_, i) => i),
      async (i) => void others.push(await register(`https://keys-${i}.invalid/jwks.json`)),
    );
    expect((await post('/register', 'application/json', registration())).status).toBe(503); // the clients' share is full

    const refused = { status: 401, body: { error: 'invalid_client', error_description: expect.stringMatching(/jwks_uri could not be fetched/) } };
    const asClient = (clientId: string) => post('/token', 'application/x-www-form-urlencoded', new URLSearchParams(madeUpCodeForm(key, clientId, served.oauth.issuer)).toString());
    const failsAsClient = async (clientId: string) => expect(await asClient(clientId)).toMatchObject(refused);

    // The oldest failure, kept in memory only.
    await failsAsClient(oldest);
    expect(fetches()).toBe(1);
    expect(warnings.filter((line) => line.includes(path))).toEqual([expect.stringContaining('the store is full')]);

    // CAP - 1 more: the oldest is still remembered, so it is not fetched again.
    await inBatches(others.slice(0, CAP - 1), failsAsClient);
    expect(warnings.filter((line) => line.includes('could not be fetched'))).toHaveLength(CAP);
    await failsAsClient(oldest);
    expect(fetches()).toBe(1);

    // One more: the oldest is forgotten, and fetched again.
    await failsAsClient(others[CAP - 1]!);
    await failsAsClient(oldest);
    expect(fetches()).toBe(2);
  });
});

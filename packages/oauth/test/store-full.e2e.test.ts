import type { Client } from '@modelcontextprotocol/client';
import type { ToolLogger } from '@toolwright/core';
import { MemoryOAuthStore } from '@toolwright/oauth';
import { TestBrowser, consentForm } from './fixtures/browser';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { CALLBACK, authorizeUrl, codeFor, mcpStatus, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';
import { signInClient } from './fixtures/signIn';

/** The store's bound: half of it for registered clients, a quarter for pending sign-ins. */
const MAX_ENTRIES = 100;
const DAY = 86_400;

/**
 * Behind a reverse proxy on the same machine every caller looks like loopback, which the rate
 * limits let through: registrations and sign-ins can pour in. The store fills, but only the
 * share such entries may take: the clients and grants already there keep signing in,
 * exchanging codes and refreshing; what does not fit is answered 503 with Retry-After (never
 * 500), and registrations no one signs in with are gone after a day.
 */
describe('a full OAuth store never breaks the clients already there', () => {
  let served: Served;
  let store: MemoryOAuthStore;
  let sdkClient: Client;
  const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Signed-in desktop client' });
  let registeredOnly: string;
  /** A client registered in the flood and never used. */
  let unused: string;
  const clock = testClock();
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: ToolLogger = { debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message), error: (message) => void errors.push(message) };

  beforeAll(async () => {
    store = new MemoryOAuthStore({ now: clock.now, maxEntries: MAX_ENTRIES });
    served = await serveOAuth('node', { now: clock.now, store, logger });
    sdkClient = await signInClient(served.mcpUrl, provider);
    registeredOnly = String((await registerClient(served.base)).body.client_id);
  });
  afterAll(async () => {
    await sdkClient?.close();
    await served?.close();
  });

  const register = () =>
    fetch(`${served.base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }) });

  /** The whole flow of a client already registered: sign-in through the consent page, code for tokens, a call to the MCP endpoint. */
  async function signsIn(clientId: string): Promise<void> {
    const { code, verifier } = await codeFor(served.base, {}, clientId);
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(tokens.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(tokens.body.access_token))).not.toBe(401);
  }

  /** The SDK client's access token has expired: it refreshes by itself and calls a tool. */
  async function refreshesAndCalls(): Promise<void> {
    const before = provider.tokensSaved.length;
    clock.advance(400); // past the access token's 300 s and the verifier's clock tolerance
    expect((await sdkClient.listTools()).tools.length).toBeGreaterThan(0);
    expect(provider.tokensSaved.length).toBe(before + 1);
  }

  it('registrations from loopback past the clients share get 503, Retry-After and an RFC 7591 error body; a client registered before signs in, the signed-in one refreshes', async () => {
    const answers = await Promise.all(Array.from({ length: 120 }, () => register()));
    const statuses = answers.map((answer) => answer.status);
    // Two clients were there: 48 more fill the half of the store registrations may take.
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_ENTRIES / 2 - 2);
    expect(statuses.filter((status) => status === 503)).toHaveLength(120 - (MAX_ENTRIES / 2 - 2));
    const refused = answers.find((answer) => answer.status === 503)!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    // The first client that blocks is the one registered before the flood and never used: it goes in a day.
    expect(retryAfter).toBeGreaterThan(DAY - 60);
    expect(retryAfter).toBeLessThanOrEqual(DAY);
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: `The authorization server cannot take this request now: retry in ${retryAfter} s.` });
    unused = ((await answers.find((answer) => answer.status === 201)!.json()) as { client_id: string }).client_id;
    await Promise.all(answers.filter((answer) => !answer.bodyUsed).map((answer) => answer.body?.cancel()));

    await signsIn(registeredOnly);
    await refreshesAndCalls();
    expect(errors).toEqual([]);
    expect(warnings.filter((w) => /store is full/.test(w))).toHaveLength(1);
    expect(warnings.join('\n')).toMatch(/no room for more clients .*rateLimit\.clientAddressOf/);
  });

  it('a day later the registrations nobody signed in with are gone and registering works again; the clients that signed someone in stay', async () => {
    const flooded = await register();
    expect(flooded.status).toBe(503);
    clock.advance(DAY);
    const again = await Promise.all(Array.from({ length: MAX_ENTRIES / 2 - 2 }, () => register()));
    expect(again.map((answer) => answer.status)).toEqual(again.map(() => 201));
    const forgotten = await fetch(authorizeUrl(served.base, { client_id: unused, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    expect(forgotten.status).toBe(400);
    expect(await forgotten.text()).toMatch(/Unknown client.*must register again/s);
    await Promise.all(again.filter((answer) => !answer.bodyUsed).map((answer) => answer.body?.cancel()));

    // Both clients signed someone in a day ago: both are still known.
    await signsIn(registeredOnly);
    await signsIn(String(provider.info!.client_id));
    await refreshesAndCalls();
  });

  it('sign-ins left pending past their share: /authorize answers a 503 page with Retry-After; the sign-in a user is finishing finishes; grants still refresh; sign-ins work again once those expire', async () => {
    const open = () => fetch(authorizeUrl(served.base, { client_id: registeredOnly, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    clock.advance(600); // the sign-ins of the tests before have expired
    // A user is on the consent page when the flood comes.
    const browser = new TestBrowser();
    const pkce = pkcePair();
    const consentPage = await browser.request(authorizeUrl(served.base, { client_id: registeredOnly, code_challenge: pkce.challenge }));
    const form = consentForm(await consentPage.text());
    const answers: Response[] = [];
    for (let i = 0; i < MAX_ENTRIES / 4 + 5; i++) answers.push(await open());
    // Each one waits on its consent page for 10 minutes, as the user's does.
    const fitting = MAX_ENTRIES / 4 - 1;
    expect(answers.slice(0, fitting).map((answer) => answer.status)).toEqual(Array.from({ length: fitting }, () => 200));
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect(refused.headers.get('location')).toBeNull();
    expect(refused.headers.get('content-type')).toMatch(/text\/html/);
    expect(await refused.text()).toMatch(/Temporarily unavailable/);
    await Promise.all(answers.filter((answer) => !answer.bodyUsed).map((answer) => answer.body?.cancel()));

    // The user's sign-in under way finishes: the consent is taken and the code works.
    const action = new URL(form.action, served.base).href;
    const allowed = await browser.request(action, { method: 'POST', form: { ...form.fields, decision: 'allow' }, origin: served.base });
    expect(allowed.status).toBe(302);
    const code = new URL(allowed.headers.get('location')!).searchParams.get('code');
    expect(code).toBeTruthy();
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: registeredOnly, code: code!, code_verifier: pkce.verifier, redirect_uri: CALLBACK });
    expect(tokens.status).toBe(200);

    await refreshesAndCalls();
    clock.advance(600);
    await signsIn(registeredOnly);
    expect(errors).toEqual([]);
  });
});

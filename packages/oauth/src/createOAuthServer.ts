import { ConfigError } from '@toolwright/core';
import type { AuthorizationServerMount, HttpAuthOptions, TokenVerifier } from '@toolwright/server/auth';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientDocuments, isDocumentClientId } from './cimd/clientDocuments';
import { defaultDocumentFetcher } from './cimd/defaultDocumentFetcher';
import { AUTHORIZE_METHODS, CONSENT_METHODS, authorize, completeSignIn, consent } from './endpoints/authorize';
import { authorizationServerMetadata, metadataPaths } from './endpoints/metadata';
import { DOCUMENT_METHODS, publicDocument } from './endpoints/publicDocument';
import { REGISTER_METHODS, register } from './endpoints/register';
import { REVOKE_METHODS, revoke } from './endpoints/revoke';
import { TOKEN_METHODS, token } from './endpoints/token';
import { accessTokenVerifier } from './accessTokenVerifier';
import { loadGrant } from './grants';
import { MemoryOAuthStore } from './MemoryOAuthStore';
import { storeFullRetryAfter } from './OAuthStoreFullError';
import type { OAuthClient } from './OAuthClient';
import type { Endpoints, OAuthContext } from './OAuthContext';
import { readJson } from './OAuthContext';
import { errorPage, json, oauthError } from './oauthResponses';
import { optionsAnswer } from './optionsAnswer';
import { createRateLimiter, type RateLimitedEndpoint } from './rateLimits';
import type { OAuthServerOptions, SignInOutcome } from './OAuthServerOptions';
import { nodeRequestBody, toWebRequest, writeWebResponse } from './nodeAdapter';
import { nodeHeaders } from './nodeHeaders';
import { answerNodeFailure } from './answerNodeFailure';
import { createTokenSigner } from './tokenSigner';
import { checkUpstreamUrls } from './upstream/checkUpstreamUrls';
import { CALLBACK_METHODS, createUpstream } from './upstream/createUpstream';
import { upstreamTokenKeeper } from './upstream/upstreamTokenKeeper';
import { sealingKey } from './upstream/sealing';
import type { UpstreamTokens } from './upstream/UpstreamProvider';
import { hmacKey, randomToken } from './webCrypto';
import { jwksUriKeys } from './jwksUriKeys';
import { consoleLogger } from './consoleLogger';
import { consentOffRisk } from './consentOffRisk';
import { guardedLogger } from './guardedLogger';

/** A running authorization server: its endpoints as a fetch handler, and what the MCP endpoint needs to accept its tokens. */
export interface OAuthServer extends AuthorizationServerMount {
  readonly issuer: string;
  /** The RFC 8414 metadata document. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /**
   * The MCP endpoint's `auth` option: tokens of this server are verified (`jwtVerifier` on its
   * keys, audience = the resource, and the grant not revoked), and the RFC 9728 metadata names
   * this issuer. `createApp({ oauth })` uses it; or pass it to `createFetchHandler`,
   * `createHttpHandler` or `app.listen` yourself.
   */
  readonly auth: HttpAuthOptions & { resource: string };
  /** Checks an access token of this server for the first resource: signature, issuer, audience, expiry, and that its grant was not revoked. */
  readonly verifyToken: TokenVerifier;
  /** The `auth` option for another of the `resource`s this server issues tokens for. */
  authFor(resource: string): HttpAuthOptions & { resource: string };
  /** The paths it answers (metadata, authorize, consent, token, register, revoke, keys, callback). */
  readonly paths: readonly string[];
  /** Answers a request for one of the authorization server's paths; undefined for any other path. */
  handle(request: Request): Promise<Response | undefined>;
  /**
   * Answers a node request for one of `paths` (as `createApp({ oauth })` has the node listener do).
   * It never rejects: a request that cannot be read is answered 400, a failure while answering
   * 500 with no detail (both logged), and nothing is answered to a client that is gone.
   */
  handleNode(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** A fetch handler serving these endpoints in front of `next` (the MCP fetch handler). */
  fetch(next: (request: Request) => Promise<Response>): (request: Request) => Promise<Response>;
  /** A node request listener serving these endpoints in front of `next` (`createHttpHandler`'s handler). It never rejects, as `handleNode`; when `next` rejects, that is logged and answered 500 (or the response cut off, when under way). */
  node(next: (req: IncomingMessage, res: ServerResponse) => unknown): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /**
   * The upstream provider's tokens of the caller's grant (`ctx.authInfo` in a tool), for calling
   * the provider's API on the user's behalf; undefined without `upstream` or once revoked. An
   * access token that has expired, or will within `minValiditySeconds` (default 30), is first
   * refreshed with the upstream refresh token: once per grant however many calls ask at once,
   * on any instance sharing the store. When the provider refuses the refresh, the grant is
   * revoked (the client signs in again) and this answers undefined.
   */
  upstreamTokens(authInfo: { extra?: Record<string, unknown> }, options?: { minValiditySeconds?: number }): Promise<UpstreamTokens | undefined>;
  /** Finishes a sign-in your own login page took over (when `signIn` returned a Response): answers with the consent page or the redirect to the client. */
  completeSignIn(signInId: string, outcome: SignInOutcome): Promise<Response>;
}

/**
 * An OAuth 2.1 authorization server for an MCP endpoint, on web-standard Request/Response:
 * metadata (RFC 8414, OpenID discovery paths), client ID metadata documents and dynamic
 * registration (RFC 7591), the authorization code flow with PKCE S256 only, exact redirect
 * URIs (RFC 8252 loopback ports), `iss` in responses (RFC 9207), resource indicators (RFC
 * 8707), short-lived JWT access tokens, rotating refresh tokens with reuse detection, and
 * revocation (RFC 7009). The app signs users in (`signIn`); this server never sees passwords.
 */
export async function createOAuthServer(options: OAuthServerOptions): Promise<OAuthServer> {
  const issuerUrl = parseUrl(options.issuer, 'issuer');
  if (issuerUrl.search || issuerUrl.hash)
    throw new ConfigError(`Toolwright oauth: issuer must have no query or fragment, got '${options.issuer}'. Give its origin and path only, e.g. 'https://auth.example.com'.`);
  if (issuerUrl.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(issuerUrl.hostname)) {
    throw new ConfigError(
      `Toolwright oauth: issuer must be an https URL (http only on localhost), got '${options.issuer}'. Serve the authorization server over https, e.g. 'https://auth.example.com', or use http://localhost:<port> while developing.`,
    );
  }
  const issuer = options.issuer.replace(/\/$/, '');
  const issuerPath = new URL(issuer).pathname.replace(/\/$/, '');
  const resources = typeof options.resource === 'string' ? [options.resource] : [...options.resource];
  if (resources.length === 0) throw new ConfigError('Toolwright oauth: resource must name the MCP endpoint tokens are for (e.g. https://mcp.example.com/mcp).');
  for (const resource of resources) {
    const url = parseUrl(resource, 'resource');
    if (url.hash) throw new ConfigError(`Toolwright oauth: resource must have no fragment (RFC 8707), got '${resource}'. Drop the '#' and what follows it.`);
  }
  if (options.upstream && options.signIn) throw new ConfigError('Toolwright oauth: set signIn or upstream, not both: with upstream, users sign in at the upstream provider.');
  const upstreamParams = options.upstream?.authorizeParams;
  if (options.upstream && upstreamParams && Object.hasOwn(upstreamParams, 'response_mode')) {
    throw new ConfigError(
      `Toolwright oauth: upstream ${options.upstream.name}: authorizeParams sets response_mode (${JSON.stringify(upstreamParams.response_mode)}), but ${issuer}/callback takes the provider's answer only as a GET with it in the query (a form_post is refused with 405, so no one could sign in). Remove response_mode from authorizeParams.`,
    );
  }
  if (options.upstream) checkUpstreamUrls(options.upstream);
  if (!options.upstream && typeof options.signIn !== 'function') {
    throw new ConfigError(
      'Toolwright oauth: signIn is required (the function that tells who the user is: the authorization server does not own users), or upstream to sign users in at an identity provider.',
    );
  }
  const log = options.logger ? guardedLogger(options.logger) : consoleLogger;
  if (options.upstream && options.secret === undefined)
    log.warn('toolwright oauth: upstream tokens and sign-ins are encrypted with a random key made at start (no secret given): they are lost on restart and unreadable by other instances. Set secret.');
  if (options.secret !== undefined && !(typeof options.secret === 'string' && options.secret.length >= 32)) throw new ConfigError(secretProblem(options.secret));
  const consentRisk = consentOffRisk(options);
  if (consentRisk && 'error' in consentRisk) throw new ConfigError(consentRisk.error);
  if (consentRisk) log.warn(consentRisk.warning);
  const scopes = [...(options.scopes ?? [])];
  for (const scope of scopes) {
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) {
      throw new ConfigError(
        `Toolwright oauth: scopes has ${JSON.stringify(scope)}, which is not a scope token (RFC 6749 §3.3: printable ASCII without spaces, '"' or '\\'). Name each scope on its own, e.g. scopes: ['notes:read', 'notes:write'].`,
      );
    }
  }

  const now = options.now ?? Date.now;
  const store = options.store ?? new MemoryOAuthStore({ now });
  const signer = await createTokenSigner(options.signingKey);
  const secret = options.secret ?? randomToken(32);
  const rotationKey = await hmacKey(new TextEncoder().encode(secret));
  const paths: Endpoints = {
    authorize: `${issuerPath}/authorize`,
    consent: `${issuerPath}/authorize/consent`,
    token: `${issuerPath}/token`,
    register: `${issuerPath}/register`,
    revoke: `${issuerPath}/revoke`,
    jwks: `${issuerPath}/jwks.json`,
    callback: `${issuerPath}/callback`,
  };
  const origin = new URL(issuer).origin;
  const urls = Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, `${origin}${path}`])) as unknown as Endpoints;
  const documentsOn = options.clientDocuments !== false;
  const documentOptions = options.clientDocuments === false ? {} : (options.clientDocuments ?? {});
  let fetcher = documentOptions.fetcher;
  const documentFetcher = () => (fetcher ??= defaultDocumentFetcher());
  const lookupDocument = documentsOn ? clientDocuments(store, (url, etag) => documentFetcher()(url, etag), documentOptions, now, log) : undefined;

  const context: OAuthContext = {
    issuer,
    urls,
    paths,
    resources,
    scopes,
    consent: options.consent !== false,
    registration: options.registration !== false,
    clientDocuments: documentsOn,
    store,
    signer,
    rotationKey,
    rolesClaim: options.rolesClaim ?? 'roles',
    ttl: {
      access: options.accessTokenTtlSeconds ?? 300,
      refresh: options.refreshTokenTtlSeconds ?? 30 * 86_400,
      grant: options.grantTtlSeconds ?? 90 * 86_400,
      grace: options.refreshGraceSeconds ?? 10,
      code: 60,
      signIn: 600,
      // A client outlives its grants: they refresh at /token, which needs it.
      client: Math.max(positiveSeconds(options.clientTtlSeconds, 'clientTtlSeconds', 180 * 86_400), options.grantTtlSeconds ?? 90 * 86_400),
      unusedClient: positiveSeconds(options.unusedClientTtlSeconds, 'unusedClientTtlSeconds', 86_400),
    },
    ...(options.signIn && { signIn: options.signIn }),
    ...(options.upstream && { upstream: createUpstream(options.upstream, { callbackUrl: urls.callback, store, sealKey: await sealingKey(secret), now }) }),
    ...(options.renderConsent && { renderConsent: options.renderConsent }),
    now,
    log,
    jwksUriKeys: jwksUriKeys(store, documentFetcher, now, log),
    async findClient(clientId) {
      if (clientId.length > 2048) return { error: 'client_id is too long' };
      if (isDocumentClientId(clientId)) return lookupDocument ? lookupDocument(clientId) : { error: 'client ID metadata documents are turned off on this server' };
      const client = await readJson<OAuthClient>(store, `client:${clientId}`);
      if (client) return { client };
      // Registrations expire (unused ones within a day): the way back is a new registration.
      return { error: `no client is registered as '${clientId}' (a registration expires when unused): the application must register again, e.g. remove this server from it and add it back` };
    },
  };

  const metadata = Object.freeze(authorizationServerMetadata(context));
  const routes = new Map<string, (request: Request) => Promise<Response>>();
  const limitOf = new Map<string, RateLimitedEndpoint>([
    [paths.register, 'register'],
    [paths.token, 'token'],
    [paths.revoke, 'token'],
    [paths.authorize, 'authorize'],
    [paths.consent, 'authorize'],
    [paths.callback, 'authorize'],
  ]);
  /**
   * The methods each endpoint serves (HEAD only at the public documents: a GET at `/authorize` or
   * the callback starts or completes a sign-in, which a HEAD must not), as OPTIONS lists them. A
   * request with another is answered by its endpoint's 405, before the rate limit counts it: a
   * HEAD or a stray GET spends no one's token, and a HEAD at the upstream callback no one's sign-in.
   * Each list is the endpoint module's own, which its 405 names too (`allowOf`).
   */
  const methodsOf = new Map<string, readonly string[]>([
    ...metadataPaths(issuerPath).map((path) => [path, DOCUMENT_METHODS] as const),
    [paths.jwks, DOCUMENT_METHODS],
    [paths.register, REGISTER_METHODS],
    [paths.token, TOKEN_METHODS],
    [paths.revoke, REVOKE_METHODS],
    [paths.authorize, AUTHORIZE_METHODS],
    [paths.consent, CONSENT_METHODS],
    [paths.callback, CALLBACK_METHODS],
  ]);
  const takeRequest = createRateLimiter(options.rateLimit, now);
  const clientAddressOf = options.rateLimit ? options.rateLimit.clientAddressOf : undefined;
  /** The remote address of each request the node listener converted. */
  const socketAddresses = new WeakMap<Request, string>();
  const metadataDocument = publicDocument(metadata, 'authorization server metadata');
  for (const path of metadataPaths(issuerPath)) routes.set(path, metadataDocument);
  routes.set(paths.jwks, publicDocument(signer.jwks, 'key set'));
  routes.set(paths.authorize, (request) => authorize(context, request));
  routes.set(paths.consent, (request) => consent(context, request));
  routes.set(paths.token, (request) => token(context, request));
  routes.set(paths.revoke, (request) => revoke(context, request));
  if (context.registration) routes.set(paths.register, (request) => register(context, request));
  const upstream = context.upstream;
  if (upstream) {
    routes.set(paths.callback, async (request) => {
      const answer = await upstream.callback(request);
      return answer instanceof Response ? answer : completeSignIn(context, answer.signInId, answer.outcome, answer.sealed);
    });
  }
  const preflight = new Set([...metadataPaths(issuerPath), paths.jwks, paths.token, paths.revoke, paths.register]);

  const verifyToken = accessTokenVerifier(context, resources[0]!);
  const keepUpstreamTokens = upstream && upstreamTokenKeeper(context, upstream);

  function authFor(resource: string): HttpAuthOptions & { resource: string } {
    if (!resources.includes(resource))
      throw new ConfigError(`Toolwright oauth: authFor('${resource}'): this server issues tokens only for ${resources.join(', ')}. Pass one of them, or add '${resource}' to the resource option.`);
    return {
      verifyToken: resource === resources[0] ? verifyToken : accessTokenVerifier(context, resource),
      resource,
      authorizationServers: [issuer],
      ...(scopes.length > 0 && { scopesSupported: scopes }),
    };
  }

  /** The answer of the endpoint at `path`, with those given around it: the rate limit's 429, a full store's 503, a failure's 500. */
  const answerOf = async (request: Request, path: string, route: (request: Request) => Promise<Response>): Promise<Response> => {
    const methods = methodsOf.get(path) ?? [];
    if (request.method === 'OPTIONS') return optionsAnswer(methods, preflight.has(path));
    try {
      const limited = limitOf.get(path);
      // The endpoint's first check answers 405 (with Allow) and reads nothing else.
      if (!methods.includes(request.method)) return await route(request);
      if (limited) {
        const waitSeconds = await takeRequest(limited, clientAddressOf?.(request) ?? socketAddresses.get(request));
        if (waitSeconds > 0) return tooManyRequests(limited, path, waitSeconds);
      }
      return await route(request);
    } catch (error) {
      const retryAfter = storeFullRetryAfter(error);
      if (retryAfter !== undefined) return storeFull(limitOf.get(path) === 'authorize', path, retryAfter, error);
      log.error(`toolwright oauth: ${request.method} ${path} failed: ${(error as Error)?.stack ?? String(error)}`);
      return json({ error: 'server_error', error_description: 'the authorization server failed; its log has the details' }, 500);
    }
  };

  const handle = async (request: Request): Promise<Response | undefined> => {
    const path = new URL(request.url).pathname;
    const route = routes.get(path);
    if (!route) return undefined;
    const answer = await answerOf(request, path, route);
    // A HEAD answer has the GET's status and headers and no body (RFC 9110 §9.3.2): a public document's 200, or an endpoint's 405
    // (every rate-limited endpoint refuses HEAD before the rate limit, so no 429 or 503 is given around it).
    return request.method === 'HEAD' && answer.body !== null ? new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers }) : answer;
  };

  /** The store took no new entry: 503 with Retry-After (a page where a browser asked), logged at most once a minute. */
  let storeFullLoggedAt = -Infinity;
  const storeFull = (page: boolean, path: string, retryAfter: number, error: unknown): Response => {
    if (now() - storeFullLoggedAt >= 60_000) {
      storeFullLoggedAt = now();
      log.warn(`toolwright oauth: ${path} answered 503 (the store is full; this is logged at most once a minute): ${(error as Error)?.message ?? String(error)}`);
    }
    const what = `The authorization server cannot take this request now: retry in ${retryAfter} s.`;
    const headers = { 'Retry-After': String(retryAfter) };
    return page ? errorPage('Temporarily unavailable', what, 503, headers) : oauthError('temporarily_unavailable', what, 503, headers);
  };

  /** Never rejects (node's http server drops a listener's promise): a failure is logged and answered by `answerNodeFailure`. */
  const handleNode = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // What the client sent that cannot be read or carried by a `Request` (a body that failed to arrive, a method such as TRACE,
    // a target WHATWG URL refuses) is the client's ('read', 400); headers a host set that `Headers` refuses, and the rest, are the server's ('answer', 500).
    let stage: 'read' | 'answer' = 'answer';
    try {
      const headers = nodeHeaders(req);
      const reading = nodeRequestBody(req, headers);
      stage = 'read';
      const request = toWebRequest(req, origin, headers, await reading);
      stage = 'answer';
      if (req.socket?.remoteAddress) socketAddresses.set(request, req.socket.remoteAddress);
      const response = (await handle(request)) ?? json({ error: 'not_found', error_description: 'no such endpoint on this authorization server' }, 404);
      await writeWebResponse(res, response);
    } catch (error) {
      await answerNodeFailure(req, res, stage, error, log);
    }
  };

  const server: OAuthServer = {
    issuer,
    metadata,
    auth: authFor(resources[0]!),
    verifyToken,
    authFor,
    handle,
    fetch: (next) => async (request) => (await handle(request)) ?? next(request),
    paths: Object.freeze([...routes.keys()]),
    handleNode,
    node: (next) => async (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (routes.has(path)) return handleNode(req, res);
      try {
        await next(req, res);
      } catch (error) {
        await answerNodeFailure(req, res, 'answer', error, log);
      }
    },
    completeSignIn: (signInId, outcome) =>
      completeSignIn(context, signInId, outcome).catch((error: unknown) => {
        const retryAfter = storeFullRetryAfter(error);
        if (retryAfter === undefined) throw error;
        return storeFull(true, paths.authorize, retryAfter, error);
      }),
    async upstreamTokens(authInfo, tokenOptions = {}) {
      const sid = (authInfo.extra?.claims as { sid?: unknown } | undefined)?.sid;
      if (!keepUpstreamTokens || typeof sid !== 'string' || !(await loadGrant(context, sid))) return undefined;
      return keepUpstreamTokens(sid, tokenOptions.minValiditySeconds ?? 30);
    },
  };
  return Object.freeze(server);
}

function tooManyRequests(endpoint: RateLimitedEndpoint, path: string, waitSeconds: number): Response {
  const headers = { 'Retry-After': String(waitSeconds) };
  const what = `Too many requests to ${path} from this address: retry in ${waitSeconds} s.`;
  if (endpoint === 'authorize') {
    const page = errorPage('Too many requests', what, 429);
    page.headers.set('Retry-After', String(waitSeconds));
    return page;
  }
  return oauthError('too_many_requests', what, 429, headers);
}

/** A lifetime option: a positive number of seconds, or the default when not given. */
function positiveSeconds(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new ConfigError(`Toolwright oauth: ${name} must be a positive number of seconds, got ${JSON.stringify(value) ?? String(value)}. Give one such as ${fallback} (the default), or leave it out.`);
}

function parseUrl(value: string, name: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigError(`Toolwright oauth: ${name} must be an absolute URL, got '${String(value)}'. Give one such as '${URL_EXAMPLES.get(name) ?? 'https://auth.example.com'}'.`);
  }
}

const URL_EXAMPLES = new Map([
  ['issuer', 'https://auth.example.com'],
  ['resource', 'https://mcp.example.com/mcp'],
]);

/** Why `secret` is refused, without quoting it (it is a secret even when too short). */
function secretProblem(secret: unknown): string {
  const given = typeof secret === 'string' ? `the one given has ${secret.length}` : `the one given is ${secret === null ? 'null' : `a ${typeof secret}`}`;
  return `Toolwright oauth: secret must be a string of at least 32 characters; ${given}. Generate one (e.g. openssl rand -base64 48), read it from the environment, and give every instance the same.`;
}

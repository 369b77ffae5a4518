import { ToolwrightError } from '@toolwright/core';
import { isDocumentClientId } from '../cimd/clientDocuments';
import type { GrantRecord, OAuthContext, SignInRecord } from '../OAuthContext';
import { readJson } from '../OAuthContext';
import type { SignInOutcome, SignInRequest } from '../OAuthServerOptions';
import { PAGE_HEADERS, errorDescription, errorPage, readForm, redirect } from '../oauthResponses';
import { allowOf } from '../optionsAnswer';
import { isS256Challenge } from '../pkce';
import { matchRedirectUri } from '../redirectUris';
import { scopeTokens } from '../scopeTokens';
import { randomToken, sameString, sha256 } from '../webCrypto';
import { consentPage } from './consentPage';
import type { CodeRecord } from './token';

/** The methods the authorization endpoint serves (no HEAD: a GET starts a sign-in, which a HEAD must not). */
export const AUTHORIZE_METHODS: readonly string[] = ['GET'];

/** The methods the consent form's endpoint serves. */
export const CONSENT_METHODS: readonly string[] = ['POST'];

/** The longest `state` carried back to the client; a longer one is refused and not echoed. */
const MAX_STATE = 1024;

/**
 * The consent CSRF cookie of one pending sign-in: named after it, so two sign-ins in one
 * browser (two tabs) each keep their own, and neither's cookie answers the other's form.
 */
function csrfCookie(signInId: string): string {
  return `tw_oauth_consent_${signInId}`;
}

/**
 * The authorization endpoint. Until the client and its redirect URI are known to be valid,
 * errors are shown on a page (never redirected: no open redirect); after, they go back to the
 * client with `error`, `state` and `iss` (RFC 9207). A valid request becomes a pending
 * sign-in that the app's `signIn` hook decides.
 */
export async function authorize(context: OAuthContext, request: Request): Promise<Response> {
  if (!AUTHORIZE_METHODS.includes(request.method)) return errorPage('Method not allowed', 'The authorization endpoint takes GET.', 405, { Allow: allowOf(AUTHORIZE_METHODS) });
  const params = new URL(request.url).searchParams;
  // A repeated client_id or redirect_uri leaves the destination unverified: a page, never a redirect (RFC 6749 §4.1.2.1).
  for (const name of ['client_id', 'redirect_uri']) {
    if (params.getAll(name).length > 1) return errorPage('Invalid request', `The parameter ${name} is repeated.`);
  }
  const clientId = params.get('client_id');
  if (!clientId) return errorPage('Invalid request', 'The request names no client (client_id).');
  const found = await context.findClient(clientId);
  if ('error' in found) return errorPage('Unknown client', `This client cannot sign in here: ${found.error}.`);
  const client = found.client;
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri) return errorPage('Invalid request', 'The request has no redirect_uri.');
  if (!matchRedirectUri(client.redirectUris, redirectUri)) return errorPage('Invalid redirect', 'The redirect_uri is not one this client registered.');

  // A repeated state is not echoed (neither copy is the client's one state), nor one too long to carry back.
  const sent = params.getAll('state');
  const state = sent.length === 1 && sent[0]!.length <= MAX_STATE ? sent[0] : undefined;
  const fail = (error: string, description: string) => redirect(callbackUrl(context, redirectUri, { error, error_description: description, state }));
  // Once the redirect URI is verified, any other parameter sent twice goes back to the client as invalid_request (RFC 6749 §3.1, §4.1.2.1).
  for (const name of ['response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource']) {
    if (params.getAll(name).length > 1) return fail('invalid_request', `${name} is repeated: send each parameter once`);
  }
  if (sent.length === 1 && state === undefined) return fail('invalid_request', `state is longer than ${MAX_STATE} characters`);
  const responseType = params.get('response_type');
  if (!responseType) return fail('invalid_request', 'send response_type=code');
  if (responseType !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  const challenge = params.get('code_challenge');
  if (!challenge) return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256');
  if (params.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
  if (!isS256Challenge(challenge)) return fail('invalid_request', 'code_challenge must be 43 base64url characters (an S256 digest)');
  const resource = params.get('resource') ?? context.resources[0]!;
  if (!context.resources.includes(resource)) return fail('invalid_target', `resource must be one of: ${context.resources.join(', ')}`);
  let scopes = scopeTokens(params.get('scope'));
  const unknown = scopes.filter((s) => !context.scopes.includes(s));
  if (unknown.length > 0) return fail('invalid_scope', `unknown scope: ${unknown.join(' ')}`);
  if (client.scope !== undefined) {
    const allowed = scopeTokens(client.scope);
    const beyond = scopes.filter((s) => !allowed.includes(s));
    if (beyond.length > 0) return fail('invalid_scope', `this client registered no scope ${beyond.join(' ')}`);
    // A client that registered scopes may use those alone (RFC 7591 §2): asking for none asks for them (RFC 6749 §3.3's default), never for every scope here.
    if (scopes.length === 0 && context.scopes.length > 0) {
      scopes = allowed.filter((s) => context.scopes.includes(s));
      if (scopes.length === 0) return fail('invalid_scope', `this client registered none of this server's scopes (${context.scopes.join(' ')}): register the ones it needs`);
    }
  }

  const id = randomToken(24);
  const record: SignInRecord = { clientId, redirectUri, ...(state !== undefined && { state }), codeChallenge: challenge, scopes, resource };
  await context.store.set(`signin:${id}`, JSON.stringify(record), context.ttl.signIn);
  const signIn: SignInRequest = {
    id,
    client: {
      id: clientId,
      kind: isDocumentClientId(clientId) && client.source === 'document' ? 'document' : 'registered',
      ...(client.clientName !== undefined && { name: client.clientName }),
      ...(client.clientUri !== undefined && { uri: client.clientUri }),
      ...(client.logoUri !== undefined && { logoUri: client.logoUri }),
    },
    redirectUri,
    scopes,
    resource,
  };
  if (context.upstream) return context.upstream.start(id);
  const outcome = await context.signIn!(request, signIn);
  if (outcome instanceof Response) return outcome;
  return completeSignIn(context, id, outcome);
}

/** Continues a pending sign-in once the user is known: the consent page, or straight back to the client. */
export async function completeSignIn(context: OAuthContext, id: string, outcome: SignInOutcome, upstreamSealed?: string): Promise<Response> {
  const record = await readJson<SignInRecord>(context.store, `signin:${id}`);
  if (!record) return errorPage('Sign-in expired', 'This sign-in is unknown or has expired. Start again from your application.');
  if ('deny' in outcome) {
    await context.store.delete(`signin:${id}`);
    return redirect(callbackUrl(context, record.redirectUri, { error: 'access_denied', error_description: outcome.reason ?? 'the user was not signed in', state: record.state }));
  }
  if (typeof outcome.subject !== 'string' || outcome.subject === '') throw new ToolwrightError('Toolwright oauth: the signIn outcome needs a non-empty subject (the user id).');
  const signedIn: SignInRecord = {
    ...record,
    ...(upstreamSealed !== undefined && { upstream: upstreamSealed }),
    outcome: { subject: outcome.subject, scopes: outcome.scopes, roles: outcome.roles, claims: outcome.claims ? { ...outcome.claims } : undefined },
  };
  if (!context.consent) return issueCode(context, id, signedIn);

  const csrf = randomToken(24);
  await context.store.set(`signin:${id}`, JSON.stringify({ ...signedIn, csrfHash: await sha256(csrf) }), context.ttl.signIn);
  const found = await context.findClient(record.clientId);
  const client = 'client' in found ? found.client : undefined;
  // URLs as the browser will follow them (WHATWG parsing: a backslash ends the host, an IDN host
  // is punycode), not as the client wrote them: `https://evil.example\@good.example/cb` goes to evil.example.
  const view = {
    clientName: client?.clientName ?? record.clientId,
    clientId: record.clientId,
    ...(client?.clientUri !== undefined && { clientUri: new URL(client.clientUri).href }),
    redirectUri: new URL(record.redirectUri).href,
    scopes: grantedScopes(context, record.scopes, outcome.scopes),
    resource: record.resource,
    action: context.urls.consent,
    fields: { sign_in: id, csrf },
  };
  const secure = context.issuer.startsWith('https:') ? '; Secure' : '';
  return new Response((context.renderConsent ?? consentPage)(view), {
    status: 200,
    headers: { ...PAGE_HEADERS, 'Set-Cookie': `${csrfCookie(id)}=${csrf}; Path=${context.paths.consent}; HttpOnly; SameSite=Strict; Max-Age=${context.ttl.signIn}${secure}` },
  });
}

/** The consent form's answer: checked against the CSRF cookie, the form token and the request's Origin, then used once. */
export async function consent(context: OAuthContext, request: Request): Promise<Response> {
  if (!CONSENT_METHODS.includes(request.method)) return errorPage('Method not allowed', 'Answer the consent page with its form.', 405, { Allow: allowOf(CONSENT_METHODS) });
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(context.issuer).origin) return errorPage('Forbidden', 'This form was posted from another site.', 403);
  const form = await readForm(request);
  const id = form?.get('sign_in');
  const csrf = form?.get('csrf');
  const decision = form?.get('decision');
  if (!form || !id || !csrf || (decision !== 'allow' && decision !== 'deny')) return errorPage('Invalid request', 'The consent form is incomplete.');
  const cookie = cookieOf(request, csrfCookie(id));
  const record = await readJson<SignInRecord>(context.store, `signin:${id}`);
  if (!record?.outcome || !record.csrfHash) return errorPage('Sign-in expired', 'This sign-in is unknown or has expired. Start again from your application.');
  const hash = await sha256(csrf);
  if (cookie === undefined || !sameString(cookie, csrf) || !sameString(hash, record.csrfHash))
    return errorPage('Forbidden', 'The consent form could not be verified (CSRF check). Start again from your application.', 403);
  if (!(await context.store.add(`signin-done:${id}`, '1', context.ttl.signIn))) return errorPage('Already answered', 'This sign-in was already answered.');
  await context.store.delete(`signin:${id}`);
  const clear = { 'Set-Cookie': `${csrfCookie(id)}=; Path=${context.paths.consent}; HttpOnly; SameSite=Strict; Max-Age=0` };
  if (decision === 'deny') return redirect(callbackUrl(context, record.redirectUri, { error: 'access_denied', error_description: 'the user denied access', state: record.state }), clear);
  const response = await issueCode(context, id, record);
  response.headers.append('Set-Cookie', clear['Set-Cookie']);
  return response;
}

async function issueCode(context: OAuthContext, signInId: string, record: SignInRecord): Promise<Response> {
  await context.store.delete(`signin:${signInId}`);
  const outcome = record.outcome!;
  const found = await context.findClient(record.clientId);
  if ('error' in found) return errorPage('Unknown client', `This client cannot sign in here: ${found.error}.`);
  const now = context.now();
  const grant: GrantRecord = {
    id: randomToken(16),
    clientId: record.clientId,
    subject: outcome.subject,
    scopes: grantedScopes(context, record.scopes, outcome.scopes),
    roles: [...(outcome.roles ?? [])],
    claims: withoutReserved(outcome.claims ?? {}),
    resource: record.resource,
    expiresAt: now + context.ttl.grant * 1000,
    refresh: found.client.grantTypes.includes('refresh_token'),
  };
  await context.store.set(`grant:${grant.id}`, JSON.stringify(grant), context.ttl.grant);
  // A registered client that signed someone in is kept long (from this sign-in), no longer as an unused registration.
  if (found.client.source === 'registered') await context.store.set(`client:${record.clientId}`, JSON.stringify(found.client), context.ttl.client);
  if (record.upstream !== undefined && context.upstream) {
    const tokens = await context.upstream.unseal(record.upstream, `signin:${signInId}`);
    if (tokens) await context.store.set(`upstream:${grant.id}`, await context.upstream.seal(tokens, `grant:${grant.id}`), context.ttl.grant);
  }
  const code = randomToken(32);
  const codeRecord: CodeRecord = {
    grantId: grant.id,
    clientId: record.clientId,
    redirectUri: record.redirectUri,
    codeChallenge: record.codeChallenge,
    resource: record.resource,
    expiresAt: now + context.ttl.code * 1000,
  };
  await context.store.set(`code:${await sha256(code)}`, JSON.stringify(codeRecord), context.ttl.code);
  return redirect(callbackUrl(context, record.redirectUri, { code, state: record.state }));
}

/** What is granted: the scopes asked for that the user may hold; all the user may hold when none were asked for. */
function grantedScopes(context: OAuthContext, asked: readonly string[], allowed: readonly string[] | undefined): string[] {
  const mayHold = allowed ?? context.scopes;
  return asked.length === 0 ? mayHold.filter((s) => context.scopes.includes(s)) : asked.filter((s) => mayHold.includes(s));
}

const RESERVED = new Set(['iss', 'aud', 'sub', 'exp', 'iat', 'nbf', 'jti', 'scope', 'client_id', 'sid', 'azp']);

function withoutReserved(claims: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).filter(([name]) => !RESERVED.has(name)));
}

function callbackUrl(context: OAuthContext, redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, name === 'error_description' ? errorDescription(value) : value);
  url.searchParams.set('iss', context.issuer);
  return url.href;
}

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

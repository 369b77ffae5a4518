import type { ToolLogger } from '@toolwright/core';
import type { CryptoKey } from './webCrypto';
import type { JwksUriKeys } from './jwksUriKeys';
import type { OAuthClient } from './OAuthClient';
import type { ConsentView, SignInHook } from './OAuthServerOptions';
import type { OAuthStore } from './OAuthStore';
import type { TokenSigner } from './tokenSigner';
import type { Upstream } from './upstream/createUpstream';

/** Where each endpoint is: absolute URLs for the metadata, paths for routing. */
export interface Endpoints {
  readonly authorize: string;
  readonly consent: string;
  readonly token: string;
  readonly register: string;
  readonly revoke: string;
  readonly jwks: string;
  /** Where an upstream provider sends the browser back. */
  readonly callback: string;
}

/** What the endpoints share: the resolved options, the store, the signer and the clock. */
export interface OAuthContext {
  readonly issuer: string;
  readonly urls: Endpoints;
  readonly paths: Endpoints;
  readonly resources: readonly string[];
  readonly scopes: readonly string[];
  readonly consent: boolean;
  readonly registration: boolean;
  readonly clientDocuments: boolean;
  readonly store: OAuthStore;
  readonly signer: TokenSigner;
  readonly rotationKey: CryptoKey;
  readonly rolesClaim: string;
  readonly ttl: {
    readonly access: number;
    readonly refresh: number;
    readonly grant: number;
    readonly grace: number;
    readonly code: number;
    readonly signIn: number;
    readonly client: number;
    readonly unusedClient: number;
  };
  readonly signIn?: SignInHook;
  readonly renderConsent?: (view: ConsentView) => string;
  /** The upstream provider users sign in with, when this server proxies one. */
  readonly upstream?: Upstream;
  now(): number;
  /** Where the server logs what failed: the `logger` option, or the console. */
  readonly log: ToolLogger;
  /** The keys at a `private_key_jwt` client's `jwks_uri`: fetched through the guarded document fetcher, cached, and a failure remembered a while. */
  readonly jwksUriKeys: JwksUriKeys;
  /** The client of a client_id: registered, or fetched from its metadata document. */
  findClient(clientId: string): Promise<{ client: OAuthClient } | { error: string }>;
}

/** A pending sign-in: the validated authorization request, kept until the user decides. */
export interface SignInRecord {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state?: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  /** Set once the app's hook signed the user in; the consent page then decides. */
  readonly outcome?: { subject: string; scopes?: readonly string[]; roles?: readonly string[]; claims?: Record<string, unknown> };
  /** SHA-256 of the consent page's CSRF token. */
  readonly csrfHash?: string;
  /** The upstream tokens of this sign-in, sealed for `signin:<id>`. */
  readonly upstream?: string;
}

/** What a user granted a client: every code, refresh token and access token of one sign-in belongs to one grant; removing it revokes them all. */
export interface GrantRecord {
  readonly id: string;
  readonly clientId: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly roles: readonly string[];
  readonly claims: Record<string, unknown>;
  readonly resource: string;
  /** Milliseconds: the grant's end, whatever refreshes happen. */
  readonly expiresAt: number;
  /** Whether the client may refresh (its grant_types include refresh_token). */
  readonly refresh: boolean;
}

export async function readJson<T>(store: OAuthStore, key: string): Promise<T | undefined> {
  const raw = await store.get(key);
  return raw === undefined ? undefined : (JSON.parse(raw) as T);
}

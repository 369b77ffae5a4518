import type { ApplicationType } from './redirectUris';

/** A client the authorization server knows: registered (RFC 7591) or described by its metadata document (CIMD). */
export interface OAuthClient {
  readonly clientId: string;
  /** How the client came: `registered` by DCR, `document` by its client ID metadata document, `static` from the options. */
  readonly source: 'registered' | 'document' | 'static';
  readonly redirectUris: readonly string[];
  readonly applicationType: ApplicationType;
  readonly grantTypes: readonly string[];
  readonly tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** The public keys a `private_key_jwt` client signs its assertions with (RFC 7523), given inline... */
  readonly jwks?: { readonly keys: readonly Record<string, unknown>[] };
  /** ...or where they are published (fetched through the same guards as metadata documents). */
  readonly jwksUri?: string;
  /** SHA-256 of the client secret (confidential clients only). */
  readonly clientSecretHash?: string;
  readonly clientName?: string;
  readonly clientUri?: string;
  readonly logoUri?: string;
  /** The scopes this client may ask for (space-separated), when it registered some. */
  readonly scope?: string;
}

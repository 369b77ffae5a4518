import type { OAuthContext } from '../OAuthContext';
import { ALGORITHMS } from '../tokenSigner';

const ALGORITHM_NAMES = Object.keys(ALGORITHMS);

/** The RFC 8414 authorization server metadata (also served at the OpenID Connect discovery paths clients probe). */
export function authorizationServerMetadata(context: OAuthContext): Record<string, unknown> {
  return {
    issuer: context.issuer,
    authorization_endpoint: context.urls.authorize,
    token_endpoint: context.urls.token,
    ...(context.registration && { registration_endpoint: context.urls.register }),
    revocation_endpoint: context.urls.revoke,
    jwks_uri: context.urls.jwks,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...ALGORITHM_NAMES],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    revocation_endpoint_auth_signing_alg_values_supported: [...ALGORITHM_NAMES],
    ...(context.scopes.length > 0 && { scopes_supported: [...context.scopes] }),
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: context.clientDocuments,
    // OpenID Connect discovery requires these fields; no ID tokens are issued.
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [context.signer.alg],
  };
}

/**
 * The paths the metadata is served at for an issuer with path `issuerPath` ('' for the root):
 * RFC 8414's `/.well-known/oauth-authorization-server{path}`, OpenID's
 * `/.well-known/openid-configuration{path}` and `{path}/.well-known/openid-configuration`.
 */
export function metadataPaths(issuerPath: string): string[] {
  const paths = [`/.well-known/oauth-authorization-server${issuerPath}`, `/.well-known/openid-configuration${issuerPath}`];
  if (issuerPath) paths.push(`${issuerPath}/.well-known/openid-configuration`);
  return paths;
}

/** @toolwright/oauth — an OAuth 2.1 authorization server for Toolwright MCP servers, on web-standard Request/Response. */
export { createOAuthServer } from './createOAuthServer';
export type { OAuthServer } from './createOAuthServer';
export type { OAuthServerOptions, SignInHook, SignInRequest, SignInOutcome, ConsentView } from './OAuthServerOptions';
export type { OAuthStore } from './OAuthStore';
export { MemoryOAuthStore } from './MemoryOAuthStore';
export type { OAuthClient } from './OAuthClient';
export { nodeDocumentFetcher } from './cimd/nodeDocumentFetcher';
export type { NodeDocumentFetcherOptions } from './cimd/nodeDocumentFetcher';
export type { ClientDocumentOptions } from './cimd/clientDocuments';
export { DocumentRefusedError } from './cimd/ClientDocumentFetcher';
export type { ClientDocumentFetcher, FetchedDocument } from './cimd/ClientDocumentFetcher';
export { isPublicAddress } from './cimd/isPublicAddress';
export type { UpstreamProvider, UpstreamTokens } from './upstream/UpstreamProvider';
export { auth0Upstream, entraUpstream, githubUpstream, googleUpstream, keycloakUpstream, oidcUpstream, oktaUpstream } from './upstream/presets';
export type { UpstreamCredentials } from './upstream/presets';
export type { ApplicationType } from './redirectUris';
export type { OAuthRate, OAuthRateLimitOptions } from './rateLimits';

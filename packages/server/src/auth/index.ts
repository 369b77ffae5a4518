/** @toolwright/server/auth — bearer tokens, a JWT verifier, and the stdio caller's identity. */
export { jwtVerifier } from './jwtVerifier';
export type { JwtVerifierOptions, JwkSet } from './jwtVerifier';
export { envAuthInfo } from './envAuthInfo';
export type { EnvAuthInfoOptions } from './envAuthInfo';
export type { TokenVerifier } from './TokenVerifier';
export type { HttpAuthOptions } from './HttpAuthOptions';
export type { AuthInfoProvider } from './AuthInfoProvider';
export type { AuthorizationServerMount } from './AuthorizationServerMount';

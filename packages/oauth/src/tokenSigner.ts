import { ConfigError } from '@toolwright/core';
import { base64url, sha256, type CryptoKey } from './webCrypto';

type Jwk = Record<string, unknown>;

/** The JWS algorithms this server signs and verifies with, as Web Crypto names them. */
export const ALGORITHMS: Readonly<Record<string, { import: Record<string, unknown>; sign: Record<string, unknown> }>> = {
  ES256: { import: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  RS256: { import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
  PS256: { import: { name: 'RSA-PSS', hash: 'SHA-256' }, sign: { name: 'RSA-PSS', saltLength: 32 } },
  EdDSA: { import: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
};
const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']);

export interface TokenSigner {
  readonly alg: string;
  readonly kid: string;
  /** The public keys (`jwks_uri`, and what `jwtVerifier` checks tokens with). */
  readonly jwks: { keys: Jwk[] };
  /** An RFC 9068 access token (`typ: at+jwt`) with these claims (`iat` and `exp` among them). */
  sign(claims: Record<string, unknown>): Promise<string>;
  /** The claims of a token this signer made, when its signature holds (nothing else is checked here). */
  verifySignature(token: string): Promise<Record<string, unknown> | undefined>;
}

const encoder = new TextEncoder();

function encodeJson(value: unknown): string {
  return base64url(encoder.encode(JSON.stringify(value)));
}

export function decodeBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Signs access tokens with Web Crypto: the configured private JWK, or an ES256 key made now. */
export async function createTokenSigner(privateJwk: Jwk | undefined): Promise<TokenSigner> {
  let alg: string;
  let privateKey: CryptoKey;
  let publicJwk: Jwk;
  if (privateJwk) {
    alg = typeof privateJwk.alg === 'string' ? privateJwk.alg : privateJwk.kty === 'EC' ? 'ES256' : privateJwk.kty === 'OKP' ? 'EdDSA' : 'RS256';
    const algorithm = Object.hasOwn(ALGORITHMS, alg) ? ALGORITHMS[alg]! : undefined;
    if (!algorithm)
      throw new ConfigError(
        `Toolwright oauth: signingKey's alg must be one of ${Object.keys(ALGORITHMS).join(', ')}, got '${String(alg).slice(0, 40)}'. Give a key of one of these algorithms with its alg set, or leave signingKey out for a key made at start.`,
      );
    if (typeof privateJwk.d !== 'string')
      throw new ConfigError(
        "Toolwright oauth: signingKey must be a private JWK, and this one has no 'd' (a public key). Give the private key, e.g. exportJWK of the privateKey from jose's generateKeyPair('ES256', { extractable: true }), read from a secret store.",
      );
    const { key_ops: _ops, use: _use, ...importable } = privateJwk;
    privateKey = await crypto.subtle.importKey('jwk', importable as never, algorithm.import as never, false, ['sign']);
    publicJwk = Object.fromEntries(Object.entries(privateJwk).filter(([name]) => !PRIVATE_MEMBERS.has(name) && name !== 'key_ops'));
  } else {
    alg = 'ES256';
    const pair = (await crypto.subtle.generateKey(ALGORITHMS.ES256!.import as never, true, ['sign', 'verify'])) as { privateKey: CryptoKey; publicKey: CryptoKey };
    privateKey = pair.privateKey;
    const exported = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Jwk;
    publicJwk = { kty: exported.kty, crv: exported.crv, x: exported.x, y: exported.y };
  }
  const algorithm = ALGORITHMS[alg]!;
  const kid = typeof publicJwk.kid === 'string' ? publicJwk.kid : await thumbprint(publicJwk);
  publicJwk = { ...publicJwk, kid, alg, use: 'sig' };
  const { kid: _kid, alg: _alg, use: _u, ...verifyJwk } = publicJwk;
  const publicKey = await crypto.subtle.importKey('jwk', verifyJwk as never, algorithm.import as never, false, ['verify']);
  const header = encodeJson({ alg, kid, typ: 'at+jwt' });

  return {
    alg,
    kid,
    jwks: { keys: [publicJwk] },
    async sign(claims) {
      const input = `${header}.${encodeJson(claims)}`;
      const signature = new Uint8Array(await crypto.subtle.sign(algorithm.sign as never, privateKey, encoder.encode(input)));
      return `${input}.${base64url(signature)}`;
    },
    async verifySignature(token) {
      const parts = token.split('.');
      if (parts.length !== 3 || parts[0] !== header) return undefined;
      try {
        const valid = await crypto.subtle.verify(algorithm.sign as never, publicKey, decodeBase64url(parts[2]!), encoder.encode(`${parts[0]}.${parts[1]}`));
        if (!valid) return undefined;
        const claims = JSON.parse(new TextDecoder().decode(decodeBase64url(parts[1]!))) as unknown;
        return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** RFC 7638 JWK thumbprint: the key's id when none is given. */
async function thumbprint(jwk: Jwk): Promise<string> {
  const members = jwk.kty === 'EC' ? ['crv', 'kty', 'x', 'y'] : jwk.kty === 'OKP' ? ['crv', 'kty', 'x'] : ['e', 'kty', 'n'];
  return sha256(JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]]))));
}

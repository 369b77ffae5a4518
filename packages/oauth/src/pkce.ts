import { sameString } from './webCrypto';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** A well-formed S256 challenge: 43 base64url characters (a SHA-256 digest). */
export function isS256Challenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/** Whether `verifier` is a well-formed PKCE code verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
export function isPkceVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** Whether `verifier` (RFC 7636: 43-128 unreserved characters) hashes to `challenge` under S256. */
export async function verifyPkce(verifier: string, challenge: string): Promise<boolean> {
  if (!isPkceVerifier(verifier)) return false;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  const computed = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return sameString(computed, challenge);
}

/** Web Crypto helpers (every runtime with `crypto.subtle`: node 20+, Deno, Bun, Workers). */

const encoder = new TextEncoder();

/** Web Crypto's key type (no DOM lib here). */
export type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh unguessable token: `bytes` random bytes, base64url. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a string, base64url: what the stores keep instead of a secret. */
export async function sha256(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** HMAC-SHA-256 of `text` under `key`, base64url. */
export async function hmac(key: CryptoKey, text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text))));
}

export async function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** Compares two strings in time that depends only on their lengths. */
export function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

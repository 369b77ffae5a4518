import { base64url, type CryptoKey } from '../webCrypto';

/** AES-256-GCM under a key derived from the server's secret: how upstream tokens and pending upstream sign-ins rest in the store. */
export async function sealingKey(secret: string): Promise<CryptoKey> {
  const raw = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`toolwright-oauth upstream tokens\0${secret}`));
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** Encrypts `value` (bound to `label`, e.g. the grant id, so a sealed value cannot be moved to another key). */
export async function seal(key: CryptoKey, value: unknown, label: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(JSON.stringify(value));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(label) }, key, data));
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return base64url(out);
}

export async function unseal<T>(key: CryptoKey, sealed: string, label: string): Promise<T | undefined> {
  try {
    const bytes = Uint8Array.from(atob(sealed.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (sealed.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(label) }, key, bytes.slice(12));
    return JSON.parse(new TextDecoder().decode(plain)) as T;
  } catch {
    return undefined;
  }
}

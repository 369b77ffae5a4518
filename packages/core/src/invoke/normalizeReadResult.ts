import type { ReadResourceResult, ResourceContents } from '../content/ResourceContents';
import { jsonTextOf, sendable } from './sendable';

const CONTENT_KEYS = new Set(['uri', 'mimeType', 'text', 'blob', '_meta']);

/**
 * Turns what a resource method returned into a `resources/read` result for `uri`:
 * a string is text; a Buffer/Uint8Array is a base64 blob; `{ text }` / `{ blob }` objects
 * (and arrays of them) are contents; `{ contents: [...] }` passes through; any other value
 * is JSON text (`application/json` unless the resource declares a MIME type).
 * Contents without a `uri` or `mimeType` get the requested URI and the declared type. Throws an
 * `UnsendableResult` for what JSON cannot carry (in `_meta`, say).
 */
export function normalizeReadResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (isObject(value) && Array.isArray(value.contents)) {
    return sendable({ ...value, contents: value.contents.map((c) => one(c, uri, mimeType)) } as ReadResourceResult);
  }
  if (value === undefined || value === null) return { contents: [] };
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' || v instanceof Uint8Array || isContent(v))) {
    return sendable({ contents: value.map((v) => one(v, uri, mimeType)) });
  }
  return sendable({ contents: [one(value, uri, mimeType)] });
}

function one(value: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  if (typeof value === 'string') return withType({ uri, text: value }, mimeType);
  if (value instanceof Uint8Array) return withType({ uri, blob: base64(value) }, mimeType);
  if (isContent(value)) {
    const c = value as { uri?: string; mimeType?: string; text?: string; blob?: string | Uint8Array; _meta?: Record<string, unknown> };
    const base = { uri: c.uri ?? uri, ...(c._meta ? { _meta: c._meta } : {}) };
    const body = c.text !== undefined ? { ...base, text: c.text } : { ...base, blob: typeof c.blob === 'string' ? c.blob : base64(c.blob!) };
    return withType(body, c.mimeType ?? mimeType);
  }
  return withType({ uri, text: jsonTextOf(value, 'contents') ?? 'null' }, mimeType ?? 'application/json');
}

function isContent(value: unknown): boolean {
  if (!isObject(value)) return false;
  const hasBody = typeof value.text === 'string' || typeof value.blob === 'string' || value.blob instanceof Uint8Array;
  return hasBody && Object.keys(value).every((k) => CONTENT_KEYS.has(k));
}

function withType<T extends { uri: string }>(content: T, mimeType: string | undefined): T & { mimeType?: string } {
  return mimeType === undefined ? content : { ...content, mimeType };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function base64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

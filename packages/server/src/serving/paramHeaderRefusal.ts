import type { ParamHeader } from '@toolwright/core';

/** SEP-2243's `HeaderMismatch`: the request's headers and body disagree (HTTP 400). */
export const HEADER_MISMATCH = -32020;

const PREFIX = 'Mcp-Param-';
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
/** Canonical Base64: whole quanta, then at most one padded one; nothing outside the alphabet. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

export interface ParamHeaderRefusal {
  readonly message: string;
  readonly data: { readonly mismatch: { readonly header: string; readonly body: string } };
}

/**
 * Whether a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers agree with its `arguments`
 * (SEP-2243): for each declared argument the body carries (not null), the header must be
 * there and hold the same value, plainly or as `=?base64?<canonical Base64 of UTF-8>?=`;
 * a number declared `integer` (or `number`) compares by value (`42.0` is `42`), anything else
 * as text (a number sent for a `string` parameter too), booleans as `true`/`false`. An argument the body
 * leaves out needs no header. Header values arrive with surrounding whitespace already
 * removed (as HTTP field parsing requires). The refusal names the header and the argument,
 * never the values (they may be secrets).
 */
export function paramHeaderRefusal(declared: readonly ParamHeader[], args: unknown, header: (name: string) => string | null): ParamHeaderRefusal | undefined {
  for (const d of declared) {
    const name = `${PREFIX}${d.header}`;
    const argument = d.path.join('.');
    const value = valueAt(args, d.path);
    const expected = asHeaderText(value);
    if (expected === undefined) continue;
    const sent = header(name);
    if (sent === null)
      return refusal(name, argument, `the body carries '${argument}' but the ${name} header is missing: a client sends every declared argument it sends in the body as its header too`);
    const decoded = decode(sent);
    if (decoded === undefined) return refusal(name, argument, `the ${name} header is not valid '=?base64?...?=' (canonical Base64 of UTF-8 text, padded with '=')`);
    // Numerically only where the schema declares a number: a number sent for a string parameter compares as its text.
    const numeric = (d.type as string) === 'integer' || (d.type as string) === 'number';
    const same = numeric && typeof value === 'number' && DECIMAL.test(decoded) ? Number(decoded) === value : decoded === expected;
    if (!same) return refusal(name, argument, `the ${name} header does not hold the value of '${argument}' in the body`);
  }
  return undefined;
}

function refusal(header: string, argument: string, why: string): ParamHeaderRefusal {
  return { message: `Bad Request: the request headers and body disagree: ${why}.`, data: { mismatch: { header, body: `params.arguments.${argument}` } } };
}

/** The header text of an argument's value; undefined when none is expected (absent, null, or not a primitive). */
function asHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/** A header's value: the text itself, or what its Base64 sentinel wraps; undefined when the wrapping is broken. */
function decode(sent: string): string | undefined {
  if (!(sent.startsWith(SENTINEL_START) && sent.endsWith(SENTINEL_END) && sent.length >= SENTINEL_START.length + SENTINEL_END.length)) return sent;
  const payload = sent.slice(SENTINEL_START.length, sent.length - SENTINEL_END.length);
  if (!BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The value at `path` in `args`, by own keys only (names from the wire). */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

import { isJsonMediaType } from './isJsonMediaType';

/** The 415 answer to a JSON body the endpoint cannot read as sent: its status, JSON-RPC code and message, and headers. */
export interface BodyEncodingRefusal {
  /** 415 Unsupported Media Type. */
  readonly status: 415;
  /** The JSON-RPC error code of the answer. */
  readonly code: -32000;
  /** What was refused and how to send the body instead. */
  readonly message: string;
  /** `Accept-Encoding: identity` for a refused content coding. */
  readonly headers?: Record<string, string>;
}

/** A header value quoted back only when it is a short token: the client knows what it sent, and a hostile value stays off the wire. */
const TOKEN = /^[\w!#$%&'*+.^`|~-]{1,32}$/;

/**
 * Refuses a JSON request body that would not read as what was sent, before a byte of it is read:
 * - a `Content-Encoding` other than `identity` (gzip, deflate, br, anything): bodies are not
 *   decoded, so none can inflate past `maxBodyBytes` (RFC 9110 §8.4: 415, with
 *   `Accept-Encoding: identity` naming what is read);
 * - a `charset` parameter other than UTF-8 (RFC 8259 §8.1: JSON is UTF-8; read as UTF-8, a
 *   latin1 or UTF-16 body would lose its text or fail as bad JSON).
 * A body a framework already decoded and parsed (express.json()) never gets here. Another
 * media type than application/json, or more than one (`isJsonMediaType`), is the Content-Type
 * rule's to refuse: undefined then.
 */
export function bodyEncodingRefusal(headers: { readonly contentEncoding?: string; readonly contentType?: string }): BodyEncodingRefusal | undefined {
  const { contentEncoding, contentType } = headers;
  if (contentType !== undefined && contentType !== 'application/json') {
    if (!isJsonMediaType(contentType)) return undefined;
    const semi = contentType.indexOf(';');
    const charset = semi === -1 ? undefined : foreignCharsetOf(contentType, semi);
    if (charset !== undefined) return charsetRefusal(charset);
  }
  if (contentEncoding === undefined || contentEncoding === '') return undefined;
  const coding = contentEncoding
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .find((part) => part !== '' && part !== 'identity');
  return coding === undefined ? undefined : codingRefusal(coding);
}

/**
 * The value of a `charset` parameter other than UTF-8 (unquoted), from the `;` that starts the parameters.
 * One pass over the header (a quoted value may hold `;` and `\"`): a hostile header costs no more than its length.
 */
function foreignCharsetOf(value: string, from: number): string | undefined {
  let i = from;
  while (i < value.length) {
    const start = ++i;
    while (i < value.length && value[i] !== '=' && value[i] !== ';') i++;
    // A parameter without a value: on to the next.
    if (value[i] !== '=') continue;
    const name = value.slice(start, i).trim().toLowerCase();
    for (i++; value[i] === ' ' || value[i] === '\t'; i++);
    let param = '';
    if (value[i] === '"') {
      for (i++; i < value.length && value[i] !== '"'; i++) param += value[i] === '\\' ? (value[++i] ?? '') : value[i];
      while (i < value.length && value[i] !== ';') i++;
    } else {
      const at = i;
      while (i < value.length && value[i] !== ';') i++;
      param = value.slice(at, i).trim();
    }
    if (name === 'charset' && !isUtf8(param)) return param;
  }
  return undefined;
}

function isUtf8(charset: string): boolean {
  const name = charset.trim().toLowerCase();
  return name === 'utf-8' || name === 'utf8';
}

function charsetRefusal(charset: string): BodyEncodingRefusal {
  const named = TOKEN.test(charset) ? `charset=${charset}` : 'a charset other than UTF-8';
  return {
    status: 415,
    code: -32000,
    message: `Unsupported Media Type: the body is declared ${named}, but JSON is read as UTF-8 (RFC 8259). Send it encoded as UTF-8, with Content-Type: application/json (or charset=utf-8).`,
  };
}

function codingRefusal(coding: string): BodyEncodingRefusal {
  const named = TOKEN.test(coding) ? `Content-Encoding ${coding}` : 'the Content-Encoding';
  return {
    status: 415,
    code: -32000,
    message: `Unsupported Media Type: the body is sent with ${named}; this endpoint reads bodies only as sent (identity). Send it uncompressed, without a Content-Encoding header.`,
    headers: { 'Accept-Encoding': 'identity' },
  };
}

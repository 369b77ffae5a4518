/** Answers of the OAuth endpoints: JSON (never cached), OAuth errors (RFC 6749 §5.2) and redirects. */
import { readCappedText } from '@toolwright/core/internal';

/**
 * On the answers of endpoints a browser-based client calls from another origin (metadata, keys,
 * register, token, revoke): no cookies are read there. Their preflight is `optionsAnswer`'s.
 */
export const OPEN_ORIGIN: Readonly<Record<string, string>> = { 'Access-Control-Allow-Origin': '*' };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache', ...OPEN_ORIGIN, ...headers },
  });
}

export function oauthError(error: string, description: string, status = 400, headers: Record<string, string> = {}): Response {
  return json({ error, error_description: errorDescription(description) }, status, headers);
}

/**
 * `description` in the characters an `error_description` may hold (RFC 6749 §5.2, §4.1.2.1:
 * printable ASCII without `"` and `\`): quotes become `'`, a backslash `/`, anything else
 * outside the set (a control or non-ASCII character, e.g. echoed from the request) `?`.
 */
export function errorDescription(description: string): string {
  return description
    .replace(/["\u2018\u2019]/g, "'")
    .replace(/\\/g, '/')
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}

/** A redirect for the browser; the Location was validated before. */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 302, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', ...headers } });
}

/** Headers of every HTML page: no framing (clickjacking), no scripts, nothing cached, no Referer to other sites. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  // Not `no-referrer`: under it browsers send `Origin: null` with the consent form's POST, which the Origin check must refuse.
  // `same-origin` still sends nothing to any other site.
  'Referrer-Policy': 'same-origin',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An error page shown in the browser when redirecting back is not safe (unknown client, unregistered redirect URI). */
export function errorPage(title: string, detail: string, status = 400, headers?: Readonly<Record<string, string>>): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></main></body></html>`;
  return new Response(body, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** Reads an `application/x-www-form-urlencoded` body of at most `maxBytes`; undefined for another type or a larger body. */
export async function readForm(request: Request, maxBytes = 16 * 1024): Promise<URLSearchParams | undefined> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const text = await readCappedText(request, maxBytes);
  return text === undefined ? undefined : new URLSearchParams(text);
}

/** The first parameter `form` holds more than once, or undefined: every OAuth parameter may be sent once only (RFC 6749 §3.1, §3.2). */
export function repeatedParameter(form: URLSearchParams): string | undefined {
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

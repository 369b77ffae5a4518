/** One fetch of a client ID metadata document, through every SSRF guard. */
export interface FetchedDocument {
  /** 200 with the body, or 304 when the `etag` sent still holds. */
  readonly status: 200 | 304;
  readonly body?: string;
  readonly etag?: string;
  /** From `Cache-Control`: `max-age`, 0 for `no-store` / `no-cache`, undefined when not said. */
  readonly maxAgeSeconds?: number;
}

/**
 * Fetches a client ID metadata document, or throws `DocumentRefusedError` saying why not (with
 * `refusal` 'not-public' when the host is not, or does not resolve to, a public address).
 * The default is `nodeDocumentFetcher` on node and `fetchDocumentFetcher` on Deno, Bun and Workers.
 */
export type ClientDocumentFetcher = (url: URL, etag?: string) => Promise<FetchedDocument>;

/**
 * What a client is told of a refused fetch: `not-public`, the host (or that of a redirect) does
 * not resolve, or not to public addresses only; `unfetchable`, anything else.
 */
export type DocumentRefusal = 'not-public' | 'unfetchable';

/**
 * A client ID metadata document (or `jwks_uri`) that was not fetched: its URL, address, answer
 * or size broke a rule. The message names the details (addresses, statuses, network errors) for
 * the server's log; the client is told only `refusal`.
 */
export class DocumentRefusedError extends Error {
  override readonly name = 'DocumentRefusedError';
  constructor(
    message: string,
    /** What the client is told (see `DocumentRefusal`); the message goes to the server's log only. */
    readonly refusal: DocumentRefusal = 'unfetchable',
  ) {
    super(message);
  }
}

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
 * Fetches a client ID metadata document, or throws `DocumentRefusedError` saying why not.
 * The default is `nodeDocumentFetcher` on node and `fetchDocumentFetcher` on Deno, Bun and Workers.
 */
export type ClientDocumentFetcher = (url: URL, etag?: string) => Promise<FetchedDocument>;

/** A client ID metadata document that was not fetched: its URL, address, answer or size broke a rule. */
export class DocumentRefusedError extends Error {
  override readonly name = 'DocumentRefusedError';
}

import { ToolwrightError } from '@toolwright/core';

/** The SDK client's page cap for a listing (`listMaxPages`), which the proxy leaves at its default. */
const SDK_LIST_MAX_PAGES = 64;

/** The options a listing of the proxy's own passes to the SDK client for each of its pages. */
export interface ListingOptions {
  readonly cacheMode: 'bypass';
  /** Bounds each page's request. */
  readonly timeout: number;
  /** Aborts the page in flight (cancelled upstream) when the whole listing runs out of time. */
  readonly signal: AbortSignal;
}

/**
 * Runs one listing of the proxy's own (`method`, every page the SDK client walks) within `ms`
 * in all, not `ms` per page: an upstream that answers each page just in time, with a next
 * cursor each time, cannot hold the proxy's start or a listing again for the SDK's page cap
 * times `ms`. Past `ms` the page in flight is cancelled and the listing fails with an error
 * naming `listTimeoutMs`; a listing the SDK stops at its page cap (a cursor that never ends,
 * or goes round in a loop) fails with an error that says so.
 */
export async function listWithin<T>(method: string, ms: number, listing: (options: ListingOptions) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(`${method} took longer than ${ms} ms`), ms);
  try {
    return await listing({ cacheMode: 'bypass', timeout: ms, signal: deadline.signal });
  } catch (error) {
    const { code, data } = (error ?? {}) as { code?: unknown; data?: { listMaxPages?: unknown } };
    if (code === 'REQUEST_TIMEOUT' || deadline.signal.aborted) {
      throw new ToolwrightError(`${method} did not finish within ${ms} ms (listTimeoutMs bounds a whole listing, all its pages; raise it for an upstream that lists slowly)`, {
        cause: error,
      });
    }
    if (code === 'LIST_PAGINATION_EXCEEDED') {
      const pages = typeof data?.listMaxPages === 'number' ? data.listMaxPages : SDK_LIST_MAX_PAGES;
      throw new ToolwrightError(`${method} did not end after ${pages} pages (the most a listing follows): the upstream's nextCursor goes on, or goes round in a loop; fix its pagination`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

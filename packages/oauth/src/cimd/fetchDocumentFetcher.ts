import { DocumentRefusedError, type ClientDocumentFetcher, type FetchedDocument } from './ClientDocumentFetcher';
import { isPublicAddress } from './isPublicAddress';
import { maxAgeOf } from './maxAgeOf';
import { resolvePublicAddresses } from './resolvePublicAddresses';
import { readCappedText } from '@toolwright/core/internal';

/** The limits of `fetchDocumentFetcher`, and how it resolves host names. */
export interface FetchDocumentFetcherOptions {
  /** The whole fetch, redirects included, in milliseconds. Default 5000. */
  timeoutMs?: number;
  /** Largest document, in bytes. Default 5120. */
  maxBytes?: number;
  /** Redirects followed (each target checked like the first URL). Default 2. */
  maxRedirects?: number;
  /**
   * Resolves a host name to its addresses, each of which must be public. Default: the
   * runtime's resolver where it has one (`Deno.resolveDns`, `Bun.dns.lookup`); none on
   * Workers. `false`: no resolution (the host name rules alone).
   */
  resolve?: ((hostname: string) => Promise<string[]>) | false;
  /** FOR TESTS ONLY: the fetch to use (e.g. one that reaches a local server). Never set in production. */
  unsafeForTests?: { fetch?: typeof fetch };
}

/** Host names that name this machine or a private network whatever DNS says. */
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;

/**
 * A client ID metadata document fetcher on the runtime's `fetch`, for Deno, Bun and Workers:
 * https only; an IP-literal host must be public, a host name must not be one of this machine's
 * or a private network's (`localhost`, `.local`, `.internal`, ...), and, where the runtime can
 * resolve names, every address it resolves to must be public; redirects are followed by hand,
 * each target checked the same way; the whole fetch has a deadline and the body a size limit;
 * only JSON is taken.
 *
 * What it cannot do that `nodeDocumentFetcher` does: pin the connection to the address it
 * checked. `fetch` resolves the name again, so a DNS answer that changes between the check and
 * the connection (rebinding) is not caught; on Workers, which have no resolver, names are not
 * resolved at all (a Worker's `fetch` goes out through Cloudflare's network and cannot reach
 * private addresses of yours, but a name may still point at another public service's).
 */
export function fetchDocumentFetcher(options: FetchDocumentFetcherOptions = {}): ClientDocumentFetcher {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 5120;
  const maxRedirects = options.maxRedirects ?? 2;
  const resolve = options.resolve === false ? undefined : (options.resolve ?? runtimeResolver());
  const http = options.unsafeForTests?.fetch ?? fetch;

  const check = async (url: URL): Promise<void> => {
    if (url.protocol !== 'https:') throw new DocumentRefusedError(`${url.href} is not an https URL`);
    if (url.username || url.password) throw new DocumentRefusedError('the URL carries credentials');
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    if (isIpLiteral(hostname)) {
      if (!isPublicAddress(hostname)) throw new DocumentRefusedError(`the host ${hostname} is not a public address (loopback, private, link-local and reserved ones are refused)`, 'not-public');
      return;
    }
    if (PRIVATE_NAMES.test(hostname) || !hostname.includes('.')) throw new DocumentRefusedError(`the host ${hostname} is not a public address (a local or private name)`, 'not-public');
    if (resolve) await resolvePublicAddresses(hostname, resolve);
  };

  return async (url: URL, etag?: string): Promise<FetchedDocument> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let current = url;
      for (let redirects = 0; ; redirects++) {
        await check(current);
        const response = await http(current.href, {
          method: 'GET',
          redirect: 'manual',
          signal: controller.signal,
          headers: { accept: 'application/json', 'user-agent': 'toolwright-oauth', ...(etag && { 'if-none-match': etag }) },
        });
        const status = response.status;
        if (status >= 300 && status < 400 && status !== 304) {
          await response.body?.cancel();
          const location = response.headers.get('location');
          if (!location) throw new DocumentRefusedError(`${current.href} answered ${status} without a Location`);
          if (redirects >= maxRedirects) throw new DocumentRefusedError(`${url.href} redirects more than ${maxRedirects} times`);
          current = new URL(location, current);
          continue;
        }
        const maxAgeSeconds = maxAgeOf(response.headers.get('cache-control'));
        if (status === 304 && etag) {
          await response.body?.cancel();
          return { status: 304, etag, maxAgeSeconds };
        }
        if (status !== 200) {
          await response.body?.cancel();
          throw new DocumentRefusedError(`${current.href} answered HTTP ${status}`);
        }
        const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/json' && !type.endsWith('+json')) {
          await response.body?.cancel();
          throw new DocumentRefusedError(`${current.href} answered ${type || 'no Content-Type'}, not application/json`);
        }
        const body = await readLimited(response, maxBytes, current);
        return { status: 200, body, etag: response.headers.get('etag') ?? undefined, maxAgeSeconds };
      }
    } catch (error) {
      if (error instanceof DocumentRefusedError) throw error;
      throw new DocumentRefusedError(
        controller.signal.aborted ? `fetching ${url.href} took longer than ${timeoutMs} ms` : `fetching ${url.href} failed: ${(error as Error)?.message ?? String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  };
}

async function readLimited(response: Response, maxBytes: number, url: URL): Promise<string> {
  const text = await readCappedText(response, maxBytes);
  if (text === undefined) throw new DocumentRefusedError(`${url.href} is larger than ${maxBytes} bytes`);
  return text;
}

function isIpLiteral(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':');
}

type RuntimeGlobals = {
  Deno?: { resolveDns(name: string, type: 'A' | 'AAAA'): Promise<string[]> };
  Bun?: { dns: { lookup(name: string, options?: { family?: number }): Promise<{ address: string }[]> } };
};

/** The runtime's own resolver: Deno's and Bun's; none elsewhere (Workers). */
function runtimeResolver(): ((hostname: string) => Promise<string[]>) | undefined {
  const runtime = globalThis as unknown as RuntimeGlobals;
  const deno = runtime.Deno;
  if (deno && typeof deno.resolveDns === 'function') {
    return async (hostname) => {
      const answers = await Promise.all((['A', 'AAAA'] as const).map((type) => deno.resolveDns(hostname, type).catch(() => [] as string[])));
      return answers.flat();
    };
  }
  const bun = runtime.Bun;
  if (bun?.dns && typeof bun.dns.lookup === 'function') return async (hostname) => (await bun.dns.lookup(hostname)).map((entry) => entry.address);
  return undefined;
}

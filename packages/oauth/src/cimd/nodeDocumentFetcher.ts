import type { Agent, IncomingMessage } from 'node:http';
import { maxAgeOf } from './maxAgeOf';
import { resolvePublicAddresses } from './resolvePublicAddresses';
import { DocumentRefusedError, type ClientDocumentFetcher, type FetchedDocument } from './ClientDocumentFetcher';

export interface NodeDocumentFetcherOptions {
  /** The whole fetch, redirects included, in milliseconds. Default 5000. */
  timeoutMs?: number;
  /** Largest document, in bytes. Default 5120. */
  maxBytes?: number;
  /** Redirects followed (each target checked like the first URL). Default 2. */
  maxRedirects?: number;
  /**
   * FOR TESTS ONLY: how to reach a local https server. `resolve` replaces DNS (every address
   * it returns is still checked: a private one is refused), `agent` replaces the connection
   * (e.g. one that trusts a test CA). Never set in production: the defaults are the defence.
   */
  unsafeForTests?: {
    resolve?: (hostname: string) => Promise<string[]>;
    agent?: Agent;
  };
}

/**
 * The default client ID metadata document fetcher, on node's `https` and `dns`: https only;
 * every address the host name resolves to must be public (`isPublicAddress`), and the
 * connection goes to the address checked (no second lookup a rebinding DNS could answer
 * differently); redirects are followed only to URLs that pass the same checks; the whole
 * fetch has a deadline and the body a size limit; only JSON is taken.
 */
export function nodeDocumentFetcher(options: NodeDocumentFetcherOptions = {}): ClientDocumentFetcher {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 5120;
  const maxRedirects = options.maxRedirects ?? 2;
  const https = require('node:https') as typeof import('node:https');
  const dns = require('node:dns') as typeof import('node:dns');
  const net = require('node:net') as typeof import('node:net');
  const resolve = options.unsafeForTests?.resolve ?? (async (hostname: string) => (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address));
  const agent = options.unsafeForTests?.agent ?? new https.Agent({ keepAlive: false });

  const once = async (url: URL, etag: string | undefined, signal: AbortSignal): Promise<{ response: IncomingMessage; location?: string }> => {
    if (url.protocol !== 'https:') throw new DocumentRefusedError(`${url.href} is not an https URL`);
    if (url.username || url.password) throw new DocumentRefusedError('the URL carries credentials');
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    // An IP literal is its own address; a name's addresses are all checked, and the connection pinned to the first.
    const addresses = await resolvePublicAddresses(hostname, net.isIP(hostname) ? async (ip) => [ip] : resolve);
    const pinned = addresses[0]!;
    const family = net.isIP(pinned);
    return new Promise((done, fail) => {
      const request = https.request(
        {
          host: hostname,
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          agent,
          servername: net.isIP(hostname) ? undefined : hostname,
          headers: { accept: 'application/json', 'user-agent': 'toolwright-oauth', ...(etag && { 'if-none-match': etag }) },
          // The connection goes to the address that was checked, whatever a later lookup would say.
          lookup: ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) =>
            lookupOptions.all ? callback(null, [{ address: pinned, family }]) : callback(null, pinned, family)) as never,
          signal,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && status !== 304) {
            response.resume();
            const location = response.headers.location;
            if (!location) return fail(new DocumentRefusedError(`${url.href} answered ${status} without a Location`));
            return done({ response, location: new URL(location, url).href });
          }
          done({ response });
        },
      );
      request.on('error', (error) =>
        fail(signal.aborted ? new DocumentRefusedError(`fetching ${url.href} took longer than ${timeoutMs} ms`) : new DocumentRefusedError(`fetching ${url.href} failed: ${error.message}`)),
      );
      request.end();
    });
  };

  return async (url: URL, etag?: string): Promise<FetchedDocument> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let current = url;
      for (let redirects = 0; ; redirects++) {
        const { response, location } = await once(current, etag, controller.signal);
        if (location !== undefined) {
          if (redirects >= maxRedirects) throw new DocumentRefusedError(`${url.href} redirects more than ${maxRedirects} times`);
          current = new URL(location);
          continue;
        }
        const status = response.statusCode ?? 0;
        const maxAgeSeconds = maxAgeOf(response.headers['cache-control']);
        const newEtag = typeof response.headers.etag === 'string' ? response.headers.etag : undefined;
        if (status === 304 && etag) {
          response.resume();
          return { status: 304, etag, maxAgeSeconds };
        }
        if (status !== 200) {
          response.resume();
          throw new DocumentRefusedError(`${current.href} answered HTTP ${status}`);
        }
        const type = String(response.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase();
        if (type !== 'application/json' && !type.endsWith('+json')) {
          response.resume();
          throw new DocumentRefusedError(`${current.href} answered ${type || 'no Content-Type'}, not application/json`);
        }
        const body = await readLimited(response, maxBytes, current, controller.signal, timeoutMs);
        return { status: 200, body, etag: newEtag, maxAgeSeconds };
      }
    } catch (error) {
      if (error instanceof DocumentRefusedError) throw error;
      throw new DocumentRefusedError(controller.signal.aborted ? `fetching ${url.href} took longer than ${timeoutMs} ms` : `fetching ${url.href} failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  };
}

function readLimited(response: IncomingMessage, maxBytes: number, url: URL, signal: AbortSignal, timeoutMs: number): Promise<string> {
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.destroy();
    return Promise.reject(new DocumentRefusedError(`${url.href} is larger than ${maxBytes} bytes`));
  }
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      response.destroy();
      fail(new DocumentRefusedError(`fetching ${url.href} took longer than ${timeoutMs} ms`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        signal.removeEventListener('abort', onAbort);
        fail(new DocumentRefusedError(`${url.href} is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      done(Buffer.concat(chunks).toString('utf8'));
    });
    response.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      fail(new DocumentRefusedError(`reading ${url.href} failed: ${error.message}`));
    });
  });
}

import type { ClientDocumentFetcher } from './ClientDocumentFetcher';
import { fetchDocumentFetcher } from './fetchDocumentFetcher';
import { nodeDocumentFetcher } from './nodeDocumentFetcher';

type RuntimeGlobals = { Deno?: unknown; Bun?: unknown; navigator?: { userAgent?: string }; process?: { versions?: { node?: string } } };

/** The fetcher of the runtime: `nodeDocumentFetcher` on node (connections pinned to the checked address), `fetchDocumentFetcher` on Deno, Bun and Workers. */
export function defaultDocumentFetcher(): ClientDocumentFetcher {
  const runtime = globalThis as unknown as RuntimeGlobals;
  const onNode = runtime.Deno === undefined && runtime.Bun === undefined && runtime.navigator?.userAgent !== 'Cloudflare-Workers' && typeof runtime.process?.versions?.node === 'string';
  return onNode ? nodeDocumentFetcher() : fetchDocumentFetcher();
}

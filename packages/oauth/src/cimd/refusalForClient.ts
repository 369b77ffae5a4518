import { DocumentRefusedError } from './ClientDocumentFetcher';

/**
 * What a client is told of a failed fetch of its `what` (its client ID metadata document, its
 * `jwks_uri`): only what it can act on. Never the error's message, which may name the address a
 * host resolves to, an answer's status, type or size, or a network error: told to anyone who
 * asks, those would map internal DNS names and services through the authorization server. The
 * message is for the server's log. A host that does not resolve is told like one that resolves
 * to a private address, so the answer does not tell which names exist inside.
 */
export function refusalForClient(what: string, error: unknown): string {
  if (error instanceof DocumentRefusedError && error.refusal === 'not-public') return `${what} could not be fetched: its host (or that of a URL it redirects to) does not resolve to a public address`;
  return `${what} could not be fetched: it must be served over https from a public address and answer 200 with a small application/json body in time (this server's log has the details)`;
}

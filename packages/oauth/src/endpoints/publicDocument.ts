import { json, oauthError } from '../oauthResponses';
import { allowOf } from '../optionsAnswer';

/** The methods of a public document (the metadata, the signing keys): documents anyone reads. */
export const DOCUMENT_METHODS: readonly string[] = ['GET', 'HEAD'];

/**
 * The endpoint of a public document (the metadata, the signing keys): GET and HEAD answer it,
 * cacheable for an hour (the HEAD without its body, as every HEAD answer); any other method is
 * refused with 405 and `Allow: GET, HEAD, OPTIONS`. A CORS preflight (OPTIONS) never reaches it.
 */
export function publicDocument(document: unknown, what: string): (request: Request) => Promise<Response> {
  const allowed = `the ${what} is read with GET (or HEAD)`;
  return async (request) =>
    DOCUMENT_METHODS.includes(request.method) ? json(document, 200, { 'Cache-Control': 'public, max-age=3600' }) : oauthError('invalid_request', allowed, 405, { Allow: allowOf(DOCUMENT_METHODS) });
}

import type { FastifyInstance } from 'fastify';
import { parseJsonBody } from '@toolwright/server/http';
import { BodyParseError } from './BodyParseError';

/**
 * Makes the plugin's context parse `application/json` bodies as the node listener reads them
 * (`parseJsonBody`): UTF-8 only, a leading byte-order mark ignored, and a `__proto__` or
 * `constructor` member left to the endpoint's message checks (-32600), not refused as bad JSON.
 * Whatever JSON parser the app set stays on its own routes; the route's `bodyLimit` still applies.
 */
export function useJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const parsed = parseJsonBody(body as Buffer);
    if (parsed.ok) done(null, parsed.value);
    else done(new BodyParseError(parsed.message), undefined);
  });
}

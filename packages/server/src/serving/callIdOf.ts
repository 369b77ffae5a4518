const LISTEN = 'subscriptions/listen';

/** The id of a 2026-07-28 message that is a call shutdown may abandon: not a notification, a response, or a `subscriptions/listen` stream. */
export function callIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, method } = body as { id?: unknown; method?: unknown };
  return (typeof id === 'string' || typeof id === 'number') && typeof method === 'string' && method !== LISTEN ? id : undefined;
}

import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/**
 * Whether a message opens (or belongs to) the 2026-07-28 era: a `server/discover` probe, or
 * a message whose `params._meta` claims a protocol version. A cheap look, no parse: a
 * claimed message goes to the SDK, which checks the claim and answers a bad one.
 */
export function isModernMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method, params } = message as { method?: unknown; params?: { _meta?: unknown } };
  if (method === 'server/discover') return true;
  const meta = typeof params === 'object' && params !== null ? params._meta : undefined;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

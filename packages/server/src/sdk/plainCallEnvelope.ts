import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/** The `_meta` keys of the 2026-07-28 envelope: a plain call's `_meta` holds these and nothing else. */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * The envelope of a plain 2026-07-28 `tools/call`'s params (`{ name, arguments?, _meta }`, no
 * round-trip state, no progress token), serialized as sent; undefined for params that carry anything more.
 */
export function plainCallEnvelope(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  for (const key in params) if (!PARAMS_KEYS.has(key)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  for (const key in meta) if (!ENVELOPE_KEYS.has(key)) return undefined;
  return JSON.stringify(meta);
}

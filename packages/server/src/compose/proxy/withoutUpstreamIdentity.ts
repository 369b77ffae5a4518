import { SERVER_INFO_META_KEY } from '../../sdk/proxyClient';

/**
 * An upstream result without the upstream's own name in its `_meta`
 * (`io.modelcontextprotocol/serverInfo`, which a 2026-07-28 server puts on every result): the
 * parent's clients talk to the parent, so the parent's SDK puts the parent's name there instead
 * (it keeps a name a result already has). Every other `_meta` entry is passed on as it came.
 */
export function withoutUpstreamIdentity<R>(result: R): R {
  const meta = (result as { _meta?: unknown } | null)?._meta;
  if (typeof meta !== 'object' || meta === null || !Object.hasOwn(meta, SERVER_INFO_META_KEY)) return result;
  const { [SERVER_INFO_META_KEY]: _upstream, ...rest } = meta as Record<string, unknown>;
  const { _meta: _old, ...plain } = result as Record<string, unknown>;
  return (Object.keys(rest).length > 0 ? { ...plain, _meta: rest } : plain) as R;
}

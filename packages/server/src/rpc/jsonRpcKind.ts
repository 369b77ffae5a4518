/** What a JSON-RPC message is, as the SDK's `Protocol` will classify it. */
export type JsonRpcKind = 'request' | 'notification' | 'response';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * Classifies one incoming JSON-RPC message, or returns undefined when the SDK's `Protocol`
 * would recognise it as none of the three kinds. The rules match the SDK's strict message
 * schemas (no extra top-level keys, integer or string ids, object params/result, a
 * well-formed `_meta`): a message that passed here but not there would be dropped by the
 * `Protocol` with no answer, leaving the client's request hanging. Written by hand because
 * running the schemas here as well would parse every message twice.
 */
export function jsonRpcKind(value: unknown): JsonRpcKind | undefined {
  if (!isObject(value)) return undefined;
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return undefined;
  if ('method' in m) {
    if (typeof m.method !== 'string' || !optionalParams(m.params)) return undefined;
    const hasId = 'id' in m;
    if (hasId && !isId(m.id)) return undefined;
    if (!onlyKeys(m, hasId ? 4 : 3, 'params' in m)) return undefined;
    return hasId ? 'request' : 'notification';
  }
  if ('result' in m) {
    return isId(m.id) && isObject(m.result) && validMeta(m.result._meta) && Object.keys(m).length === 3 ? 'response' : undefined;
  }
  if ('error' in m) {
    const e = m.error;
    if (!isObject(e) || !Number.isSafeInteger(e.code) || typeof e.message !== 'string') return undefined;
    const hasId = 'id' in m;
    if (hasId && !isId(m.id)) return undefined;
    return Object.keys(m).length === (hasId ? 3 : 2) ? 'response' : undefined;
  }
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A string, or an integer JSON can carry exactly (|n| < 2^53): the SDK's schemas refuse a
 * larger one, and it could not be echoed back unchanged anyway.
 */
export function isId(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

export function optionalParams(params: unknown): boolean {
  return params === undefined || (isObject(params) && validMeta(params._meta));
}

export function validMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  if (meta.progressToken !== undefined && !isId(meta.progressToken)) return false;
  const related = meta[RELATED_TASK];
  return related === undefined || (isObject(related) && typeof related.taskId === 'string');
}

/** `jsonrpc`, `method`, maybe `id` and `params`, and nothing else. */
function onlyKeys(m: Record<string, unknown>, withParams: number, hasParams: boolean): boolean {
  return Object.keys(m).length === (hasParams ? withParams : withParams - 1);
}

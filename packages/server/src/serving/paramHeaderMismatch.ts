import type { AuthInfo } from '@toolwright/core';
import { canAccess } from '../auth/canAccess';
import { HEADER_MISMATCH, paramHeaderRefusal } from './paramHeaderRefusal';
import type { ServerFactory } from './ServerFactory';

/**
 * The answer to a 2026-07-28 `tools/call` whose `Mcp-Param-*` headers disagree with its
 * arguments (SEP-2243): HTTP 400 with JSON-RPC error -32020 and the disagreeing pair in
 * `data.mismatch`. Undefined for anything else, which the SDK then serves: other messages,
 * a tool without header declarations, and a tool this caller may not use (it is answered
 * as unknown, so no header check may tell it exists).
 */
export function paramHeaderMismatch(tools: Pick<ServerFactory, 'toolAccess' | 'toolParamHeaders'>, body: unknown, headers: Headers, authInfo: AuthInfo | undefined): Response | undefined {
  if (!isObject(body) || body.method !== 'tools/call' || !isObject(body.params)) return undefined;
  const { name, arguments: args } = body.params;
  if (typeof name !== 'string') return undefined;
  const declared = tools.toolParamHeaders?.(name);
  if (!declared || declared.length === 0 || !canAccess(tools.toolAccess(name), authInfo)) return undefined;
  const refused = paramHeaderRefusal(declared, args, (header) => headers.get(header));
  if (!refused) return undefined;
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  return Response.json({ jsonrpc: '2.0', id, error: { code: HEADER_MISMATCH, message: refused.message, data: refused.data } }, { status: 400 });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { isObject } from './jsonRpcKind';

type Check = (params: Record<string, unknown>) => string | undefined;

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const string = (params: Record<string, unknown>, key: string, where = 'params'): string | undefined =>
  typeof params[key] === 'string' ? undefined : `${where}.${key} must be a string${params[key] === undefined ? ' (it is missing)' : ''}.`;
const optional = (params: Record<string, unknown>, key: string, type: 'string' | 'object'): string | undefined => {
  const value = params[key];
  if (value === undefined) return undefined;
  return (type === 'object' ? isObject(value) : typeof value === type) ? undefined : `params.${key} must be ${type === 'object' ? 'an object' : 'a string'} when present.`;
};
const list: Check = (p) => optional(p, 'cursor', 'string');
const byUri: Check = (p) => string(p, 'uri');

/**
 * What the spec's own methods need in `params`, checked as the SDK's schemas do. The SDK
 * (v1, and v2 as of 2.4.0) answers a failed parse with -32603 and a dump of schema
 * issues; these checks answer -32602 and say what to fix instead.
 */
const CHECKS: Record<string, Check> = {
  initialize: (p) =>
    string(p, 'protocolVersion') ??
    (isObject(p.capabilities) ? undefined : 'params.capabilities must be an object (send {} for none).') ??
    (isObject(p.clientInfo) ? (string(p.clientInfo, 'name', 'params.clientInfo') ?? string(p.clientInfo, 'version', 'params.clientInfo')) : 'params.clientInfo must be an object with a name and a version.'),
  'tools/list': list,
  'tools/call': (p) => string(p, 'name') ?? optional(p, 'arguments', 'object'),
  'resources/list': list,
  'resources/templates/list': list,
  'resources/read': byUri,
  'resources/subscribe': byUri,
  'resources/unsubscribe': byUri,
  'prompts/list': list,
  'prompts/get': (p) =>
    string(p, 'name') ??
    (p.arguments === undefined || (isObject(p.arguments) && Object.values(p.arguments).every((v) => typeof v === 'string')) ? undefined : 'params.arguments must be an object of string values when present.'),
  'completion/complete': (p) => {
    const ref = p.ref;
    if (!isObject(ref)) return "params.ref must be an object: { type: 'ref/prompt', name } or { type: 'ref/resource', uri }.";
    if (ref.type === 'ref/prompt') return string(ref, 'name', 'params.ref') ?? argument(p.argument);
    if (ref.type === 'ref/resource') return string(ref, 'uri', 'params.ref') ?? argument(p.argument);
    return "params.ref.type must be 'ref/prompt' or 'ref/resource'.";
  },
  'logging/setLevel': (p) => (typeof p.level === 'string' && LEVELS.includes(p.level) ? undefined : `params.level must be one of ${LEVELS.join(', ')}.`),
};

function argument(value: unknown): string | undefined {
  return isObject(value) && typeof value.name === 'string' && typeof value.value === 'string' ? undefined : 'params.argument must be an object with a string name and a string value.';
}

/**
 * The request methods of 2026-07-28 (the SDK's wire registry for that revision). The
 * others checked above (initialize, logging/setLevel, resources/subscribe and
 * unsubscribe) were removed there: the SDK answers them -32601 (HTTP 404) whatever their
 * params, so they are not checked on a modern request.
 */
const MODERN_METHODS = new Set(['tools/call', 'tools/list', 'prompts/get', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'completion/complete', 'server/discover', 'subscriptions/listen']);

/**
 * Why a well-formed request's params do not fit its method (a message for a -32602
 * answer), or undefined when they do or the method is not one of the spec's (or not one
 * of `modern` 2026-07-28's, for a request that claims that revision).
 */
export function paramsProblem(method: string, params: unknown, modern = false): string | undefined {
  const check = CHECKS[method];
  if (!check || (modern && !MODERN_METHODS.has(method))) return undefined;
  // Called only for messages jsonRpcKind accepted: params is an object or absent.
  const problem = check((params ?? {}) as Record<string, unknown>);
  return problem && `Invalid params for ${method}: ${problem}`;
}

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
 * issues; these checks answer -32602 and say what to fix instead. A `Map`: the method is
 * a name from the wire.
 */
const CHECKS = new Map<string, Check>(
  Object.entries({
    initialize: (p) =>
      string(p, 'protocolVersion') ??
      (isObject(p.capabilities) ? undefined : 'params.capabilities must be an object (send {} for none).') ??
      (isObject(p.clientInfo)
        ? (string(p.clientInfo, 'name', 'params.clientInfo') ?? string(p.clientInfo, 'version', 'params.clientInfo'))
        : 'params.clientInfo must be an object with a name and a version.'),
    'tools/list': list,
    'tools/call': (p) => string(p, 'name') ?? optional(p, 'arguments', 'object'),
    'resources/list': list,
    'resources/templates/list': list,
    'resources/read': byUri,
    'resources/subscribe': byUri,
    'resources/unsubscribe': byUri,
    'prompts/list': list,
    'prompts/get': (p) => string(p, 'name') ?? (p.arguments === undefined || isStrings(p.arguments) ? undefined : 'params.arguments must be an object of string values when present.'),
    'completion/complete': (p) => {
      const ref = p.ref;
      if (!isObject(ref)) return "params.ref must be an object: { type: 'ref/prompt', name } or { type: 'ref/resource', uri }.";
      if (ref.type === 'ref/prompt') return string(ref, 'name', 'params.ref') ?? argument(p.argument) ?? context(p.context);
      if (ref.type === 'ref/resource') return string(ref, 'uri', 'params.ref') ?? argument(p.argument) ?? context(p.context);
      return "params.ref.type must be 'ref/prompt' or 'ref/resource'.";
    },
    'logging/setLevel': (p) => (typeof p.level === 'string' && LEVELS.includes(p.level) ? undefined : `params.level must be one of ${LEVELS.join(', ')}.`),
  } satisfies Record<string, Check>),
);

const isStrings = (value: unknown): boolean => isObject(value) && Object.values(value).every((v) => typeof v === 'string');

/** A completion's `context`: the arguments already chosen, by name. */
function context(value: unknown): string | undefined {
  if (value === undefined || (isObject(value) && (value.arguments === undefined || isStrings(value.arguments)))) return undefined;
  return 'params.context must be an object whose arguments, when present, map argument names to string values.';
}

function argument(value: unknown): string | undefined {
  return isObject(value) && typeof value.name === 'string' && typeof value.value === 'string' ? undefined : 'params.argument must be an object with a string name and a string value.';
}

/**
 * Why the params of a request the SDK dispatched to a handler do not fit its method (a
 * message for a -32602 answer), or undefined when they do or the method is not one of the
 * spec's. The SDK has already checked that the method is served in the request's era.
 */
export function paramsProblem(method: string, params: unknown): string | undefined {
  const check = CHECKS.get(method);
  if (!check) return undefined;
  const problem = check(isObject(params) ? params : {});
  return problem && `Invalid params for ${method}: ${problem}`;
}

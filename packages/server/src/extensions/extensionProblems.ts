import type { Extension } from './Extension';
import { protocolMethods } from '../rpc/protocolMethods';

/**
 * `{vendor-prefix}/{name}` (SEP-2133): a reverse-DNS prefix of two or more labels, a slash,
 * and a name of letters, digits, dots, dashes and underscores.
 */
const ID = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** A method name: printable, no spaces, not empty. */
const METHOD = /^[\x21-\x7e]{1,200}$/;

/**
 * The protocol's own methods (both eras): an extension may not take them over. `tasks/get`
 * and `tasks/cancel` are not among them: the tasks extension (SEP-2663) defines them again.
 */
export const PROTOCOL_METHODS: ReadonlySet<string> = new Set([...protocolMethods.fromClient, ...protocolMethods.fromServer].filter((method) => method !== 'tasks/get' && method !== 'tasks/cancel'));

const PROTOCOL_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/elicitation/complete',
]);

/** What is wrong with one extension's definition, each with its fix; empty when nothing is. */
export function extensionProblems(extension: Extension): string[] {
  if (typeof extension !== 'object' || extension === null) return ['an extension is an object made with defineExtension({ id, ... }).'];
  const problems: string[] = [];
  const { id, settings, requests, notifications, classes, prepare, start } = extension;
  if (typeof id !== 'string' || !ID.test(id)) {
    problems.push(`id ${JSON.stringify(id)} is not an extension identifier: use '{vendor-prefix}/{name}' with a reverse-DNS prefix you own, e.g. 'com.acme/search'.`);
  }
  if (settings !== undefined) {
    const problem = jsonProblem(settings, 'settings');
    if (!isObject(settings)) problems.push('settings must be a JSON object (advertised as is under capabilities.extensions[id]).');
    else if (problem) problems.push(problem);
  }
  problems.push(...methodProblems('requests', requests, PROTOCOL_METHODS), ...methodProblems('notifications', notifications, PROTOCOL_NOTIFICATIONS));
  if (classes !== undefined && (!Array.isArray(classes) || classes.some((c) => typeof c !== 'function'))) problems.push('classes must be an array of decorated classes.');
  if (prepare !== undefined && typeof prepare !== 'function') problems.push('prepare must be a function.');
  if (start !== undefined && typeof start !== 'function') problems.push('start must be a function.');
  return problems;
}

function methodProblems(kind: 'requests' | 'notifications', methods: unknown, reserved: ReadonlySet<string>): string[] {
  if (methods === undefined) return [];
  if (!isObject(methods)) return [`${kind} must be an object whose keys are method names and whose values have a handle() function.`];
  const problems: string[] = [];
  for (const [method, entry] of Object.entries(methods)) {
    if (!METHOD.test(method)) problems.push(`${kind} method ${JSON.stringify(method)} is not a method name: use printable characters without spaces, e.g. 'acme/search'.`);
    else if (reserved.has(method)) problems.push(`${kind} method '${method}' is the protocol's own: give the extension's method a name of its own, e.g. 'acme/${method.split('/').pop()}'.`);
    if (!isObject(entry) || typeof entry.handle !== 'function') problems.push(`${kind}['${method}'] needs a handle(params, ctx) function.`);
    else if (entry.params !== undefined && !isObject(entry.params)) problems.push(`${kind}['${method}'].params must be a JSON Schema object or a Standard Schema (a zod object, for example).`);
  }
  return problems;
}

/** Why `value` is not JSON (a function, a class instance, a cycle, a non-finite number), or undefined. */
function jsonProblem(value: unknown, path: string, seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON cannot carry.`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}, which JSON cannot carry.`;
  if (seen.has(value)) return `${path} refers to itself.`;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v, i) => jsonProblem(v, `${path}[${i}]`, seen)).find(Boolean);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return `${path} is a ${proto?.constructor?.name ?? 'class instance'}, not a plain JSON object.`;
  return Object.entries(value)
    .map(([k, v]) => jsonProblem(v, `${path}.${k}`, seen))
    .find(Boolean);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

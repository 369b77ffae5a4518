import { ConfigError } from '@toolwright/core';
import type { Extension } from './Extension';
import { extensionProblems } from './extensionProblems';

/**
 * Checks an extension's definition and returns it frozen: the identifier's form, the settings
 * (a JSON object), the method names (none of the protocol's own) and the handlers. Throws a
 * `ConfigError` naming what to fix. `createApp({ extensions })` checks them together again
 * (no two extensions may share an identifier or a method).
 *
 * @example
 * export const search = defineExtension({
 *   id: 'com.acme/search',
 *   settings: { maxResults: 50 },
 *   requests: {
 *     'acme/search': {
 *       params: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
 *       handle: ({ query }: { query: string }) => ({ hits: index.find(query) }),
 *     },
 *   },
 * });
 */
export function defineExtension<E extends Extension>(extension: E): E {
  const problems = extensionProblems(extension);
  if (problems.length > 0) throw new ConfigError(`Toolwright: extension ${describe(extension)} is not valid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  return Object.freeze({
    ...extension,
    ...(extension.settings && { settings: Object.freeze({ ...extension.settings }) }),
    ...(extension.requests && { requests: Object.freeze(ownEntries(extension.requests)) }),
    ...(extension.notifications && { notifications: Object.freeze(ownEntries(extension.notifications)) }),
    ...(extension.classes && { classes: Object.freeze([...extension.classes]) }),
  });
}

/** A copy holding only the own enumerable keys, `__proto__` included as a plain key. */
function ownEntries<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const copy: Record<string, T> = Object.create(null) as Record<string, T>;
  for (const [key, value] of Object.entries(record)) Object.defineProperty(copy, key, { value, enumerable: true });
  return copy;
}

export function describe(extension: unknown): string {
  const id = typeof extension === 'object' && extension !== null ? (extension as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? `'${id}'` : '(without an id)';
}

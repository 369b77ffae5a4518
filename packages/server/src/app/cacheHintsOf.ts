import { ConfigError, type CacheHint } from '@toolwright/core';
import { cacheHintProblem } from '@toolwright/core/internal';
import type { ServerOptions } from '../sdk/sdk';
import type { AppOptions } from './AppOptions';

const LISTS: CacheHint = { ttlMs: 60_000, cacheScope: 'private' };
const READS: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/**
 * The SDK's per-operation cache hints for 2026-07-28 results, from the app's `cache` option
 * over Toolwright's defaults. An invalid hint fails at startup, saying which one.
 */
export function cacheHintsOf(cache: AppOptions['cache'] = {}): NonNullable<ServerOptions['cacheHints']> {
  const lists = { ...LISTS, ...cache.lists };
  const hints = {
    'tools/list': { ...lists, ...cache.tools },
    'prompts/list': { ...lists, ...cache.prompts },
    'resources/list': { ...lists, ...cache.resources },
    'resources/templates/list': { ...lists, ...cache.resourceTemplates },
    'resources/read': { ...READS, ...cache.reads },
    'server/discover': { ...LISTS, ...cache.discover },
  };
  for (const [operation, hint] of Object.entries(hints)) {
    const problem = cacheHintProblem(hint);
    if (problem) throw new ConfigError(`Toolwright: the cache hint for ${operation} (app option 'cache') is invalid: ${problem}.`);
  }
  return hints;
}

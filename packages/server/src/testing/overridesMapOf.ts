import { ConfigError, type Class } from '@toolwright/core';
import type { ServiceOverrides } from '../app/App';

/**
 * The test kit's `overrides` as a Map, checked before any server is made: a Map, or a list of
 * `[ServiceClass, fake]` pairs, each keyed by the class the app injects. Anything else would
 * fail inside the server on the first message and leave the client waiting for an answer.
 */
export function overridesMapOf(overrides: ServiceOverrides | undefined): ReadonlyMap<Class, unknown> | undefined {
  if (overrides === undefined) return undefined;
  const how = 'Pass a Map or a list of pairs: overrides: [[RealService, fake]].';
  if (!(overrides instanceof Map) && !Array.isArray(overrides))
    throw new ConfigError(`createTestClient: overrides must be a Map or a list of [class, instance] pairs, got ${describe(overrides)}. ${how}`);
  const pairs: readonly unknown[] = overrides instanceof Map ? [...overrides] : overrides;
  pairs.forEach((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new ConfigError(`createTestClient: overrides[${i}] must be a [class, instance] pair, got ${describe(pair)}. ${how}`);
    if (typeof pair[0] !== 'function')
      throw new ConfigError(
        `createTestClient: overrides[${i}] is keyed by ${describe(pair[0])}; the key must be the service class the app injects (e.g. [Clock, fakeClock]), not its name or an instance.`,
      );
  });
  return new Map(pairs as [Class, unknown][]);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string '${value}'`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

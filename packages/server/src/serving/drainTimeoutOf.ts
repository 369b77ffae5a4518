import { ConfigError } from '@toolwright/core';

/** The longest delay a timer takes: Node and the web runtimes fire a longer one after 1 ms. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * A drain time in milliseconds (`drainTimeoutMs` of a stdio listener, `app.drain(ms)`,
 * `app.stop(ms)`): `value`, or `byDefault` when left out. Anything else than a whole number from
 * 0 to 2^31 - 1 is refused with a `ConfigError` naming `where`: a longer timer fires after 1 ms,
 * and a negative number or `NaN` would end the wait at once.
 */
export function drainTimeoutOf(where: string, value: unknown, byDefault: number): number {
  if (value === undefined) return byDefault;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= LONGEST_TIMER_MS) return value;
  const got =
    typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : typeof value === 'string'
        ? JSON.stringify(value.slice(0, 40))
        : value === null
          ? 'null'
          : `a value of type ${typeof value}`;
  throw new ConfigError(
    `Toolwright: ${where} must be a whole number of milliseconds from 0 to ${LONGEST_TIMER_MS}, got ${got}. Give a number such as ${byDefault}, or leave it out for ${byDefault === 0 ? 'no wait' : `${byDefault} ms`}.`,
  );
}

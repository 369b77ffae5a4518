import { ConfigError } from '@toolwright/core';
import { optionValueText } from '../ground/optionValueText';

/** The longest delay a timer takes: Node and the web runtimes fire a longer one after 1 ms. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** The unit and the greatest value of an option that sets a timer. */
export const TIMER_MS = { unit: 'milliseconds', max: LONGEST_TIMER_MS } as const;

/** How one numeric option of an HTTP endpoint or listener is read: its unit, its least value, its default. */
export interface WholeNumberRule {
  /** What the number counts: 'bytes', 'milliseconds', 'a port number'. */
  readonly unit: string;
  /** The least value that works: 1 for a limit or a timeout, 0 where 0 has a meaning. */
  readonly min: 0 | 1;
  /** The greatest value that works, when there is one (a port number). */
  readonly max?: number;
  /** The value when the option is left out; none when leaving it out means "not sent". */
  readonly byDefault?: number;
  /** A good value to suggest when there is no default. */
  readonly example?: number;
  /** `Infinity` is taken too, as no limit (a limit such as `maxBodyBytes`; never a timer, which would fire at once). */
  readonly unlimited?: true;
}

/**
 * A numeric option of an HTTP endpoint or listener (`maxBodyBytes: 4_194_304`), checked at
 * start: its value, or `rule.byDefault` when left out. Anything else (a negative number, a
 * fraction, `NaN`, a string such as '4mb') would fail later and obscurely, refusing every
 * request or lifting the limit, so it is refused here with a `ConfigError` that names the option.
 */
export function wholeNumberOption(name: string, value: unknown, rule: WholeNumberRule & { readonly byDefault: number }): number;
export function wholeNumberOption(name: string, value: unknown, rule: WholeNumberRule): number | undefined;
export function wholeNumberOption(name: string, value: unknown, rule: WholeNumberRule): number | undefined {
  if (value === undefined) return rule.byDefault;
  if (value === Number.POSITIVE_INFINITY && rule.unlimited) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= rule.min && value <= (rule.max ?? Number.MAX_SAFE_INTEGER)) return value;
  const least =
    (rule.max !== undefined ? `a whole number from ${rule.min} to ${rule.max}` : rule.min === 0 ? 'a whole number, 0 or more' : 'a positive whole number') + (rule.unlimited ? ' or Infinity' : '');
  const example = `${name.split('.').pop()}: ${rule.byDefault ?? rule.example ?? 1000}`;
  const leaveOut = rule.byDefault === undefined ? 'or leave it out' : 'or leave it out for that default';
  throw new ConfigError(`Toolwright: the HTTP option ${name} must be ${least} (${rule.unit}), got ${optionValueText(value)}. Set it to a number such as ${example}, ${leaveOut}.`);
}

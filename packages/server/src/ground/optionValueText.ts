/**
 * A refused option's value as an error message quotes it: a string in quotes (so `'10'` does not read
 * as the number 10), cut short, and never more than its type for an object.
 */
export function optionValueText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null ? 'null' : `a value of type ${typeof value}`;
}

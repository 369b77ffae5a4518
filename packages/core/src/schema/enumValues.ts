import type { EnumLike } from '../metadata/ParamOptions';

/**
 * The values of an enum given as a list or a TypeScript `enum` object. Numeric TS enums
 * carry reverse mappings (`{ 0: 'Low', Low: 0 }`); only the forward values are kept.
 */
export function enumValues(e: EnumLike): (string | number)[] {
  if (Array.isArray(e)) return [...e];
  const record = e as Record<string, string | number>;
  return Object.keys(record)
    .filter((key) => !(typeof record[record[key]] === 'number' && /^-?\d+(\.\d+)?$/.test(key)))
    .map((key) => record[key]);
}

/** `string` or `number` when all values share it; undefined for a mixed enum. */
export function enumType(values: readonly unknown[]): 'string' | 'number' | undefined {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'number')) return 'number';
  return undefined;
}

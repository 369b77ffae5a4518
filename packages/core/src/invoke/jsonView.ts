/**
 * The value as JSON would carry it, given `text`, its `JSON.stringify` form. A value made
 * only of plain objects, arrays, strings, finite numbers, booleans and null is returned as
 * is, which spares a `JSON.parse`; anything else (class instances, `toJSON`, `undefined`,
 * `NaN`, dates) is read back from the text.
 */
export function jsonView(value: unknown, text: string): unknown {
  return isPlainJson(value) ? value : JSON.parse(text);
}

/** `jsonView` of a value whose JSON text is not at hand: written out only when the value is not plain JSON already. */
export function jsonViewOf(value: unknown): unknown {
  return isPlainJson(value) ? value : JSON.parse(JSON.stringify(value) ?? 'null');
}

function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key])) return false;
  return true;
}

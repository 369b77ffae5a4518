/**
 * JSON with object keys sorted at every depth, so two argument objects that are equal as
 * JSON give the same string whatever order their keys came in. The sorted copy is built with
 * own data properties, so a key named `__proto__` is kept as the key it is (an assignment
 * would set the copy's prototype instead, and `{"__proto__": "a"}` would read as `{}`).
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    }) ?? 'undefined'
  );
}

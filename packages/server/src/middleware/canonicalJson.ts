/**
 * JSON with object keys sorted at every depth, so two argument objects that are equal as
 * JSON give the same string whatever order their keys came in.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }) ?? 'undefined'
  );
}

/**
 * The subschema a local reference (`#`, `#/$defs/name`, any JSON Pointer) points at, if any.
 * A reference with broken percent-encoding (`#/%E0`) points at nothing.
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const decoded = decodeSegment(raw);
    if (decoded === undefined) return undefined;
    const key = decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

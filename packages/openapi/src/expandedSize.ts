/**
 * How many objects and arrays `value` holds when every shared one is counted each time it is
 * reached, as a walk of the value (a bundler, a converter) meets them; `Infinity` for a value that
 * contains itself. YAML aliases make a small file stand for an exponentially large tree (`a: &a
 * [x, x]`, `b: &b [*a, *a]`, ...), which a walk would take forever over. Counts each distinct
 * object once (its size is remembered) and stops counting past `limit`, so it is linear in the
 * file.
 */
export function expandedSize(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  // Iterative post-order walk: a node is sized once all its children are.
  const stack: [object, boolean][] = [[value, false]];
  while (stack.length > 0) {
    const [node, childrenDone] = stack.pop()!;
    if (childrenDone) {
      let size = 1;
      for (const child of childrenOf(node)) size = Math.min(size + (sizes.get(child) ?? 0), limit + 1);
      open.delete(node);
      sizes.set(node, size);
      continue;
    }
    if (sizes.has(node)) continue;
    if (open.has(node)) return Infinity;
    open.add(node);
    stack.push([node, true]);
    for (const child of childrenOf(node)) {
      if (open.has(child)) return Infinity;
      if (!sizes.has(child)) stack.push([child, false]);
    }
  }
  return sizes.get(value)!;
}

function childrenOf(node: object): object[] {
  const values: unknown[] = Array.isArray(node) ? node : Object.values(node);
  return values.filter((v): v is object => typeof v === 'object' && v !== null);
}

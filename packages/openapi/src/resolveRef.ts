import { ConfigError } from '@toolwright/core';

/** What a local `$ref` (`#/components/schemas/Pet`) of a bundled description points at, following chains of `$ref`s. */
export function resolveRef(document: unknown, ref: string, at: string): unknown {
  let current = ref;
  const seen = new Set<string>();
  for (let hops = 0; hops < 32; hops++) {
    if (seen.has(current)) {
      throw new ConfigError(
        `Toolwright: the OpenAPI $ref ${JSON.stringify(ref)} at ${at} is a loop of references (${[...seen, current].map((r) => JSON.stringify(r)).join(' → ')}) that never reaches a schema. Point one of them at a schema.`,
      );
    }
    seen.add(current);
    const target = pointerTarget(document, current);
    if (target === undefined) {
      throw new ConfigError(`Toolwright: the OpenAPI $ref ${JSON.stringify(current)} at ${at} points at nothing in the description. Fix the reference or add its target.`);
    }
    const next = (target as { $ref?: unknown }).$ref;
    if (typeof next !== 'string' || Object.keys(target as object).length > 1) return target;
    current = next;
  }
  throw new ConfigError(`Toolwright: the OpenAPI $ref ${JSON.stringify(ref)} at ${at} is a chain of more than 32 references. Point it at its target.`);
}

function pointerTarget(document: unknown, ref: string): unknown {
  if (ref === '#') return document;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // not percent-encoding (`%ZZ`): it names no key
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

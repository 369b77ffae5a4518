import type { Contract } from '../contract/Contract';

/** The id of each item's heading in the reference, in the contract's order. */
export interface Anchors {
  tools: string[];
  resources: string[];
  resourceTemplates: string[];
  prompts: string[];
}

/** Lowercase letters, digits, `_` and `-` of a name, spaces as `-` (as GitHub slugs a heading). */
const slug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/**
 * An id for every tool, resource (and template) and prompt: `tool.`, `resource.` or `prompt.` and
 * the slug of its name, `-1`, `-2`... on a repeat (`Tool` and `tool`), `_` when nothing is left.
 * The reference writes it on its heading and llms.txt links to it, so a link leads to its item on
 * any renderer, whatever the name: a heading's own id differs between renderers (GitHub keeps
 * `_`, VitePress turns it into `-`), and neither ever holds a `.`, so no heading takes one of these.
 */
export function anchors(contract: Contract): Anchors {
  const used = new Set<string>();
  const next = new Map<string, number>();
  const id = (kind: string, name: string): string => {
    const base = `${kind}.${slug(name) || '_'}`;
    let candidate = base;
    let n = next.get(base) ?? 1;
    while (used.has(candidate)) candidate = `${base}-${n++}`;
    next.set(base, n);
    used.add(candidate);
    return candidate;
  };
  return {
    tools: contract.tools.map((t) => id('tool', t.name)),
    resources: contract.resources.map((r) => id('resource', r.uri)),
    resourceTemplates: contract.resourceTemplates.map((r) => id('resource', r.uriTemplate)),
    prompts: contract.prompts.map((p) => id('prompt', p.name)),
  };
}

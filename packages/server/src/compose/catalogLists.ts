import type { CompiledPrompt, CompiledResource, CompiledResourceTemplate, CompiledTool } from '@toolwright/core/internal';
import type { CatalogParts, ListKind } from '../surface/Catalog';

// The lists of a catalog's parts, and the keys a catalog keeps their members under.

/** No definitions. */
export const EMPTY_PARTS: CatalogParts = Object.freeze({ tools: [], resources: [], resourceTemplates: [], prompts: [] });

/** The definitions of one list of `parts` (resources and templates are one list). */
export function listOf(parts: CatalogParts, kind: ListKind): readonly ListMember[] {
  if (kind === 'resources') return [...parts.resources, ...parts.resourceTemplates];
  return kind === 'tools' ? parts.tools : parts.prompts;
}

/** `parts` with one list taken from `from`. */
export function withList(parts: CatalogParts, from: CatalogParts, kind: ListKind): CatalogParts {
  if (kind === 'resources') return { ...parts, resources: from.resources, resourceTemplates: from.resourceTemplates };
  return kind === 'tools' ? { ...parts, tools: from.tools } : { ...parts, prompts: from.prompts };
}

/** Whether two lists hold the same items in the same order. */
export function sameItems(a: readonly object[], b: readonly object[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** A member of one of the lists: a tool or prompt (by name), a resource (by URI) or a template (by URI template). */
export type ListMember = CompiledTool | CompiledPrompt | CompiledResource | CompiledResourceTemplate;

/** The key a catalog keeps `definition` under in its list: its name, URI or URI template. */
export function keyOf(definition: ListMember): string {
  if ('uriTemplate' in definition) return definition.uriTemplate;
  return 'uri' in definition ? definition.uri : definition.name;
}

/** The list and key of a member the parent may switch: names and URIs of two lists do not meet. */
export function switchKey(kind: ListKind, definition: ListMember): string {
  return `${kind}\u0000${keyOf(definition)}`;
}

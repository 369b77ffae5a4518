import type { AuthInfo, Registry, ToolDescriptor } from '@toolwright/core';
import { canAccess, rolesOf } from './canAccess';

type ToolList = { readonly tools: readonly ToolDescriptor[] };

const MAX_CACHED_VIEWS = 256;

/**
 * Serves `tools/list` as a given caller may see it. Returns undefined when no tool has
 * rules, so the server keeps answering with the one cached list. Otherwise each distinct
 * set of scopes and roles gets its own frozen list, built once and cached (bounded).
 */
export function createToolListFilter(registry: Registry): ((auth: AuthInfo | undefined) => ToolList) | undefined {
  if (!registry.tools.some((t) => t.access)) return undefined;
  const views = new Map<string, ToolList>();
  const build = (auth: AuthInfo | undefined): ToolList =>
    Object.freeze({ tools: Object.freeze(registry.tools.filter((t) => canAccess(t.access, auth)).map((t) => registry.toolList.tools.find((d) => d.name === t.name)!)) });
  const anonymous = build(undefined);
  return (auth) => {
    if (!auth) return anonymous;
    const key = `${[...auth.scopes].sort().join(' ')}|${[...rolesOf(auth)].sort().join(' ')}`;
    let view = views.get(key);
    if (!view) {
      if (views.size >= MAX_CACHED_VIEWS) views.delete(views.keys().next().value!);
      view = build(auth);
      views.set(key, view);
    }
    return view;
  };
}

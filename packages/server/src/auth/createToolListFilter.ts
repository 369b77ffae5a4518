import type { AuthInfo, ToolDefinition, ToolDescriptor } from '@toolwright/core';
import { canAccess, rolesOf } from './canAccess';

type ToolPage = { readonly tools: readonly ToolDescriptor[]; readonly nextCursor?: string };

const MAX_VIEWS_PER_PAGE = 64;

/**
 * Narrows a `tools/list` page to what one caller may use. A page whose tools have no rules
 * is returned as is (one WeakMap lookup), so apps without authorization keep serving the
 * cached list. Otherwise each distinct set of scopes and roles gets its own frozen view of
 * the page, built once. Pages come from the catalog's cache, so views of a page that
 * changed are dropped with it.
 */
export function createToolListFilter(lookup: (name: string) => ToolDefinition | undefined): <P extends ToolPage>(page: P, auth: AuthInfo | undefined) => P {
  const views = new WeakMap<object, Map<string, ToolPage> | false>();
  return <P extends ToolPage>(page: P, auth: AuthInfo | undefined): P => {
    let byCaller = views.get(page);
    if (byCaller === undefined) {
      byCaller = page.tools.some((t) => lookup(t.name)?.access) ? new Map() : false;
      views.set(page, byCaller);
    }
    if (byCaller === false) return page;
    const key = auth ? `${[...auth.scopes].sort().join(' ')}|${[...rolesOf(auth)].sort().join(' ')}` : '';
    let view = byCaller.get(key);
    if (!view) {
      if (byCaller.size >= MAX_VIEWS_PER_PAGE) byCaller.delete(byCaller.keys().next().value!);
      view = Object.freeze({ ...page, tools: Object.freeze(page.tools.filter((t) => canAccess(lookup(t.name)?.access, auth))) });
      byCaller.set(key, view);
    }
    return view as P;
  };
}

import type { AccessRules, AuthInfo } from '@toolwright/core';
import { canAccess, rolesOf } from './canAccess';

const MAX_VIEWS_PER_PAGE = 64;

/**
 * Narrows a list page (`tools`, `resources`, `resourceTemplates` or `prompts`) to the items
 * one caller may use. A page whose items have no rules is returned as is (one WeakMap
 * lookup), so apps without authorization keep serving the cached list. Otherwise each
 * distinct set of scopes and roles gets its own frozen view of the page, built once. Pages
 * come from the catalog's cache, so views of a page that changed are dropped with it.
 */
export function createListFilter<K extends string, T>(
  key: K,
  accessOf: (item: T) => AccessRules | undefined,
): <P extends { readonly [k in K]: readonly T[] }>(page: P, auth: AuthInfo | undefined) => P {
  const views = new WeakMap<object, Map<string, object> | false>();
  return (page, auth) => {
    let byCaller = views.get(page);
    if (byCaller === undefined) {
      byCaller = page[key].some((item) => accessOf(item)) ? new Map() : false;
      views.set(page, byCaller);
    }
    if (byCaller === false) return page;
    const caller = auth ? `${[...auth.scopes].sort().join(' ')}|${[...rolesOf(auth)].sort().join(' ')}` : '';
    let view = byCaller.get(caller);
    if (!view) {
      if (byCaller.size >= MAX_VIEWS_PER_PAGE) byCaller.delete(byCaller.keys().next().value!);
      view = Object.freeze({ ...page, [key]: Object.freeze(page[key].filter((item) => canAccess(accessOf(item), auth))) });
      byCaller.set(caller, view);
    }
    return view as typeof page;
  };
}

import type { UiResourceOptions } from './McpApps';

/** The `csp` lists of SEP-1865, each a list of origins the host turns into one CSP directive. */
const CSP_KEYS: readonly string[] = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];
const PERMISSIONS: readonly string[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];
/** What cannot be part of one CSP source expression: a host joining the list would read it as another source or directive. */
const NOT_IN_A_SOURCE = /[\s;,'"\\\p{Cc}]/u;

/**
 * What is wrong with the `_meta.ui` fields of a `@UiResource` (SEP-1865), each with its fix;
 * empty when nothing is. Hosts validate these fields and build the view's Content Security
 * Policy from the `csp` lists: a list that is not one, a misspelt key (which hosts drop, so
 * the view is blocked without a word) or an entry that would break out of its directive is
 * refused here, at startup, instead of in the host.
 */
export function uiOptionsProblems(options: UiResourceOptions): string[] {
  const problems: string[] = [];
  const { csp, permissions, domain, prefersBorder } = options;
  if (csp !== undefined) {
    if (!isPlainObject(csp)) problems.push(`csp must be an object of origin lists, e.g. { connectDomains: ['https://api.example.com'] }.`);
    else {
      for (const [key, list] of Object.entries(csp)) {
        if (!CSP_KEYS.includes(key)) problems.push(`csp.${key} is not a CSP list of MCP Apps: use ${CSP_KEYS.join(', ')}.`);
        else if (!Array.isArray(list)) problems.push(`csp.${key} must be a list of origins, e.g. ['https://api.example.com'] (got ${describe(list)}).`);
        else
          list.forEach((origin: unknown, i) => {
            if (typeof origin !== 'string' || origin === '' || NOT_IN_A_SOURCE.test(origin))
              problems.push(`csp.${key}[${i}] ${describe(origin)} is not an origin: give one origin per entry, e.g. 'https://api.example.com', without spaces, quotes, ';' or ','.`);
          });
      }
    }
  }
  if (permissions !== undefined) {
    if (!isPlainObject(permissions)) problems.push(`permissions must be an object, e.g. { clipboardWrite: {} }.`);
    else
      for (const [key, value] of Object.entries(permissions)) {
        if (!PERMISSIONS.includes(key)) problems.push(`permissions.${key} is not a permission of MCP Apps: use ${PERMISSIONS.join(', ')}.`);
        else if (!isPlainObject(value) || Object.keys(value).length > 0) problems.push(`permissions.${key} asks for the permission with {} (got ${describe(value)}).`);
      }
  }
  if (domain !== undefined && (typeof domain !== 'string' || domain === '' || NOT_IN_A_SOURCE.test(domain)))
    problems.push(`domain ${describe(domain)} must be the view's origin as the host expects it, e.g. 'dashboard.example.com'.`);
  if (prefersBorder !== undefined && typeof prefersBorder !== 'boolean') problems.push(`prefersBorder must be true or false (got ${describe(prefersBorder)}).`);
  return problems;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

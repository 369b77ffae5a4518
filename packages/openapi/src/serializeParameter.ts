import type { ArgumentPlacement } from './OpenApiOperation';

/*
 * Parameter values as OpenAPI's `style` and `explode` serialize them (RFC 6570 templates), every
 * piece percent-encoded per RFC 3986, so no value can add a path segment, a query parameter or a
 * fragment of its own.
 */

/** RFC 3986 percent-encoding: only the unreserved characters stay as they are. */
export function pct(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `simple` style (RFC 6570 `{name}`, `{name*}`): `a,b`; an object `k,v,k2,v2`, or `k=v,k2=v2` exploded; each piece through `encode`. */
export function joined(value: unknown, explode: boolean, encode: (text: string) => string): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item))).join(',');
  if (isPlainObject(value)) {
    return Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .map((k) => (explode ? `${encode(k)}=${encode(scalar(value[k]))}` : `${encode(k)},${encode(scalar(value[k]))}`))
      .join(',');
  }
  return encode(scalar(value));
}

/** A path parameter's text in its style (`simple`, `label` `.a.b`, `matrix` `;id=a,b`), every piece percent-encoded. */
export function serializePath(arg: ArgumentPlacement, value: unknown): string {
  const entries = isPlainObject(value)
    ? Object.keys(value)
        .filter((k) => value[k] !== undefined)
        .map((k) => [pct(k), pct(scalar(value[k]))] as const)
    : undefined;
  const items = Array.isArray(value) ? value.map((item) => pct(scalar(item))) : undefined;
  if (arg.style === 'label') {
    if (items) return `.${items.join(arg.explode ? '.' : ',')}`;
    if (entries) return `.${entries.map(([k, v]) => (arg.explode ? `${k}=${v}` : `${k},${v}`)).join(arg.explode ? '.' : ',')}`;
    return `.${pct(scalar(value))}`;
  }
  if (arg.style === 'matrix') {
    const name = pct(arg.name);
    if (items) return arg.explode ? items.map((i) => `;${name}=${i}`).join('') : `;${name}=${items.join(',')}`;
    if (entries) return arg.explode ? entries.map(([k, v]) => `;${k}=${v}`).join('') : `;${name}=${entries.map(([k, v]) => `${k},${v}`).join(',')}`;
    return `;${name}=${pct(scalar(value))}`;
  }
  return joined(value, arg.explode, pct);
}

/** A query parameter's name=value pairs in its style (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`), percent-encoded. */
export function serializeQuery(arg: ArgumentPlacement, value: unknown): [string, string][] {
  const name = pct(arg.name);
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined);
    if (arg.style === 'deepObject') return keys.map((k) => [`${name}[${pct(k)}]`, pct(scalar(value[k]))]);
    if (arg.explode) return keys.map((k) => [pct(k), pct(scalar(value[k]))]);
    const separator = arg.style === 'spaceDelimited' ? '%20' : arg.style === 'pipeDelimited' ? '|' : ',';
    return [[name, keys.map((k) => `${pct(k)}${separator}${pct(scalar(value[k]))}`).join(separator)]];
  }
  if (Array.isArray(value)) {
    if (arg.explode) return value.map((item) => [name, pct(scalar(item))]);
    const separator = arg.style === 'spaceDelimited' ? '%20' : arg.style === 'pipeDelimited' ? '|' : ',';
    return [[name, value.map((item) => pct(scalar(item))).join(separator)]];
  }
  return [[name, pct(scalar(value))]];
}

/** A value as the text of one parameter piece: an object or array as its JSON. */
export function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

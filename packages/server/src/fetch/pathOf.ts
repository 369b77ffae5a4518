/**
 * The path of a request's URL, as `new URL(href).pathname` reads it, without parsing: a
 * `Request`'s URL is absolute and already serialized, so an http(s) URL's path runs from the
 * first `/` after its authority to its query or fragment. Any other scheme is parsed.
 */
export function pathOf(href: string): string {
  const scheme = href.startsWith('https://') ? 8 : href.startsWith('http://') ? 7 : -1;
  if (scheme < 0) return new URL(href).pathname;
  const start = href.indexOf('/', scheme);
  if (start < 0) return '/';
  let end = href.length;
  for (let i = start; i < end; i++) {
    const c = href.charCodeAt(i);
    if (c === 0x3f /* ? */ || c === 0x23 /* # */) end = i;
  }
  return href.slice(start, end);
}

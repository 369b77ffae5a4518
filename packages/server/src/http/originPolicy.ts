const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/**
 * Compiles the Origin rule once: a request without an Origin passes (non-browser
 * clients send none); a present one must be listed, or be a localhost origin when no
 * list is given. Browsers send Origin on cross-site requests, so this stops a web page
 * from driving a local server (spec 2025-11-25: invalid Origin -> 403).
 */
export function createOriginPolicy(allowed: readonly string[] | undefined): (origin: string | undefined) => boolean {
  if (!allowed) return (origin) => origin === undefined || LOCAL_ORIGIN.test(origin);
  if (allowed.includes('*')) return () => true;
  const set = new Set(allowed.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return (origin) => origin === undefined || set.has(origin.toLowerCase());
}

/** How long a document may be cached, from its `Cache-Control`: `max-age`, 0 for `no-store` / `no-cache`, undefined when not said. */
export function maxAgeOf(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const directives = header
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  const seconds = maxAge ? Number(maxAge.slice('max-age='.length)) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

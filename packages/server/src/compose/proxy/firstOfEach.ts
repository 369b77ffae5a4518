import type { ToolLogger } from '@toolwright/core';

/**
 * The members of an upstream list with a key not seen before, in order: an upstream that lists
 * a name or URI twice gets its first served, and a warning naming the others (a catalog holds
 * one member per name, and a client could not tell the two apart).
 */
export function firstOfEach<T>(items: readonly T[], keyOf: (item: T) => string, what: string, logger: ToolLogger, label: string): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const item of items) {
    const key = keyOf(item);
    if (!seen.has(key)) {
      seen.add(key);
      kept.push(item);
    } else logger.warn(`${label}: ${what} ${quoted(key)} is listed twice; only the first is served. Ask the upstream's maintainers to give each a name of its own.`);
  }
  return kept;
}

/** A name from the wire for a log line: quoted, and cut at 80 characters. */
export function quoted(name: string): string {
  return name.length > 80 ? `${JSON.stringify(name.slice(0, 80))}... (${name.length} characters)` : JSON.stringify(name);
}

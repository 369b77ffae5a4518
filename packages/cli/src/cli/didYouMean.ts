/**
 * " Did you mean 'weather'?" when `given` is a near miss of one of `known` (another case, a
 * word separator for a dash, or at most two letters added, dropped or changed); else ''.
 * Meant to follow a sentence that lists what is accepted.
 */
export function didYouMean(given: string, known: readonly string[]): string {
  const near = nearest(given, known);
  return near === undefined ? '' : ` Did you mean '${near}'?`;
}

/** The one entry of `known` closest to `given` within the limits `didYouMean` names, or undefined. */
export function nearest(given: string, known: readonly string[]): string | undefined {
  const plain = given.toLowerCase().replace(/[\s_]+/g, '-');
  if (plain.length === 0 || plain.length > 64) return undefined;
  const limit = plain.length <= 3 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(plain, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance: the fewest letters added, dropped or changed to turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

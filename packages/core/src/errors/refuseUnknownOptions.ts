import { ConfigError } from './ConfigError';

/**
 * Throws a `ConfigError` when `options` has a key `known` lacks, naming each such key and the known
 * one nearest to it (`timeoutMS` for `timeoutMs`). An option with a typo in its name would
 * otherwise be ignored without a word: a misspelt `allowedHosts` or `auth` leaves the server open.
 * `what` names the call, as in "createApp has no option ...".
 */
export function refuseUnknownOptions(what: string, options: object, known: readonly string[], where: string): void {
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const named = unknown.map((key) => {
    const near = nearestName(key, known);
    return `\`${key}\`${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`;
  });
  throw new ConfigError(`Toolwright: ${what} has no option ${named.join(', ')}. Fix the name or remove it; ${where}.`);
}

/**
 * The name of `known` nearest to `key`: the same but for case, or within two letters added, dropped
 * or changed (one for a name of five letters or fewer, so `port` suggests no `cors`).
 */
function nearestName(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = key.length <= 5 ? 2 : 3;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase(), bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

/** Levenshtein distance of `a` and `b`, or `limit` when it is at least that. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return Math.min(previous[b.length], limit);
}

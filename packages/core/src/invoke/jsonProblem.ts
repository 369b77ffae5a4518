/** Deeper than this, a value is refused: `JSON.stringify` recurses, and a few thousand levels exhaust its stack. */
export const MAX_JSON_DEPTH = 1000;

/** A value met in the walk: where it sits (its parent and key) and how deep. */
interface Place {
  readonly value: unknown;
  readonly parent: Place | undefined;
  readonly key: string | number;
  readonly depth: number;
  /** Set on the marker that closes an object once its members are walked. */
  readonly leaving?: object;
}

/**
 * Why `value` cannot go out as JSON, naming where (`structuredContent.total`) and how to fix
 * it; undefined when it can. What `JSON.stringify` would throw on, found before it is
 * thrown where no one can answer for it (inside a transport, with the request left
 * unanswered): a BigInt, a cycle, nesting deeper than `MAX_JSON_DEPTH`, a `toJSON()` or a
 * getter that throws. And what it would write as `{}` though it holds data: a Map, a Set, a
 * Promise not awaited, an Error, an instance whose fields are private or getters. What
 * `JSON.stringify` drops (functions, symbols, `undefined`) is no problem. The walk keeps its own stack, so no depth of input overflows it, and spells a
 * path out only for the problem it reports.
 */
export function jsonProblem(value: unknown, name: string): string | undefined {
  const open = new Set<object>();
  const stack: Place[] = [{ value, parent: undefined, key: name, depth: 0 }];
  let place: Place | undefined;
  try {
    while ((place = stack.pop()) !== undefined) {
      if (place.leaving) {
        open.delete(place.leaving);
        continue;
      }
      let current = place.value;
      if (typeof current === 'object' && current !== null && typeof (current as { toJSON?: unknown }).toJSON === 'function') {
        // As JSON.stringify calls it: with the property's key, '' for the value itself.
        current = (current as { toJSON: (key: string) => unknown }).toJSON(place.parent === undefined ? '' : String(place.key));
      }
      if (typeof current === 'bigint') return `${pathOf(place)} is a BigInt, which JSON cannot carry: return it as a string or a number.`;
      if (typeof current !== 'object' || current === null) continue;
      if (open.has(current)) return `${pathOf(place)} refers back to an object that contains it: JSON cannot carry a cycle; return a copy without it.`;
      if (place.depth >= MAX_JSON_DEPTH) return `${pathOf(place)} nests deeper than ${MAX_JSON_DEPTH} levels: flatten it, or send it as text.`;
      open.add(current);
      stack.push({ value: undefined, parent: undefined, key: '', depth: 0, leaving: current });
      const depth = place.depth + 1;
      // Strings, numbers and booleans need no visit of their own: only objects and BigInts are pushed.
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) if (needsVisit(current[i])) stack.push({ value: current[i], parent: place, key: i, depth });
      } else {
        const keys = Object.keys(current);
        if (keys.length === 0) {
          const lost = writtenAsEmpty(current);
          if (lost !== undefined) return `${pathOf(place)} ${lost}`;
        }
        for (let i = keys.length - 1; i >= 0; i--) {
          const member = (current as Record<string, unknown>)[keys[i]];
          if (needsVisit(member)) stack.push({ value: member, parent: place, key: keys[i], depth });
        }
      }
    }
  } catch (error) {
    return `reading ${place ? pathOf(place) : name} threw (${error instanceof Error ? error.message : String(error)}): return plain data.`;
  }
  return undefined;
}

/**
 * How an object with no enumerable fields of its own is lost when it is not a plain one: JSON writes
 * `{}` for it, whatever it holds (undefined for a plain `{}`, which means what it says).
 */
function writtenAsEmpty(value: object): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return undefined;
  if (value instanceof Map) return 'is a Map, which JSON writes as {}: return Object.fromEntries(map), or [...map] for its entries.';
  if (value instanceof Set) return 'is a Set, which JSON writes as {}: return [...set].';
  if (typeof (value as { then?: unknown }).then === 'function') return 'is a Promise, which JSON writes as {}: await it before returning.';
  if (value instanceof Error) return `is an Error (${value.name}: ${value.message.slice(0, 80)}), which JSON writes as {}: throw it to fail the call, or return its message.`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const what = typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object of a class';
  return `is ${what} with no enumerable fields, which JSON writes as {}: return a plain object with what to send (private #fields, getters and a Map's or WeakMap's entries are not written).`;
}

function needsVisit(value: unknown): boolean {
  return (typeof value === 'object' && value !== null) || typeof value === 'bigint';
}

/** `structuredContent.items[2].total`, from the walk's parents; a path of more than 12 steps keeps its first and last 5. */
function pathOf(place: Place): string {
  const parts: string[] = [];
  for (let p: Place | undefined = place; p !== undefined; p = p.parent) parts.push(p.parent === undefined ? String(p.key) : typeof p.key === 'number' ? `[${p.key}]` : `.${p.key}`);
  parts.reverse();
  return parts.length > 12 ? `${parts.slice(0, 5).join('')}…${parts.slice(-5).join('')}` : parts.join('');
}

/**
 * Immutable updates of a class's OWN metadata. Reading inherited metadata and
 * pushing into it would mutate the parent class's record.
 */
export function readOwn<T>(key: string, target: object): T | undefined {
  return Reflect.getOwnMetadata(key, target) as T | undefined;
}

/** One appended record and the ones before it: appending costs O(1), and no record is ever mutated. */
interface Appended<T> {
  readonly item: T;
  readonly previous: Appended<T> | undefined;
}

/** Appends `item` to the list recorded under `key` on `target` itself. */
export function appendOwn<T>(key: string, target: object, item: T): void {
  const previous = readOwn<Appended<T>>(key, target);
  Reflect.defineMetadata(key, Object.freeze({ item, previous }), target);
}

/** The records appended under `key` on `target` itself, in the order they were appended. */
export function readOwnList<T>(key: string, target: object): readonly T[] {
  const items: T[] = [];
  for (let node = readOwn<Appended<T>>(key, target); node; node = node.previous) items.push(node.item);
  return items.reverse();
}

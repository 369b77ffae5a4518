/**
 * Immutable updates of a class's OWN metadata. Reading inherited metadata and
 * pushing into it would mutate the parent class's record.
 */
export function readOwn<T>(key: string, target: object): T | undefined {
  return Reflect.getOwnMetadata(key, target) as T | undefined;
}

export function appendOwn<T>(key: string, target: object, item: T): void {
  const current = readOwn<readonly T[]>(key, target) ?? [];
  Reflect.defineMetadata(key, Object.freeze([...current, item]), target);
}

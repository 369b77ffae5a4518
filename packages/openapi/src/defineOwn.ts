/** Sets `object[key]` as an own property, even for keys such as `__proto__` that plain assignment would treat specially. */
export function defineOwn<T>(object: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

import type { Class } from '../metadata/Class';

/** Built-in constructors TypeScript reflects for non-DTO types. */
const BUILT_INS = new Set<unknown>([Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Date, RegExp, Promise, Map, Set, WeakMap, WeakSet, Error, ArrayBuffer, Uint8Array]);

/** Whether a reflected or `@Type` reference names a DTO class (not a built-in, not a thunk). */
export function isDtoClass(ref: unknown): ref is Class {
  // Arrow functions have no prototype: a thunk is not a class.
  return typeof ref === 'function' && ref.prototype !== undefined && !BUILT_INS.has(ref);
}

/** The class's name for messages. */
export function className(cls: Class): string {
  return cls.name || 'an anonymous class';
}

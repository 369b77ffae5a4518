/**
 * A decorator's options as recorded: a frozen copy of an object, anything else as given (a
 * name where the options go, from JavaScript or a cast), which the build refuses with its fix.
 */
export function frozenOptions<T extends object>(options: T): Readonly<T> {
  return typeof options === 'object' && options !== null ? Object.freeze({ ...options }) : options;
}

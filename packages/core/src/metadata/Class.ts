/** Any class (constructor function). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Class<T = any> = new (...args: any[]) => T;

/** A function returning a class: lets a decorator name a class declared later in the file. */
export type ClassThunk<T = unknown> = () => Class<T>;

/** Any class (constructor function). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any class, whatever its constructor takes or makes: a class extends it only with any[] (TS2545); public API
export type Class<T = any> = new (...args: any[]) => T;

/** A function returning a class: lets a decorator name a class declared later in the file. */
export type ClassThunk<T = unknown> = () => Class<T>;

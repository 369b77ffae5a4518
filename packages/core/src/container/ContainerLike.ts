import type { Class } from '../metadata/Class';

/**
 * What Toolwright needs from a dependency-injection container: build (or fetch) an
 * instance of a class. typedi's `Container` fits as is; for tsyringe pass
 * `{ get: (cls) => container.resolve(cls) }`, for inversify `{ get: (cls) => container.get(cls) }`.
 */
export interface ContainerLike {
  get<T>(cls: Class<T>): T;
}

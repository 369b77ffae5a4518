import type { Class } from '../metadata/Class';
import type { ContainerLike } from './ContainerLike';

interface TypediContainer {
  has(id: unknown): boolean;
  get<T>(id: Class<T>): T;
}

/**
 * The default container: typedi's global `Container` for classes marked `@Service()`
 * (and everything they inject), and for an undecorated class without constructor
 * parameters a single instance created by this app (so such classes need no decorator).
 * typedi is loaded only when this default is used, so apps with another container need not install it.
 */
export function createDefaultContainer(): ContainerLike {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Container } = require('typedi') as { Container: TypediContainer };
  const plain = new Map<Class, unknown>();
  return {
    get<T>(cls: Class<T>): T {
      if (Container.has(cls) || cls.length > 0) return Container.get(cls);
      let instance = plain.get(cls) as T | undefined;
      if (instance === undefined) {
        instance = new cls();
        plain.set(cls, instance);
      }
      return instance;
    },
  };
}

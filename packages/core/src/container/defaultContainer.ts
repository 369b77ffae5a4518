import type { Class } from '../metadata/Class';
import type { ContainerLike } from './ContainerLike';

interface TypediContainer {
  has(id: unknown): boolean;
  get<T>(id: Class<T>): T;
}

/**
 * The default container: typedi's global `Container` for classes marked `@Service()`
 * (and everything they inject), and for an undecorated class without constructor
 * parameters a single instance created by this app (so such classes need no decorator), kept
 * as long as something else holds the class.
 * typedi is loaded only when this default is used, so apps with another container need not install it.
 */
export function createDefaultContainer(): ContainerLike {
  const { Container } = require('typedi') as { Container: TypediContainer };
  // Weak: a class nobody else holds (replaced by a reload, removed from the app) goes, with its instance.
  const plain = new WeakMap<Class, unknown>();
  const container: ContainerLike = {
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
  defaults.add(container);
  return container;
}

const defaults = new WeakSet<object>();

/**
 * Whether the container builds a class from its constructor types (`design:paramtypes`), so
 * a constructor that takes parameters but has none recorded cannot be built right: the
 * default container and typedi's own. Another container has its own rules (tokens, factories).
 */
export function readsConstructorTypes(container: ContainerLike): boolean {
  if (defaults.has(container)) return true;
  try {
    const typedi = require('typedi') as { Container: unknown; ContainerInstance: new () => unknown };
    return container === typedi.Container || container instanceof typedi.ContainerInstance;
  } catch {
    return false;
  }
}

import { ConfigError } from '../errors/ConfigError';
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
 * typedi is loaded only when this default is used, so apps with another container need not install it;
 * nor need apps whose classes inject nothing (typedi missing, a class with constructor
 * parameters fails the build, saying to install it).
 */
export function createDefaultContainer(): ContainerLike {
  const Container = loadTypedi();
  // Weak: a class nobody else holds (replaced by a reload, removed from the app) goes, with its instance.
  const plain = new WeakMap<Class, unknown>();
  const container: ContainerLike = {
    get<T>(cls: Class<T>): T {
      if (Container && (Container.has(cls) || cls.length > 0)) return Container.get(cls);
      if (cls.length > 0) {
        throw new ConfigError(
          `Toolwright: ${cls.name}'s constructor takes parameters, and the default container builds those with typedi, which is not installed. Fix: npm install typedi and mark the class and its services with @Service(), or pass your own \`container\`.`,
        );
      }
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

/** typedi's global `Container`, or undefined when typedi is not installed (an optional peer dependency). */
function loadTypedi(): TypediContainer | undefined {
  try {
    return (require('typedi') as { Container: TypediContainer }).Container;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !(error as Error).message.includes("'typedi'")) throw error;
    return undefined;
  }
}

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

import { ConfigError } from '../errors/ConfigError';
import type { Class } from '../metadata/Class';
import type { ContainerLike } from './ContainerLike';

interface TypediContainer {
  has(id: unknown): boolean;
  get<T>(id: Class<T>): T;
  /** Public: what `@Inject()` records, one per injected constructor parameter (`index`) or property. */
  readonly handlers?: readonly { readonly object: unknown; readonly index?: number }[];
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

/** Whether typedi knows the class (`@Service()` registers it in its global container): also a sign it has a class decorator. */
export function isTypediService(cls: Class): boolean {
  return loadTypedi()?.has(cls) === true;
}

/** A class typedi is asked for but does not know, and who asks: `injectedBy` and `index` are undefined for the root itself. */
export interface UnregisteredService {
  readonly missing: Class;
  readonly injectedBy?: Class;
  /** The position of the constructor parameter, from 0. */
  readonly index?: number;
  /** The classes from the root to `missing`. */
  readonly path: readonly Class[];
}

/**
 * When typedi could not build `root` for `container` (the default container, or typedi's own):
 * the first class it would ask for and does not know (neither `@Service()` nor `Container.set`),
 * walking the constructor types (`design:paramtypes`) as typedi does, parameter by parameter,
 * skipping the parameters with an `@Inject()` and the primitives typedi passes as undefined.
 * Undefined when every class on the way is known (the failure is another one), or the container
 * does not build from constructor types.
 */
export function unregisteredService(root: Class, container: ContainerLike): UnregisteredService | undefined {
  const Container = loadTypedi();
  if (!Container || !readsConstructorTypes(container)) return undefined;
  const own = container as Partial<TypediContainer>;
  const known = (cls: Class) => Container.has(cls) || (own !== (Container as unknown) && typeof own.has === 'function' && own.has(cls));
  // The default container builds an unknown class without parameters itself.
  if (!known(root)) return root.length > 0 || !defaults.has(container) ? { missing: root, path: [root] } : undefined;
  const seen = new Set<Class>();
  const visit = (cls: Class, path: readonly Class[]): UnregisteredService | undefined => {
    seen.add(cls);
    const types = (Reflect.getMetadata('design:paramtypes', cls) as unknown[] | undefined) ?? [];
    for (const [index, type] of types.entries()) {
      const injected = (Container.handlers ?? []).some((h) => (h.object === cls || h.object === Object.getPrototypeOf(cls)) && h.index === index);
      if (injected || typeof type !== 'function' || !type.name || PRIMITIVE_NAMES.has(type.name.toLowerCase())) continue;
      const dep = type as Class;
      if (!known(dep)) return { missing: dep, injectedBy: cls, index, path: [...path, dep] };
      if (seen.has(dep)) continue;
      const deeper = visit(dep, [...path, dep]);
      if (deeper) return deeper;
    }
    return undefined;
  };
  return visit(root, [root]);
}

/** The constructor parameter types typedi passes as undefined rather than build (its `isPrimitiveParamType`). */
const PRIMITIVE_NAMES = new Set(['string', 'boolean', 'number', 'object']);

import type { AuthInfo, ToolContext, ToolLogger } from '../context/ToolContext';
import type { ProtocolEra } from '../context/RequestEnvelope';
import { ConfigError } from '../errors/ConfigError';
import type { Class } from '../metadata/Class';
import { callValuesOf, lifetimeOf, type CallValue } from '../metadata/ServiceLifetime';
import type { ContainerLike } from './ContainerLike';

/** What `@FromCall('session')` receives. */
export interface SessionInfo {
  /** The 2025-era session id (stateful HTTP); undefined over stdio and for 2026-07-28 requests. */
  readonly id: string | undefined;
  readonly era: ProtocolEra;
}

export interface ServiceScopeOptions {
  /** The lifetime this scope serves; a request scope also serves session-lifetime classes when it has no session scope. */
  readonly lifetime: 'session' | 'request';
  /** Builds app-lifetime classes (the app's container). */
  readonly parent: ContainerLike;
  /** The session scope around a request scope, when the request belongs to a session. */
  readonly session?: ServiceScope;
  /** Instances to hand out instead of building the class (test doubles); classes depending on them are built by the scope too. */
  readonly overrides?: ReadonlyMap<Class, unknown>;
  readonly values?: { readonly context?: ToolContext; readonly caller?: AuthInfo; readonly session?: SessionInfo };
  readonly logger: ToolLogger;
}

/**
 * A container for one session or one request: builds the `@Scoped` classes of its lifetime
 * (once per scope) from their constructor types, hands `@FromCall` parameters the call's
 * values, and asks the app's container for everything else. With overrides, every class
 * that has constructor types is built here (once per scope), so a test double reaches the
 * classes that depend on it. `dispose()` calls the `dispose` method of what it built, newest first.
 */
export class ServiceScope implements ContainerLike {
  private readonly built = new Map<Class, unknown>();
  private readonly building = new Set<Class>();

  constructor(private readonly options: ServiceScopeOptions) {}

  get<T>(cls: Class<T>): T {
    const { overrides, session, lifetime, parent } = this.options;
    if (overrides?.has(cls)) return overrides.get(cls) as T;
    const wanted = lifetimeOf(cls);
    if (lifetime === 'request') {
      if (wanted === 'request') return this.own(cls);
      // Session and app lifetimes: the session decides (its overrides included); without one, a session-lifetime class lives for the request.
      if (session) return session.get(cls);
      if (wanted === 'session') return this.own(cls);
    } else {
      if (wanted === 'request') {
        const dependent = [...this.building].at(-1)?.name;
        throw new ConfigError(
          `${cls.name} is @Scoped('request'), but ${dependent ? `${dependent}, a @Scoped('session') service,` : 'a longer-lived service'} injects it, and would keep one request's instance for the whole session. ` +
            `Mark ${dependent ?? 'the dependent class'} @Scoped('request') too, or take ${cls.name} out of its constructor (inject it into the tool class instead).`,
        );
      }
      if (wanted === 'session') return this.own(cls);
    }
    return overrides && hasConstructorTypes(cls) ? this.own(cls) : parent.get(cls);
  }

  /**
   * Disposes every instance this scope built, newest first: its `dispose()` method, else its
   * `[Symbol.asyncDispose]()`, else its `[Symbol.dispose]()` (one of them, once). A failing one is
   * logged and the rest still run.
   */
  async dispose(): Promise<void> {
    const instances = [...this.built.values()].reverse();
    this.built.clear();
    for (const instance of instances) {
      const found = disposerOf(instance);
      if (!found) continue;
      try {
        await found.dispose.call(instance);
      } catch (error) {
        this.options.logger.error(`${found.name} of ${(instance as object).constructor.name} failed`, error);
      }
    }
  }

  private own<T>(cls: Class<T>): T {
    if (this.built.has(cls)) return this.built.get(cls) as T;
    if (this.building.has(cls)) {
      const chain = [...this.building].slice([...this.building].indexOf(cls)).map((c) => c.name);
      throw new ConfigError(
        `${cls.name} depends on itself through constructors (${[...chain, cls.name].join(' → ')}), so none of them can be built. ` +
          `Break the cycle: take one class of it out of the constructor that injects it, e.g. move what they share into a service of its own that each injects.`,
      );
    }
    this.building.add(cls);
    try {
      const types = (Reflect.getMetadata('design:paramtypes', cls) as Class[] | undefined) ?? [];
      const fromCall = callValuesOf(cls);
      const args = types.map((type, i) => {
        const value = fromCall.get(i);
        return value ? this.callValue(value) : this.get(type);
      });
      for (const [i, value] of fromCall) if (i >= types.length) args[i] = this.callValue(value);
      const instance = new cls(...args);
      this.built.set(cls, instance);
      return instance;
    } finally {
      this.building.delete(cls);
    }
  }

  private callValue(value: CallValue): unknown {
    const values = this.options.values ?? {};
    return value === 'context' ? values.context : value === 'caller' ? values.caller : values.session;
  }
}

function hasConstructorTypes(cls: Class): boolean {
  return Reflect.getMetadata('design:paramtypes', cls) !== undefined;
}

/** How an instance is disposed, and the name the log gives it: `dispose()`, `[Symbol.asyncDispose]()` or `[Symbol.dispose]()`, the first it has. */
function disposerOf(instance: unknown): { readonly dispose: () => unknown; readonly name: string } | undefined {
  const held = instance as { dispose?: unknown; [Symbol.asyncDispose]?: unknown; [Symbol.dispose]?: unknown };
  if (typeof held.dispose === 'function') return { dispose: held.dispose as () => unknown, name: 'dispose()' };
  if (typeof held[Symbol.asyncDispose] === 'function') return { dispose: held[Symbol.asyncDispose] as () => unknown, name: '[Symbol.asyncDispose]()' };
  if (typeof held[Symbol.dispose] === 'function') return { dispose: held[Symbol.dispose] as () => unknown, name: '[Symbol.dispose]()' };
  return undefined;
}

import { Tool, type Class, type ContainerLike } from '@toolwright/core';
import { createApp } from '@toolwright/server';

export class Greeter {
  constructor(readonly greeting: string) {}
}

// The hand-written container below builds it, not from constructor types.
// eslint-disable-next-line @toolwright/injectable-class-decorated
export class HelloTools {
  constructor(private readonly greeter: Greeter) {}

  @Tool({ description: 'Say hello.' })
  hello() {
    return `${this.greeter.greeting}, world!`;
  }
}

// #region container
/** A hand-written container: a factory per class, one instance each. */
export function createContainer(): ContainerLike {
  const factories = new Map<Class, () => unknown>([
    [Greeter, () => new Greeter('Hej')],
    [HelloTools, () => new HelloTools(container.get(Greeter))],
  ]);
  const instances = new Map<Class, unknown>();
  const container: ContainerLike = {
    get<T>(cls: Class<T>): T {
      if (!instances.has(cls)) {
        const factory = factories.get(cls);
        if (!factory) throw new Error(`${cls.name} is not registered`);
        instances.set(cls, factory());
      }
      return instances.get(cls) as T;
    },
  };
  return container;
}

export function createHelloApp() {
  return createApp({ name: 'hello', version: '1.0.0', tools: [HelloTools], container: createContainer() });
}
// #endregion container

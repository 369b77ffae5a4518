import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createDefaultContainer } from '../src/container/defaultContainer';

// A full collection on demand, without starting jest under --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects until `gone` holds, with turns of the event loop between (weak references clear between turns), at most 10 times. */
async function collected(gone: () => boolean): Promise<boolean> {
  for (let i = 0; i < 10 && !gone(); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return gone();
}

/** Builds an instance of a class made here with `container`, and keeps only weak references to both. */
function builtThenDropped(container: ReturnType<typeof createDefaultContainer>): { cls: WeakRef<object>; instance: WeakRef<object> } {
  class Reloaded {
    readonly payload = new Array(1024).fill('held');
  }
  const instance = container.get(Reloaded);
  expect(container.get(Reloaded)).toBe(instance);
  return { cls: new WeakRef(Reloaded), instance: new WeakRef(instance) };
}

describe('the default container', () => {
  it('builds one instance of an undecorated class per container', () => {
    class Plain {}
    const one = createDefaultContainer();
    const two = createDefaultContainer();
    expect(one.get(Plain)).toBe(one.get(Plain));
    expect(one.get(Plain)).not.toBe(two.get(Plain));
  });

  it('holds no class nobody else holds, nor its instance (a reload replaced it, the app removed it), while the container lives on', async () => {
    const container = createDefaultContainer();
    const refs = Array.from({ length: 5 }, () => builtThenDropped(container));
    expect(await collected(() => refs.every((r) => r.cls.deref() === undefined && r.instance.deref() === undefined))).toBe(true);
    // The container still serves (and holds) the classes its app holds.
    class Kept {}
    expect(container.get(Kept)).toBe(container.get(Kept));
  });
});

// The package READMEs of the adapters (express, fastify, hono, next, redis, oauth, openapi) install
// no typedi (an optional peer), and their examples serve classes that inject nothing: the default
// container used to require typedi all the same, and such an app died with "Cannot find module 'typedi'".
describe('the default container without typedi installed', () => {
  /** A default container made where requiring typedi throws what `typedi` throws (its module factory). */
  function containerWhere(typedi: () => never): ReturnType<typeof createDefaultContainer> {
    let container: ReturnType<typeof createDefaultContainer> | undefined;
    try {
      jest.isolateModules(() => {
        jest.doMock('typedi', typedi);
        const fresh = require('../src/container/defaultContainer') as typeof import('../src/container/defaultContainer');
        container = fresh.createDefaultContainer();
      });
    } finally {
      jest.dontMock('typedi');
    }
    return container!;
  }
  const missing = () => {
    throw Object.assign(new Error("Cannot find module 'typedi' from 'packages/core/src/container/defaultContainer.ts'"), { code: 'MODULE_NOT_FOUND' });
  };

  it('builds a class without constructor parameters', () => {
    class Greeter {
      greet = (name: string) => `Hello, ${name}!`;
    }
    const container = containerWhere(missing);
    expect(container.get(Greeter).greet('Ada')).toBe('Hello, Ada!');
    expect(container.get(Greeter)).toBe(container.get(Greeter));
  });

  it('refuses a class whose constructor takes parameters, saying to install typedi or pass a container', () => {
    class Service {}
    class Injected {
      constructor(readonly service: Service) {}
    }
    const container = containerWhere(missing);
    expect(() => container.get(Injected)).toThrow(
      "Toolwright: Injected's constructor takes parameters, and the default container builds those with typedi, which is not installed. Fix: npm install typedi and mark the class and its services with @Service(), or pass your own `container`.",
    );
  });

  it('fails the build of a tool class whose constructor takes parameters, with that message (the DI guide says so)', () => {
    let outcome = 'built';
    try {
      jest.isolateModules(() => {
        jest.doMock('typedi', missing);
        const core = require('../src') as typeof import('../src');
        class Clock {}
        class TimeTools {
          constructor(readonly clock: Clock) {}
          now() {
            return 'now';
          }
        }
        core.Tool({ description: 'The time now. Use when the user asks what time it is.' })(TimeTools.prototype, 'now', Object.getOwnPropertyDescriptor(TimeTools.prototype, 'now')!);
        Reflect.defineMetadata('design:paramtypes', [Clock], TimeTools);
        try {
          core.buildRegistry({ tools: [TimeTools] });
        } catch (error) {
          outcome = (error as Error).message;
        }
      });
    } finally {
      jest.dontMock('typedi');
    }
    expect(outcome).toContain(
      "TimeTools: the container cannot build this class: Toolwright: TimeTools's constructor takes parameters, and the default container builds those with typedi, which is not installed.",
    );
  });

  it('still fails loudly when typedi is installed but broken (only a missing typedi is forgiven)', () => {
    expect(() =>
      containerWhere(() => {
        throw new SyntaxError('Unexpected token in typedi');
      }),
    ).toThrow('Unexpected token in typedi');
  });
});

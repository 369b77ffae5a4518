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

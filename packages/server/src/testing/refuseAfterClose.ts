import { ToolwrightError } from '@toolwright/core';

type Method = (...args: unknown[]) => unknown;

/**
 * The test client as the test sees it: once its `close()` ran, every other method (`callTool`,
 * `listTools`, `readResource`, ... and the server's version and capabilities, which the SDK
 * forgets on close) fails with an error that says the client is closed and how to get another.
 * Without this guard, a call failed with the SDK's bare 'Not connected', and the list calls
 * answered an empty list. An async method rejects, any other throws; `close()` may run again.
 * Methods run on the client itself, never on the proxy, and keep their identity.
 */
export function refuseAfterClose<T extends object>(client: T): T {
  let closed = false;
  const guarded = new WeakMap<Method, Method>();
  const guard =
    (name: string, method: Method): Method =>
    (...args) => {
      if (name === 'close') closed = true;
      else if (closed) return refuse(name, method);
      return method.apply(client, args);
    };
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      let wrapped = guarded.get(value as Method);
      if (!wrapped) guarded.set(value as Method, (wrapped = guard(key, value as Method)));
      return wrapped;
    },
  });
}

function refuse(name: string, method: Method): Promise<never> {
  const error = new ToolwrightError(
    `createTestClient: ${name}() was called on a test client that is closed (its close() already ran), so nothing reaches the server. ` +
      'Make another client with createTestClient(app, options) (one per test, e.g. in beforeEach), and close each only when its test is done.',
  );
  if (method.constructor.name === 'AsyncFunction') return Promise.reject(error);
  throw error;
}

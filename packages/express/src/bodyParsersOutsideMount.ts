import type { Request } from 'express';

/** body-parser's middleware, by the name Express keeps for its layer. */
const PARSERS = new Map([
  ['jsonParser', 'express.json()'],
  ['urlencodedParser', 'express.urlencoded()'],
  ['textParser', 'express.text()'],
  ['rawParser', 'express.raw()'],
]);

interface StackLayer {
  readonly name?: unknown;
  readonly handle?: unknown;
  match?(path: string): unknown;
}

interface MountingApp {
  readonly router?: { readonly stack?: unknown };
  readonly parent?: MountingApp;
}

/**
 * The body parsers (as `express.json()`) that read a request to `path` in an app outside the
 * Router or sub-app the middleware is mounted in. Express hands an error only to the error
 * handlers of the stack it was raised in and of the apps around it, never into a Router or
 * sub-app mounted there: such a parser's refusals (bad JSON, too large) skip the middleware's
 * `errorHandler` and reach the app's own handlers instead. Empty when the middleware sits in the
 * app's own stack (`app.use(mcp)`) or the parsers sit beside it.
 */
export function bodyParsersOutsideMount(req: Request, errorHandler: unknown, path: string): string[] {
  const apps: MountingApp[] = [];
  for (let app = req.app as MountingApp | undefined; app && apps.length < 16; app = app.parent) apps.push(app);
  const outside = stackOf(apps[0]).some((layer) => layer.handle === errorHandler) ? apps.slice(1) : apps;
  return outside.flatMap((app) =>
    stackOf(app)
      .filter((layer) => typeof layer.name === 'string' && PARSERS.has(layer.name) && matches(layer, path))
      .map((layer) => PARSERS.get(layer.name as string)!),
  );
}

function stackOf(app: MountingApp | undefined): StackLayer[] {
  const stack = app?.router?.stack;
  return Array.isArray(stack) ? (stack as StackLayer[]) : [];
}

function matches(layer: StackLayer, path: string): boolean {
  try {
    return typeof layer.match === 'function' ? Boolean(layer.match(path)) : true;
  } catch {
    return true;
  }
}

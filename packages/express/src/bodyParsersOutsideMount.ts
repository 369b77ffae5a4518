import type { Request } from 'express';

/**
 * `express.json()`'s middleware, by the name Express keeps for its layer. The other body parsers
 * (`urlencoded()`, `text()`, `raw()`) read no `application/json` body with their default types,
 * so they cannot refuse an MCP request; a `type` option that makes them read one is kept in a
 * closure the layer does not show, so they are left out rather than guessed at.
 */
const PARSERS = new Map([['jsonParser', 'express.json()']]);

/** How deep Routers nest before the search gives up (a stack that holds itself ends there too). */
const MAX_DEPTH = 16;

interface StackLayer {
  readonly name?: unknown;
  readonly handle?: unknown;
  readonly rawPath?: unknown;
  readonly route?: { readonly stack?: unknown };
  match?(path: string): unknown;
}

interface MountingApp {
  readonly router?: { readonly stack?: unknown };
  readonly parent?: MountingApp;
  readonly mountpath?: unknown;
}

/** Where the search for a layer ended, in the stack it started from. */
interface Found {
  /** Parsers before the way down, in the stacks around the one holding the layer. */
  readonly around: string[];
  /** Parsers before the layer in its own stack. */
  readonly beside: string[];
  /** The path the layers past the found one see (Express strips a mount path from it). */
  readonly rest: string;
}

/**
 * The body parsers (as `express.json()`) that read a request to `path` before it reaches the
 * middleware, from a stack outside the Router or sub-app the middleware is mounted in. Express
 * hands an error only to the error handlers of the stack it was raised in and of the stacks
 * around it, never into a Router or sub-app mounted there: such a parser's refusals (bad JSON,
 * too large) skip the middleware's `errorHandler` and reach the app's own handlers instead.
 * Only layers before the one that leads to the middleware count (a parser registered after the
 * mount never runs first). Empty when the middleware sits in the app's own stack
 * (`app.use(mcp)`), when the parsers sit beside it, or when the way down is not found.
 */
export function bodyParsersOutsideMount(req: Request, errorHandler: unknown, path: string): string[] {
  const apps: MountingApp[] = [];
  for (let app = req.app as MountingApp | undefined; app && apps.length < MAX_DEPTH; app = app.parent) apps.unshift(app);
  const parsers: string[] = [];
  let rest = path;
  for (const [i, app] of apps.entries()) {
    const inner = apps[i + 1];
    const isTarget = inner ? (layer: StackLayer) => layer.name === 'mounted_app' && samePath(layer.rawPath, inner.mountpath) : (layer: StackLayer) => layer.handle === errorHandler;
    const found = findLayer(stackOf(app.router), rest, isTarget, false, 0);
    if (!found) return [];
    // A sub-app's parsers before it count; the middleware's own stack's parsers answer to its error handler.
    parsers.push(...found.around, ...(inner ? found.beside : []));
    rest = found.rest;
  }
  return parsers;
}

/**
 * The first layer of `stack`, or of a Router or route in it, that matches `path` and is the one
 * sought, with the parsers run before it. `inRoute`: the stack is a route's, whose layers match
 * by method, not by path.
 */
function findLayer(stack: StackLayer[], path: string, isTarget: (layer: StackLayer) => boolean, inRoute: boolean, depth: number): Found | undefined {
  const before: string[] = [];
  for (const layer of stack) {
    const matched = inRoute ? '' : matchedPath(layer, path);
    if (matched === undefined) continue;
    const rest = layer.route ? path : below(path, matched);
    if (isTarget(layer)) return { around: [], beside: before, rest };
    const inner = depth < MAX_DEPTH ? (layer.route ? stackOf(layer.route) : stackOf(layer.handle)) : [];
    const found = inner.length > 0 ? findLayer(inner, rest, isTarget, Boolean(layer.route), depth + 1) : undefined;
    // A pending error skips Routers and routes alike: parsers before the way down answer to the stacks around the middleware's.
    if (found) return { around: [...before, ...found.around], beside: found.beside, rest: found.rest };
    const parser = typeof layer.name === 'string' ? PARSERS.get(layer.name) : undefined;
    if (parser) before.push(parser);
  }
  return undefined;
}

function stackOf(holder: unknown): StackLayer[] {
  const stack = (holder as { readonly stack?: unknown } | undefined)?.stack;
  return Array.isArray(stack) ? (stack as StackLayer[]) : [];
}

/** The part of `path` the layer matched (`''` when it cannot tell), or undefined when it does not match. */
function matchedPath(layer: StackLayer, path: string): string | undefined {
  try {
    if (typeof layer.match !== 'function') return '';
    const match = layer.match(path) as { readonly path?: unknown } | false | undefined;
    if (!match) return undefined;
    return typeof match.path === 'string' ? match.path : '';
  } catch {
    return '';
  }
}

/** The path past a mount, as Express hands it on: the matched prefix removed, a leading slash kept. */
function below(path: string, matched: string): string {
  if (!path.startsWith(matched)) return path;
  const rest = path.slice(matched.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

function samePath(layerPath: unknown, mountpath: unknown): boolean {
  if (Array.isArray(mountpath)) return Array.isArray(layerPath) && String(layerPath.flat(Infinity)) === String(mountpath.flat(Infinity));
  return layerPath === mountpath || String(layerPath) === String(mountpath);
}

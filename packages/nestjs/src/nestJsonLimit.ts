import { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

/** How long the probe waits for the parser's answer (it refuses at once, before reading). */
const PROBE_MS = 1_000;

/**
 * The `maxBodyBytes` the endpoint plans with on Nest's Express platform, where a JSON body parser
 * (Nest's own, 100 kB unless `app.useBodyParser('json', { limit })` raised it, or `express.json()`
 * the app mounted) reads each body first and its limit applies too: a 2026-07-28 round's
 * `requestState` must fit the client's retry under both. `given` (`http.maxBodyBytes`, else the
 * endpoint's default) is lowered to the parser's limit, learnt at start from the first router
 * layer named `jsonParser` (body-parser's), handed a request that declares a body larger than any
 * limit: body-parser refuses it before reading a byte, its limit in the error. Without such a
 * parser (`bodyParser: false`), or when it does not say, `given` stands.
 */
export async function nestJsonLimit(instance: unknown, path: string, given: number): Promise<number> {
  const stack = (instance as { router?: { stack?: unknown } }).router?.stack;
  const parser = Array.isArray(stack) ? (stack as { name?: unknown; handle?: unknown }[]).find((layer) => layer.name === 'jsonParser') : undefined;
  if (typeof parser?.handle !== 'function') return given;
  const limit = await refusalLimit(parser.handle as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void, path);
  return limit !== undefined && limit < given ? limit : given;
}

async function refusalLimit(handle: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void, path: string): Promise<number | undefined> {
  const req = new IncomingMessage(new PassThrough() as never);
  req.method = 'POST';
  req.url = path;
  req.headers = { 'content-type': 'application/json', 'content-length': String(Number.MAX_SAFE_INTEGER) };
  return new Promise<number | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), PROBE_MS);
    try {
      handle(req, new ServerResponse(req), (error?: unknown) => {
        clearTimeout(timer);
        const limit = (error as { limit?: unknown } | undefined)?.limit;
        resolve(typeof limit === 'number' && limit > 0 ? limit : undefined);
      });
      // The parser waits for the refused request to end before it answers.
      req.push(null);
    } catch {
      clearTimeout(timer);
      resolve(undefined);
    }
  }).finally(() => req.destroy());
}

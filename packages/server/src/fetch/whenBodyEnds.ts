/** The callbacks of the responses `whenBodyEnds` made, so a second call adds to them instead of wrapping the body again. */
const watched = new WeakMap<Response, (() => void)[]>();

/**
 * The same response, whose body calls `done` once when it ends: read to the end, cancelled by
 * the client, or failed. A response without a body, or with a JSON one (the SDK makes those
 * whole, with `Response.json`), calls it at once and is returned as it is: wrapping a body in
 * a stream of our own costs a stream and a promise per chunk, paid on every JSON answer. Lets
 * a mode count an open SSE stream, and close a per-request server once its answer is out. A
 * response this function made already takes `done` as it is (one wrapper, however many watch it).
 */
export function whenBodyEnds(response: Response, done: () => void): Response {
  const callbacks = watched.get(response);
  if (callbacks) {
    callbacks.push(done);
    return response;
  }
  // The content type first: on workerd, reading `response.body` makes a stream object, which a JSON answer does not need.
  if (isJson(response.headers.get('content-type')) || !response.body) {
    done();
    return response;
  }
  const all = [done];
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    for (const callback of all) callback();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          once();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        controller.error(error);
        once();
      }
    },
    async cancel(reason) {
      once();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  watched.set(wrapped, all);
  return wrapped;
}

/** `application/json`, with or without parameters. */
function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/json\s*(?:;|$)/i.test(contentType);
}

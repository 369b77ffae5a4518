import { ToolwrightError } from '@toolwright/core';

/** What watches the body of a response `whenBodyEnds` made: the callbacks for its end, and its bound. */
interface Watch {
  readonly callbacks: (() => void)[];
  /** The body ended (read, cancelled or failed): a callback added now is called at once. */
  ended: boolean;
  /** The most bytes the client may leave unread before the next chunk drops the stream. */
  maxUnreadBytes: number;
}

/** The responses `whenBodyEnds` made, so a second call adds to their watch instead of wrapping the body again. */
const watched = new WeakMap<Response, Watch>();

/**
 * The same response, whose body calls `done` once when it ends: read to the end by the client,
 * cancelled by it, or failed. Lets a mode count an open SSE stream and close a per-request server
 * once its answer is out, and the handler count a POST until its answer is out.
 *
 * The body is taken from its source as it comes and held until the client reads it: when a chunk
 * comes while more than `maxUnreadBytes` wait unread, the stream fails (the runtime drops the
 * connection) and its source is cancelled, so the SDK stops writing to it, and a client that stops
 * reading costs that bound and one message, not every event of its call or session. One answer
 * larger than the bound still goes to a client that reads.
 *
 * A response without a body, or with a JSON one (the SDK makes those whole, with `Response.json`),
 * calls `done` at once and is returned as it is: a stream of our own costs a promise per chunk,
 * paid on every JSON answer. A response this function made takes `done` and the bound as they
 * are (the lower bound wins): one wrapper, however many watch it, since each costs a stream.
 */
export function whenBodyEnds(response: Response, done: (() => void) | undefined, maxUnreadBytes = Number.POSITIVE_INFINITY): Response {
  const watch = watched.get(response);
  if (watch) {
    if (done && watch.ended) done();
    else if (done) watch.callbacks.push(done);
    watch.maxUnreadBytes = Math.min(watch.maxUnreadBytes, maxUnreadBytes);
    return response;
  }
  // The content type first: on workerd, reading `response.body` makes a stream object, which a JSON answer does not need.
  if (isJson(response.headers.get('content-type')) || !response.body) {
    done?.();
    return response;
  }
  const own: Watch = { callbacks: done ? [done] : [], ended: false, maxUnreadBytes };
  const once = (): void => {
    if (own.ended) return;
    own.ended = true;
    for (const callback of own.callbacks) callback();
  };
  const reader = response.body.getReader();
  let sourceDone = false;
  /** Bytes enqueued and not yet read: the queue's high-water mark is 0, so its desired size is minus that. */
  const unread = (controller: ReadableStreamDefaultController<Uint8Array>): number => -(controller.desiredSize ?? 0);
  /** Closes the stream once the client has read everything before the end, then calls back. */
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (own.ended || unread(controller) > 0) return;
    controller.close();
    once();
  };
  const pump = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (own.ended) return;
        if (chunk.done) {
          sourceDone = true;
          return finish(controller);
        }
        if (unread(controller) > own.maxUnreadBytes) {
          controller.error(
            new ToolwrightError(
              `The client left more than ${own.maxUnreadBytes} bytes of this event stream unread, so the stream was dropped (maxBufferedBytes). A client that reads its streams is not affected; it may resume with Last-Event-ID.`,
            ),
          );
          once();
          await reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(chunk.value);
      }
    } catch (error) {
      if (own.ended) return;
      controller.error(error);
      once();
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        void pump(controller);
      },
      // Called when the client waits for more and nothing is queued: after the source's end, that is the end of the body.
      pull(controller) {
        if (sourceDone) finish(controller);
      },
      async cancel(reason) {
        once();
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  );
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  watched.set(wrapped, own);
  return wrapped;
}

/** `application/json`, with or without parameters. */
function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/json\s*(?:;|$)/i.test(contentType);
}

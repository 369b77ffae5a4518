import { UpstreamTooLargeError } from './UpstreamTooLargeError';

/**
 * Wraps the `fetch` of an upstream HTTP session so that no answer is read past `limit` bytes
 * in one message: a JSON answer in total, an event stream per line (the stream itself may last).
 * Past it the body fails with an UpstreamTooLargeError, and `tooLarge` runs once (the session
 * then ends: a request answered on an event stream would otherwise wait for its timeout).
 */
export function limitMessages(fetch: typeof globalThis.fetch, limit: number, tooLarge: (error: UpstreamTooLargeError) => void): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const perLine = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          let longest = 0;
          let start = 0;
          // Each line that ends in this chunk, the first one counted from where it began.
          for (let newline = perLine ? chunk.indexOf(10) : -1; newline !== -1; newline = chunk.indexOf(10, start)) {
            longest = Math.max(longest, size + newline - start);
            size = 0;
            start = newline + 1;
          }
          size += chunk.byteLength - start;
          if (Math.max(longest, size) <= limit) return controller.enqueue(chunk);
          const error = new UpstreamTooLargeError(limit);
          controller.error(error);
          tooLarge(error);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

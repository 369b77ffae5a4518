import type { FetchLike } from '@modelcontextprotocol/client';
import { ServerError } from '../cli/UsageError';
import { MAX_MESSAGE_SIZE, tooLargeMessage } from './messageLimit';

/** A `fetch` that refuses answers larger than MAX_MESSAGE_SIZE, and the error it refused with (set once). */
export interface LimitedFetch {
  readonly fetch: FetchLike;
  readonly failure: ServerError | undefined;
}

/**
 * `fetch` for talking to a server over HTTP that stops reading an answer once it passes `limit`
 * bytes (MAX_MESSAGE_SIZE): a JSON answer in total, an event stream per line (one message each,
 * the stream itself may last). The body then fails with a ServerError that says so.
 */
export function limitedFetch(shown: string, limit = MAX_MESSAGE_SIZE): LimitedFetch {
  let failure: ServerError | undefined;
  const fetchLimited: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body) return response;
    const perLine = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          let longest = 0;
          let start = 0;
          // Each line that ends in this chunk, the first one counted from where it began in earlier chunks.
          for (let newline = perLine ? chunk.indexOf(10) : -1; newline !== -1; newline = chunk.indexOf(10, start)) {
            longest = Math.max(longest, size + newline - start);
            size = 0;
            start = newline + 1;
          }
          size += chunk.byteLength - start;
          if (Math.max(longest, size) <= limit) return controller.enqueue(chunk);
          failure ??= new ServerError(tooLargeMessage(shown));
          controller.error(failure);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: fetchLimited,
    get failure() {
      return failure;
    },
  };
}

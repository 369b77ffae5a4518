import type { FetchLike } from '@modelcontextprotocol/client';
import { ServerError } from '../cli/UsageError';
import { JsonNesting, tooDeepMessage } from './JsonNesting';
import { MAX_MESSAGE_SIZE, tooLargeMessage } from './messageLimit';

/** A `fetch` that refuses answers larger than MAX_MESSAGE_SIZE, and the error it refused with (set once). */
export interface LimitedFetch {
  readonly fetch: FetchLike;
  readonly failure: ServerError | undefined;
}

/**
 * `fetch` for talking to a server over HTTP that stops reading an answer once it passes `limit`
 * bytes (MAX_MESSAGE_SIZE): a JSON answer in total, an event stream per line (one message each,
 * the stream itself may last); or once it nests deeper than MAX_MESSAGE_DEPTH (an event
 * stream's events each on their own). The body then fails with a ServerError that says so,
 * and `onRefused` hears it (a request waiting on an event stream the SDK then drops would
 * otherwise wait for its timeout).
 */
export function limitedFetch(shown: string, limit = MAX_MESSAGE_SIZE, onRefused?: (failure: ServerError) => void): LimitedFetch {
  let failure: ServerError | undefined;
  const fetchLimited: FetchLike = async (url, init) => {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      const why = unreachable(error);
      if (why !== undefined && init?.signal?.aborted !== true) failure ??= new ServerError(`Nothing answers at ${shown}: ${why}`);
      throw error;
    }
    if (!response.body) return response;
    const perLine = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    const nesting = new JsonNesting(undefined, perLine);
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
          if (Math.max(longest, size) > limit) failure ??= new ServerError(tooLargeMessage(shown));
          else if (!nesting.read(chunk)) failure ??= new ServerError(tooDeepMessage(shown));
          else return controller.enqueue(chunk);
          controller.error(failure);
          onRefused?.(failure);
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

/** Why `fetch` reached no server, with what to do, for the network errors a user can fix; undefined for others. */
function unreachable(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; hostname?: unknown; message?: unknown } } | null)?.cause;
  // The fetch standard blocks some ports (1, 6000, 10080...) whatever listens there.
  if (cause?.message === 'bad port') return 'fetch refuses to connect to this port (the fetch standard blocks it). Serve on another port, e.g. 3000.';
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return "the connection was refused. Start the server first (e.g. 'npm start' in its project), or check the host and port.";
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${typeof cause.hostname === 'string' ? `'${cause.hostname}' ` : ''}was not found. Check the URL.`;
    case 'ECONNRESET':
      return 'the connection was closed before an answer came. Check that the URL is an MCP endpoint and the server is healthy (its log may say why).';
    default:
      return undefined;
  }
}

import { ToolwrightError } from '@toolwright/core';

/**
 * The most bytes of an event stream a client may leave unread before the fetch handler drops
 * the stream, unless `maxBufferedBytes` says otherwise (the node listener's default too). A client
 * that stops reading costs this much, not every event a call or session sends it.
 */
export const MAX_UNREAD_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * The same response, whose `text/event-stream` body is taken from its source as it comes and
 * counted until the client reads it. Once more than `maxBytes` wait unread, the stream fails (the
 * runtime drops the connection) and its source is cancelled, so the SDK stops writing to it: the
 * client may resume with Last-Event-ID where the session keeps events. Any other response is
 * returned as it is.
 */
export function boundedEventStream(response: Response, maxBytes: number = MAX_UNREAD_EVENT_BYTES): Response {
  if (!response.body || !isEventStream(response.headers.get('content-type'))) return response;
  const reader = response.body.getReader();
  let ended = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        void (async () => {
          try {
            for (;;) {
              const chunk = await reader.read();
              if (ended) return;
              if (chunk.done) {
                ended = true;
                controller.close();
                return;
              }
              controller.enqueue(chunk.value);
              if ((controller.desiredSize ?? 0) < 0) {
                ended = true;
                controller.error(
                  new ToolwrightError(
                    `The client left more than ${maxBytes} bytes of this event stream unread, so the stream was dropped. A client that reads its streams is not affected; it may resume with Last-Event-ID.`,
                  ),
                );
                await reader.cancel().catch(() => undefined);
                return;
              }
            }
          } catch (error) {
            if (ended) return;
            ended = true;
            controller.error(error);
          }
        })();
      },
      async cancel(reason) {
        ended = true;
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxBytes }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** `text/event-stream`, with or without parameters. */
function isEventStream(contentType: string | null): boolean {
  return contentType !== null && /^text\/event-stream\s*(?:;|$)/i.test(contentType);
}

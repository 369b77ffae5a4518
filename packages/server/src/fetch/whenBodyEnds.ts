/**
 * The same response, whose body calls `done` once when it ends: read to the end, cancelled by
 * the client, or failed. A response without a body calls it at once. Lets a mode count an
 * open SSE stream, and close a per-request server once its answer is out.
 */
export function whenBodyEnds(response: Response, done: () => void): Response {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    done();
  };
  if (!response.body) {
    once();
    return response;
  }
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
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

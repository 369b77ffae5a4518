import 'reflect-metadata';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@toolwright/server/fetch';
import { connectInProcess } from './fixtures/connectInProcess';
import { Stoppable, workEvents as events } from './fixtures/stoppable.tools';
import { waitFor } from './fixtures/waitFor';

/**
 * The fetch handler's `close({ drainTimeoutMs })` with 2026-07-28 calls running, driven by the
 * SDK v2 client in process: a call that finishes within the drain gets its result and a new
 * request gets 503; a call still running when the drain timeout passes is answered with a
 * -32000 error naming the timeout (JSON answer, or a last event on its open stream), as on
 * stdio and the node listener, and its run is stopped.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const clientOf = (handler: FetchHandler) => connectInProcess(handler, '2026-07-28');

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('the fetch handler closing while 2026-07-28 calls run', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'slow', version: '1.0.0', tools: [Stoppable], logger: silent });
  });
  beforeEach(() => {
    events.length = 0;
  });

  it.each([
    { name: 'SSE answers', options: {} },
    { name: 'JSON answers', options: { jsonResponse: true } },
  ] as { name: string; options: FetchHandlerOptions }[])('$name: a call that finishes within the drain gets its result; a new request gets 503', async ({ options }) => {
    const handler = createFetchHandler(app, { ...options, logError: () => undefined });
    const client = await clientOf(handler);
    const running = client.callTool({ name: 'work', arguments: { ms: 150, progress: false } });
    await waitFor(() => events.includes('work starts'), 'the call to run');
    const closing = handler.close({ drainTimeoutMs: 10_000 });
    await expect(client.callTool({ name: 'work', arguments: { ms: 1, progress: false } })).rejects.toThrow(/503|shutting down/i);
    expect(textOf(await running)).toBe('worked 150 ms');
    await closing;
    // The refused request never ran.
    expect(events).toEqual(['work starts']);
  });

  it.each([
    { name: 'a JSON answer', options: { jsonResponse: true }, progress: false },
    { name: 'an answer not begun yet', options: {}, progress: false },
    { name: 'a stream already open (progress sent)', options: {}, progress: true },
  ] as { name: string; options: FetchHandlerOptions; progress: boolean }[])(
    '$name: a call still running at the drain timeout gets a -32000 error naming it, and its run stops',
    async ({ options, progress }) => {
      const handler = createFetchHandler(app, { ...options, logError: () => undefined });
      const client = await clientOf(handler);
      const progressed: number[] = [];
      const running = client.callTool({ name: 'work', arguments: { ms: 60_000, progress } }, progress ? { onprogress: (p) => void progressed.push(p.progress) } : undefined);
      const failure = running.then(
        () => undefined,
        (error: unknown) => error as { code?: number; message: string },
      );
      await waitFor(() => events.includes('work starts') && (!progress || progressed.length > 0), 'the call to run');
      await handler.close({ drainTimeoutMs: 200 });
      const error = await failure;
      expect(error).toMatchObject({ code: -32000 });
      expect(error?.message).toContain('did not finish within the drain timeout (200 ms)');
      await waitFor(() => events.includes('work stopped'), 'the abandoned run to be stopped');
    },
  );
});

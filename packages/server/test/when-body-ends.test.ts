import { whenBodyEnds } from '../src/fetch/whenBodyEnds';

/** The fetch handler's watch on a response body (the drain and a session's open requests both use it). */
describe('whenBodyEnds', () => {
  const stream = () => new Response(new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode('data')), c.close()) }));

  it('calls every watcher once when the body is read to its end, wrapping it once', async () => {
    const calls: string[] = [];
    const first = whenBodyEnds(stream(), () => void calls.push('drain'));
    const second = whenBodyEnds(first, () => void calls.push('session'));
    expect(second).toBe(first);
    expect(calls).toEqual([]);
    expect(await second.text()).toBe('data');
    expect(calls).toEqual(['drain', 'session']);
  });

  it('calls them when the client cancels the body, and at once for a response without one', async () => {
    const calls: string[] = [];
    const watched = whenBodyEnds(
      whenBodyEnds(stream(), () => void calls.push('a')),
      () => void calls.push('b'),
    );
    await watched.body!.cancel();
    expect(calls).toEqual(['a', 'b']);
    whenBodyEnds(new Response(null, { status: 202 }), () => void calls.push('empty'));
    expect(calls).toEqual(['a', 'b', 'empty']);
  });
});

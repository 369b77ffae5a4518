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

  it('calls them at once for a JSON answer, which the SDK makes whole, and hands that response on unwrapped', async () => {
    const calls: string[] = [];
    const json = Response.json({ jsonrpc: '2.0', id: 1, result: {} });
    expect(whenBodyEnds(json, () => void calls.push('json'))).toBe(json);
    const withCharset = new Response('{}', { headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(whenBodyEnds(withCharset, () => void calls.push('charset'))).toBe(withCharset);
    expect(calls).toEqual(['json', 'charset']);
    // Not JSON: an event stream (or any other body) is watched until it ends.
    const sse = new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } });
    const watched = whenBodyEnds(sse, () => void calls.push('sse'));
    expect(watched).not.toBe(sse);
    expect(calls).toEqual(['json', 'charset']);
    await watched.text();
    expect(calls).toEqual(['json', 'charset', 'sse']);
    const lookalike = new Response('{}', { headers: { 'content-type': 'application/jsonl' } });
    expect(whenBodyEnds(lookalike, () => void calls.push('jsonl'))).not.toBe(lookalike);
  });

  it('decides a JSON answer by its content type alone, without reading its body (on workerd that makes a stream object)', () => {
    let bodyRead = false;
    const bodyOf = Object.getOwnPropertyDescriptor(Response.prototype, 'body')!.get!;
    const calls: string[] = [];
    const json = new Response('{}', { headers: { 'content-type': 'application/json' } });
    Object.defineProperty(json, 'body', {
      get(this: Response) {
        bodyRead = true;
        return bodyOf.call(this) as ReadableStream<Uint8Array> | null;
      },
    });
    expect(whenBodyEnds(json, () => void calls.push('json'))).toBe(json);
    expect(calls).toEqual(['json']);
    expect(bodyRead).toBe(false);
  });

  it('calls a watcher added after the body ended at once', async () => {
    const calls: string[] = [];
    const empty = whenBodyEnds(new Response(new ReadableStream<Uint8Array>({ start: (c) => c.close() }), { headers: { 'content-type': 'text/event-stream' } }), () => void calls.push('first'));
    // The source has ended with nothing in it: the body ends without the client reading anything.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['first']);
    whenBodyEnds(empty, () => void calls.push('late'));
    expect(calls).toEqual(['first', 'late']);
  });

  it('drops a stream whose client leaves more than the bound unread, and still hands a reading client one chunk larger than it', async () => {
    const chunk = (size: number) => new Uint8Array(size).fill(97);
    const calls: string[] = [];
    const flood = whenBodyEnds(
      new Response(new ReadableStream<Uint8Array>({ start: (c) => [1, 2, 3, 4].forEach(() => c.enqueue(chunk(1000))) }), { headers: { 'content-type': 'text/event-stream' } }),
      () => void calls.push('flood'),
      1500,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['flood']);
    await expect(flood.text()).rejects.toThrow(/left more than 1500 bytes of this event stream unread/);
    const big = whenBodyEnds(
      new Response(new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(chunk(5000)), c.close()) }), { headers: { 'content-type': 'text/event-stream' } }),
      () => void calls.push('big'),
      1500,
    );
    expect((await big.text()).length).toBe(5000);
    expect(calls).toEqual(['flood', 'big']);
  });
});

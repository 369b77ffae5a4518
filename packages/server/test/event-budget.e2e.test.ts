import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { EventBudget, InMemoryEventStore } from '@toolwright/server/http';
import { openRawSession, post } from './fixtures/httpHelpers';

/**
 * Issue 31, item 10, in memory: the event stores kept for `Last-Event-ID` replay are bounded
 * in bytes, per session and for all sessions of an endpoint together, not only in count; a
 * session past a budget drops its own oldest events, never another session's.
 */
const note = (text: string) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: text } });
const MiB = 1024 * 1024;

describe('event stores are bounded in bytes (issue 31, item 10)', () => {
  it('keeps at most maxBytes of one session: older events fall out, and one bigger than that alone is not kept', async () => {
    const store = new InMemoryEventStore({ maxBytes: 4 * MiB });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await store.storeEvent('s', note('x'.repeat(MiB))));
    expect(await store.getStreamIdForEventId(ids[9])).toBe('s');
    expect(await store.getStreamIdForEventId(ids[6])).toBeUndefined();
    const kept = (await Promise.all(ids.map((id) => store.getStreamIdForEventId(id)))).filter(Boolean).length;
    expect(kept).toBe(3);
    const huge = await store.storeEvent('s', note('y'.repeat(5 * MiB)));
    expect(await store.getStreamIdForEventId(huge)).toBeUndefined();
  });

  it("shares a total among the sessions: the session going past it drops its own oldest, never another's", async () => {
    const budget = new EventBudget(3 * MiB);
    const quiet = new InMemoryEventStore({ budget });
    const noisy = new InMemoryEventStore({ budget });
    const kept = [await quiet.storeEvent('s', note('q'.repeat(MiB))), await quiet.storeEvent('s', note('q'.repeat(MiB)))];
    const noise: string[] = [];
    for (let i = 0; i < 5; i++) noise.push(await noisy.storeEvent('s', note('n'.repeat(MiB / 2))));
    for (const id of kept) expect(await quiet.getStreamIdForEventId(id)).toBe('s');
    expect(await noisy.getStreamIdForEventId(noise[4])).toBe('s');
    expect(await noisy.getStreamIdForEventId(noise[0])).toBeUndefined();
    expect(budget.used).toBeLessThanOrEqual(3 * MiB);
    // Closing a session gives its bytes back.
    quiet.close();
    noisy.close();
    expect(budget.used).toBe(0);
  });

  it('applies eventStoreLimits to the default stores of an HTTP endpoint: a big old event is gone, a recent one replays', async () => {
    class Big {
      @Tool({ description: 'Answers with `kb` kilobytes of text.' })
      big(@Param('kb', { type: () => Number }) kb: number) {
        return 'z'.repeat(kb * 1024);
      }
    }
    const app = await createApp({ name: 'budget', version: '1.0.0', tools: [Big] });
    const l = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, eventStoreLimits: { maxBytesPerSession: 100 * 1024 } });
    try {
      const session = await openRawSession(l.url);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const primingIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const call = await post(l.url, { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'big', arguments: { kb: 60 } } }, headers);
        primingIds.push([...(await call.text()).matchAll(/^id: (.+)$/gm)].map((m) => m[1])[0]);
      }
      const resume = (id: string) => fetch(l.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': id } });
      const old = await resume(primingIds[0]);
      expect(old.status).toBe(400);
      await old.text();
      const recent = await resume(primingIds[2]);
      expect(recent.status).toBe(200);
      const reader = recent.body!.getReader();
      let text = '';
      while (!text.includes('"id":3')) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`the replay ended without the third answer: ${text.slice(0, 200)}`);
        text += new TextDecoder().decode(chunk.value);
      }
      await reader.cancel();
    } finally {
      await l.close();
    }
  });
});

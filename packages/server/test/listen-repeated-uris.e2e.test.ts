import 'reflect-metadata';
import { Resource, UseGuards } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { MODERN } from './fixtures/eras';
import { post } from './fixtures/httpHelpers';
import { listenInMemory } from './fixtures/memoryStdio';

/**
 * A 2026-07-28 `subscriptions/listen` has each URI it names checked as a `resources/subscribe`
 * would (existence, scopes, guards). A URI named again is the same subscription: it is checked
 * once. It used to be checked as many times as it was named, so one request of about 1 MB naming
 * one URI 90,000 times held the event loop for seconds (measured: 2.8 s of CPU, against 60 ms).
 */
let checks = 0;
class Watched {
  @UseGuards(() => {
    checks++;
    return true;
  })
  @Resource('watched://status', { description: 'Its guard counts its checks.' })
  status() {
    return 'green';
  }
}

const REPEATS = 5_000;
const listenRequest = () =>
  MODERN.request({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: Array<string>(REPEATS).fill('watched://status') } } });

describe('subscriptions/listen naming one URI many times', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'repeated-uris', version: '1.0.0', tools: [Watched] });
  });
  beforeEach(() => {
    checks = 0;
  });

  it('checks the URI once over HTTP, and listens', async () => {
    const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    try {
      const request = listenRequest();
      const response = await post(listener.url, request, MODERN.headers(request));
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/subscriptions/acknowledged');
      await reader.cancel();
      expect(checks).toBe(1);
    } finally {
      await listener.close();
    }
  });

  it('checks the URI once over stdio, and listens', async () => {
    const stdio = await listenInMemory(app);
    try {
      stdio.send(listenRequest());
      for (let i = 0; i < 400 && !stdio.out.some((m) => m.method === 'notifications/subscriptions/acknowledged'); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(stdio.out.some((m) => m.method === 'notifications/subscriptions/acknowledged')).toBe(true);
      expect(checks).toBe(1);
    } finally {
      await stdio.close();
    }
  });
});

import 'reflect-metadata';
import { Param, Prompt, Resource } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { proxyServer, type ProxiedServer } from '@toolwright/server/proxy';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

const never = () => new Promise<string[]>(() => undefined);

class SlowLookups {
  @Prompt({ description: 'Plan a trip.' })
  plan(@Param('city', { complete: never }) city: string) {
    return `Plan a trip to ${city}.`;
  }

  @Resource('city://{name}')
  city(@Param('name', { complete: never }) name: string) {
    return name;
  }
}

describe('a completion provider that never answers', () => {
  // The app's timeoutMs failed a prompts/get in time, but completion/complete waited for the
  // provider for ever: the client gave up at its own request timeout with nothing to show.
  it("is answered with -32603 once the app's timeoutMs has passed, as prompts/get is, and the server keeps serving", async () => {
    const app = await createApp({ name: 'slow', version: '1.0.0', tools: [SlowLookups], timeoutMs: 50 });
    const client = await createTestClient(app);
    try {
      const failure = (promise: Promise<unknown>) =>
        promise.then(
          () => 'answered',
          (error: { code?: number; message: string }) => ({ code: error.code, message: error.message }),
        );
      const options = { timeout: 5_000 };
      expect(await failure(client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'city', value: 'Li' } }, options))).toEqual({
        code: -32603,
        message: "Completing argument 'city' of prompt 'plan' timed out after 50 ms.",
      });
      expect(await failure(client.complete({ ref: { type: 'ref/resource', uri: 'city://{name}' }, argument: { name: 'name', value: 'Li' } }, options))).toEqual({
        code: -32603,
        message: "Completing variable 'name' of resource template 'city://{name}' timed out after 50 ms.",
      });
      expect(await client.getPrompt({ name: 'plan', arguments: { city: 'Lisbon' } })).toMatchObject({ messages: [{ content: { text: 'Plan a trip to Lisbon.' } }] });
    } finally {
      await client.close();
    }
  });
});

describe("a completion provider's signal", () => {
  // The wait ended on timeout and on cancel, but the provider was never told: every abandoned
  // lookup (one per keystroke) ran on to its end.
  const runs: { signal: AbortSignal; abortedAtStart: boolean; reason?: unknown }[] = [];
  const started: (() => void)[] = [];
  class Lookups {
    @Prompt({ description: 'Plan a trip.' })
    plan(
      @Param('city', {
        complete: (_typed, { signal }) =>
          new Promise<string[]>((resolve) => {
            runs.push({ signal, abortedAtStart: signal.aborted });
            started.shift()?.();
            const done = setTimeout(() => resolve(['Lisbon']), 3_000);
            signal.addEventListener('abort', () => {
              clearTimeout(done);
              runs[runs.length - 1].reason = signal.reason;
              resolve([]);
            });
          }),
      })
      city: string,
    ) {
      return `Plan a trip to ${city}.`;
    }
  }
  const asked = { ref: { type: 'ref/prompt' as const, name: 'plan' }, argument: { name: 'city', value: 'Li' } };
  beforeEach(() => (runs.length = 0));

  it('is aborted when the timeout passes, so the provider can stop its lookup', async () => {
    const app = await createApp({ name: 'lookups', version: '1.0.0', tools: [Lookups], timeoutMs: 100 });
    const client = await createTestClient(app);
    try {
      const failed = await client.complete(asked, { timeout: 5_000 }).then(
        () => 'answered',
        (error: { code?: number }) => error.code,
      );
      expect(failed).toBe(-32603);
      expect(runs).toHaveLength(1);
      expect(runs[0].abortedAtStart).toBe(false);
      expect(runs[0].signal.aborted).toBe(true);
      expect((runs[0].reason as Error).name).toBe('TimeoutError');
    } finally {
      await client.close();
    }
  });

  it('lets a provider that throws once stopped (a fetch given the signal) end without an error in the log', async () => {
    class Fetching {
      @Prompt({ description: 'Plan a trip.' })
      plan(@Param('city', { complete: (_typed, { signal }) => new Promise<string[]>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))) }) city: string) {
        return `Plan a trip to ${city}.`;
      }
    }
    const errors: unknown[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => void errors.push(args) };
    const app = await createApp({ name: 'fetching', version: '1.0.0', tools: [Fetching], timeoutMs: 100, logger });
    const client = await createTestClient(app);
    try {
      const failed = await client.complete(asked, { timeout: 5_000 }).then(
        () => 'answered',
        (error: { code?: number; message: string }) => ({ code: error.code, message: error.message }),
      );
      expect(failed).toEqual({ code: -32603, message: "Completing argument 'city' of prompt 'plan' timed out after 100 ms." });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('is aborted when the client cancels the request', async () => {
    const app = await createApp({ name: 'lookups', version: '1.0.0', tools: [Lookups], timeoutMs: 10_000 });
    const client = await createTestClient(app);
    try {
      const cancel = new AbortController();
      const running = new Promise<void>((resolve) => started.push(resolve));
      const answer = client.complete(asked, { signal: cancel.signal, timeout: 5_000 }).then(
        () => 'answered',
        () => 'cancelled',
      );
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      expect(runs).toHaveLength(1);
      cancel.abort('the user typed on');
      expect(await answer).toBe('cancelled');
      for (const until = Date.now() + 2_000; !runs[0].signal.aborted && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(runs[0].signal.aborted).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('a completion provider that answers exactly at the timeout', () => {
  // Timers of the same delay fire in the order they were armed, whatever the delay: a short one races as well as a long one.
  const TIMEOUT = 20;
  class AtTheTimeout {
    @Prompt({ description: 'Plan a trip.' })
    plan(@Param('city', { complete: () => new Promise<string[]>((resolve) => setTimeout(() => resolve(['Lisbon']), TIMEOUT)) }) city: string) {
      return `Plan a trip to ${city}.`;
    }
  }

  // The timeout's timer is armed before the provider runs, so with the same delay it fires first.
  it('is answered with the timeout every time, once, and nothing is logged as its fault', async () => {
    const errors: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message: string) => void errors.push(message) };
    const app = await createApp({ name: 'edge', version: '1.0.0', tools: [AtTheTimeout], timeoutMs: TIMEOUT, logger });
    const client = await createTestClient(app);
    try {
      const outcomes = new Set<string>();
      for (let i = 0; i < 20; i++) {
        outcomes.add(
          await client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'city', value: 'Li' } }, { timeout: 5_000 }).then(
            (r) => `values ${r.completion.values.join()}`,
            (error: { code?: number }) => `error ${error.code}`,
          ),
        );
      }
      expect([...outcomes]).toEqual(['error -32603']);
      expect(errors.filter((line) => line.includes('completion provider'))).toEqual([]);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("a proxied template's completion", () => {
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const upstreamSignals: AbortSignal[] = [];
  /** Whether the upstream lookup waits (until its signal aborts) or answers at once. */
  let slow = true;
  /** The warnings and errors every app of this block logged. */
  const faults: string[] = [];
  const recording = (who: string) => ({ ...silent, warn: (m: string) => void faults.push(`${who} warn ${m}`), error: (m: string) => void faults.push(`${who} error ${m}`) });
  class Upstream {
    @Resource('up://items/{id}', { mimeType: 'text/plain' })
    item(
      @Param('id', {
        complete: (_typed: string, { signal }) =>
          new Promise<string[]>((resolve) => {
            upstreamSignals.push(signal);
            if (!slow) return resolve(['apple']);
            const done = setTimeout(() => resolve(['apple']), 10_000);
            signal.addEventListener('abort', () => {
              clearTimeout(done);
              resolve([]);
            });
          }),
      })
      id: string,
    ) {
      return `item ${id}`;
    }
  }

  let upstream: App;
  let listener: HttpListener;
  let proxy: ProxiedServer;
  beforeAll(async () => {
    upstream = await createApp({ name: 'upstream', version: '1.0.0', tools: [Upstream], logger: recording('upstream') });
    listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false });
    proxy = await proxyServer({ url: listener.url, name: 'up', logger: recording('proxy') });
  });
  afterAll(async () => {
    await proxy.stop();
    await listener.close();
  });

  // The proxy did not hand the downstream signal to its upstream request: the upstream lookup
  // ran on after the downstream request timed out, until the proxy's listTimeoutMs.
  beforeEach(() => {
    upstreamSignals.length = 0;
    faults.length = 0;
    slow = true;
  });

  it("stops the upstream's lookup when the downstream completion times out", async () => {
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }], timeoutMs: 200, logger: silent });
    const client = await createTestClient(front);
    try {
      const failed = await client.complete({ ref: { type: 'ref/resource', uri: 'up://items/{id}' }, argument: { name: 'id', value: 'a' } }, { timeout: 5_000 }).then(
        () => 'answered',
        (error: { code?: number }) => error.code,
      );
      expect(failed).toBe(-32603);
      expect(upstreamSignals).toHaveLength(1);
      await waitFor(() => upstreamSignals[0].aborted, "the upstream provider's signal to abort", { timeoutMs: 2_000 });
    } finally {
      await client.close();
    }
  }, 20_000);

  it.each(['legacy', 'modern'] as const)(
    "%s: stops the upstream's lookup when the downstream client cancels, logs no fault, and completes the next request",
    async (era) => {
      const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }], logger: recording('front') });
      const client = await createTestClient(front, { era });
      const ref = { type: 'ref/resource', uri: 'up://items/{id}' } as const;
      try {
        const controller = new AbortController();
        const asked = client.complete({ ref, argument: { name: 'id', value: 'a' } }, { signal: controller.signal, timeout: 5_000 }).then(
          () => 'answered',
          (error: Error) => error.message,
        );
        await waitFor(() => upstreamSignals.length === 1, 'the upstream lookup to start', { timeoutMs: 3_000 });
        controller.abort('user gave up');
        expect(await asked).toMatch(/user gave up|abort/i);
        await waitFor(() => upstreamSignals[0].aborted, "the upstream provider's signal to abort", { timeoutMs: 3_000 });
        slow = false;
        expect((await client.complete({ ref, argument: { name: 'id', value: 'a' } }, { timeout: 5_000 })).completion.values).toEqual(['apple']);
        expect(faults).toEqual([]);
      } finally {
        await client.close();
      }
    },
    20_000,
  );
});

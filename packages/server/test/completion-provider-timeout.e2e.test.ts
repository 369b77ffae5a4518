import 'reflect-metadata';
import { Param, Prompt, Resource } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

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
    const app = await createApp({ name: 'slow', version: '1.0.0', tools: [SlowLookups], timeoutMs: 200 });
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
        message: "Completing argument 'city' of prompt 'plan' timed out after 200 ms.",
      });
      expect(await failure(client.complete({ ref: { type: 'ref/resource', uri: 'city://{name}' }, argument: { name: 'name', value: 'Li' } }, options))).toEqual({
        code: -32603,
        message: "Completing variable 'name' of resource template 'city://{name}' timed out after 200 ms.",
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
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 2_000))]);
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

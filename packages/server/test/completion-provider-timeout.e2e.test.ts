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

/**
 * A service graph the call containers cannot build is refused with a message that names the
 * classes involved and what to change: a session-lifetime service that injects a request-lifetime
 * one, and a class whose constructor needs itself.
 */
import { Scoped, Tool, type ToolLogger } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

@Scoped('request')
class Lease {}

@Scoped('session')
class Cart {
  constructor(readonly lease: Lease) {}
}

@Scoped('request')
class CartTools {
  constructor(private readonly cart: Cart) {}
  @Tool({ description: 'Reads the cart.' })
  readCart() {
    return this.cart ? 'cart' : 'none';
  }
}

@Scoped('request')
class Loop {
  constructor(readonly again: Loop) {}
}

@Scoped('request')
class LoopTools {
  constructor(private readonly loop: Loop) {}
  @Tool({ description: 'Goes round.' })
  goRound() {
    return this.loop ? 'round' : 'none';
  }
}

/** What the call reports: its result's text and what the server logged. */
async function failureOf(tools: new (...args: never[]) => unknown, name: string): Promise<string> {
  const logged: string[] = [];
  const logger: ToolLogger = { debug() {}, info() {}, warn() {}, error: (message, error) => void logged.push(`${message} ${error instanceof Error ? error.message : String(error)}`) };
  const client = await createTestClient(await createApp({ name: 'scopes', version: '1', tools: [tools], logger }));
  try {
    const result = (await client.callTool({ name, arguments: {} })) as { isError?: boolean; content: { text?: string }[] };
    expect(result.isError).toBe(true);
    return `${result.content[0]?.text ?? ''}\n${logged.join('\n')}`;
  } finally {
    await client.close();
  }
}

describe('call container errors', () => {
  it('names the session-lifetime class that injects a request-lifetime one, and the fix', async () => {
    expect(await failureOf(CartTools, 'read_cart')).toContain(
      "Lease is @Scoped('request'), but Cart, a @Scoped('session') service, injects it, and would keep one request's instance for the whole session. Mark Cart @Scoped('request') too, or take Lease out of its constructor (inject it into the tool class instead).",
    );
  });

  it('names the cycle of constructors, and how to break it', async () => {
    expect(await failureOf(LoopTools, 'go_round')).toContain(
      'Loop depends on itself through constructors (Loop → Loop), so none of them can be built. Break the cycle: take one class of it out of the constructor that injects it, e.g. move what they share into a service of its own that each injects.',
    );
  });
});

import 'reflect-metadata';
import { ConfigError, Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * Composition fed hostile set-ups, checked through a real SDK client in memory in both eras:
 * an app mounted into itself, or into an app it already serves, is refused before anything is
 * served (each list change of one would change the other's without end), and the apps keep
 * serving what they served.
 */
class First {
  @Tool({ description: 'One tool.' })
  first() {
    return 'first';
  }
}
class Second {
  @Tool({ description: 'Another tool.' })
  second() {
    return 'second';
  }
}

const toolNames = async (app: App, protocol: '2025-11-25' | '2026-07-28') => {
  const client = await createTestClient(app, { protocol });
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
};

describe.each(['2025-11-25', '2026-07-28'] as const)('mount cycles over %s', (protocol) => {
  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => errors.mockRestore());

  it('refuses an app mounted into itself, and keeps serving its own tools', async () => {
    const app = await createApp({ name: 'self', version: '1', tools: [First] });
    const refused = await app.mount(app, { namespace: 'me' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(
      "Toolwright: mount[0].app (namespace 'me') is this app, or an app that already serves it through its own mounts: each would serve the other's members without end. Mount each app into one that does not serve it.",
    );
    expect(await toolNames(app, protocol)).toEqual(['first']);
    expect(errors).not.toHaveBeenCalled();
  });

  it('refuses a mount that closes a cycle (directly or through another app), and both apps keep serving', async () => {
    const inner = await createApp({ name: 'inner', version: '1', tools: [First] });
    const outer = await createApp({ name: 'outer', version: '1', tools: [Second], mount: [{ app: inner, namespace: 'in' }] });
    const top = await createApp({ name: 'top', version: '1', tools: [], mount: [{ app: outer, namespace: 'out' }] });
    await expect(inner.mount(outer, { namespace: 'out' })).rejects.toThrow(/an app that already serves it through its own mounts/);
    await expect(inner.mount({ app: top, namespace: 'top' })).rejects.toThrow(/mount\[0\]\.app \(namespace 'top'\)/);
    expect(await toolNames(inner, protocol)).toEqual(['first']);
    expect(await toolNames(outer, protocol)).toEqual(['second', 'in_first']);
    expect(await toolNames(top, protocol)).toEqual(['out_second', 'out_in_first']);
    expect(errors).not.toHaveBeenCalled();
    // A mount that closes no cycle is still served.
    await inner.mount(await createApp({ name: 'leaf', version: '1', tools: [Second] }), { namespace: 'leaf' });
    const served = ['out_second', 'out_in_first', 'out_in_leaf_second'];
    await waitFor(async () => JSON.stringify(await toolNames(top, protocol)) === JSON.stringify(served), 'the leaf tool in the top app');
  });
});

class Strict {
  @Tool({ description: 'Adds two numbers.' })
  add(@Param('a') a: number, @Param('b') b: number) {
    return a + b;
  }

  @Tool({ description: 'Always fails.' })
  boom(): string {
    throw new Error('db://admin:hunter2@10.0.0.5 refused');
  }
}

describe.each(['2025-11-25', '2026-07-28'] as const)('messages of a mounted tool over %s', (protocol) => {
  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => errors.mockRestore());

  it('name the tool as the client calls it: mounted, mounted twice, and renamed by a transform', async () => {
    const inner = await createApp({ name: 'inner', version: '1', tools: [Strict] });
    const middle = await createApp({ name: 'middle', version: '1', tools: [], mount: [{ app: inner, namespace: 'billing' }] });
    const top = await createApp({
      name: 'top',
      version: '1',
      tools: [],
      mount: [
        { app: middle, namespace: 'acme' },
        { app: inner, namespace: 'fin', transforms: { add: { name: 'sum' } } },
      ],
    });
    const client = await createTestClient(top, { protocol });
    try {
      const text = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
        expect(result.isError).toBe(true);
        return result.content[0]!.text;
      };
      expect(await text('acme_billing_add', { a: 'x', b: 1 })).toMatch(/^Invalid arguments for tool 'acme_billing_add':\n/);
      expect(await text('acme_billing_boom', {})).toBe("Tool 'acme_billing_boom' failed with an internal error. The server log has the details.");
      expect(await text('fin_sum', { a: 1 })).toMatch(/^Invalid arguments for tool 'fin_sum':\n/);
      expect(await text('fin_boom', {})).toBe("Tool 'fin_boom' failed with an internal error. The server log has the details.");
      // The mounted app itself still names its own.
      const own = await createTestClient(inner, { protocol });
      try {
        expect(((await own.callTool({ name: 'boom' })) as { content: { text: string }[] }).content[0]!.text).toBe("Tool 'boom' failed with an internal error. The server log has the details.");
      } finally {
        await own.close();
      }
    } finally {
      await client.close();
    }
  });
});

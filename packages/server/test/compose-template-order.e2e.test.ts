import 'reflect-metadata';
import { Param, Resource } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * Two different templates that match one URI: the parent's own are tried first, then each
 * mount's in the order of `mount` (the Composition guide), also after a template is added at
 * runtime or a mounted app's resources change, which serves its templates again.
 */
class Broad {
  @Resource('x://{+path}', { mimeType: 'text/plain' })
  any(@Param('path') path: string) {
    return `broad: ${path}`;
  }
}

class Narrow {
  @Resource('x://own/{id}', { mimeType: 'text/plain' })
  own(@Param('id') id: string) {
    return `narrow: ${id}`;
  }
}

class Static {
  @Resource('y://static', { mimeType: 'text/plain' })
  fixed() {
    return 'static';
  }
}

const textOf = (result: { contents: unknown[] }) => (result.contents[0] as { text?: string }).text;

describe('templates of mounted apps that match the same URI', () => {
  it("tries the parent's own template added at runtime before a broader mounted one", async () => {
    const broad = await createApp({ name: 'broad', version: '1.0.0', tools: [Broad] });
    const parent = await createApp({ name: 'parent', version: '1.0.0', tools: [], mount: [{ app: broad, namespace: 'b' }] });
    await parent.add(Narrow);
    const client = await createTestClient(parent);
    expect(textOf(await client.readResource({ uri: 'x://own/1' }))).toBe('narrow: 1');
    expect(textOf(await client.readResource({ uri: 'x://other/1' }))).toBe('broad: other/1');
    await client.close();
  });

  it('keeps the mount order after the first mounted app lists its resources again', async () => {
    const narrow = await createApp({ name: 'narrow', version: '1.0.0', tools: [Narrow] });
    const broad = await createApp({ name: 'broad', version: '1.0.0', tools: [Broad] });
    const parent = await createApp({
      name: 'parent',
      version: '1.0.0',
      tools: [],
      mount: [
        { app: narrow, namespace: 'n' },
        { app: broad, namespace: 'b' },
      ],
    });
    const client = await createTestClient(parent);
    expect(textOf(await client.readResource({ uri: 'x://own/1' }))).toBe('narrow: 1');
    // A change to its resources serves its templates again in the parent.
    await narrow.add(Static);
    await waitFor(async () => (await client.listResources()).resources.some((r) => r.uri === 'y://static'), "the mounted app's new resource");
    expect(textOf(await client.readResource({ uri: 'x://own/1' }))).toBe('narrow: 1');
    await client.close();
  });

  it('keeps the order through two mounts: the inner app serves its own before what it mounts', async () => {
    const broad = await createApp({ name: 'broad', version: '1.0.0', tools: [Broad] });
    const middle = await createApp({ name: 'middle', version: '1.0.0', tools: [], mount: [{ app: broad, namespace: 'b' }] });
    await middle.add(Narrow);
    const top = await createApp({ name: 'top', version: '1.0.0', tools: [], mount: [{ app: middle, namespace: 'm' }] });
    const client = await createTestClient(top);
    expect(textOf(await client.readResource({ uri: 'x://own/1' }))).toBe('narrow: 1');
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['x://own/{id}', 'x://{+path}']);
    await client.close();
  });
});

import 'reflect-metadata';
import { BuildError, buildRegistry, Ctx, Param, Resource, ResourceNotFoundError, type ToolContext } from '@toolwright/core';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';
import { useQuietClient } from './fixtures/useQuietClient';

const NOTES: Record<number, string> = { 1: 'first note', 2: 'second note' };

class LibraryResources {
  @Resource('config://app', {
    title: 'App config',
    description: 'The app configuration',
    mimeType: 'application/json',
    size: 13,
    annotations: { audience: ['assistant'], priority: 0.8 },
    icons: [{ src: 'https://example.com/c.png', mimeType: 'image/png' }],
  })
  config() {
    return { debug: false };
  }

  @Resource('file:///readme.txt', { mimeType: 'text/plain' })
  readme() {
    return 'Read me first.';
  }

  @Resource('file:///logo.png', { mimeType: 'image/png' })
  logo() {
    return Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  }

  @Resource('mem://several')
  several() {
    return [
      { text: 'a', mimeType: 'text/plain' },
      { uri: 'mem://several#2', blob: new Uint8Array([1, 2]) },
    ];
  }

  @Resource('notes://{id}', { description: 'A note by id', mimeType: 'text/plain' })
  note(@Param('id', { integer: true, minimum: 1 }) id: number) {
    if (!(id in NOTES)) throw new ResourceNotFoundError(`notes://${id}`, `There is no note ${id}.`);
    return `${typeof id}:${NOTES[id]}`;
  }

  @Resource('search://items{?q,limit}', { name: 'search' })
  search(@Param('q') q: string, @Param('limit', { integer: true, default: 10 }) limit: number, @Ctx() ctx: ToolContext) {
    return { q, limit, by: ctx.toolName };
  }

  @Resource('tree://{/path*}')
  tree(@Param('path', { type: () => [String] }) path: string[]) {
    return path.join('|');
  }

  @Resource('broken://thing')
  broken(): string {
    throw new Error('password=hunter2');
  }
}

describe('resources through a real SDK client (in memory)', () => {
  const suite = useQuietClient({ name: 'library', version: '1.0.0', tools: [LibraryResources] });

  it('declares resources with subscribe and listChanged, and completions for templates', () => {
    expect(suite.client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
  });

  it('lists static resources with every descriptor field', async () => {
    const { resources } = await suite.client.listResources();
    expect(resources).toEqual([
      {
        uri: 'config://app',
        name: 'config',
        title: 'App config',
        description: 'The app configuration',
        mimeType: 'application/json',
        size: 13,
        annotations: { audience: ['assistant'], priority: 0.8 },
        icons: [{ src: 'https://example.com/c.png', mimeType: 'image/png' }],
      },
      { uri: 'file:///readme.txt', name: 'readme', mimeType: 'text/plain' },
      { uri: 'file:///logo.png', name: 'logo', mimeType: 'image/png' },
      { uri: 'mem://several', name: 'several' },
      { uri: 'broken://thing', name: 'broken' },
    ]);
  });

  it('lists templates', async () => {
    const { resourceTemplates } = await suite.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      { uriTemplate: 'notes://{id}', name: 'note', description: 'A note by id', mimeType: 'text/plain' },
      { uriTemplate: 'search://items{?q,limit}', name: 'search' },
      { uriTemplate: 'tree://{/path*}', name: 'tree' },
    ]);
  });

  it('reads text, JSON and binary contents', async () => {
    expect(await suite.client.readResource({ uri: 'file:///readme.txt' })).toEqual({ contents: [{ uri: 'file:///readme.txt', mimeType: 'text/plain', text: 'Read me first.' }] });
    expect(await suite.client.readResource({ uri: 'config://app' })).toEqual({ contents: [{ uri: 'config://app', mimeType: 'application/json', text: '{"debug":false}' }] });
    expect(await suite.client.readResource({ uri: 'file:///logo.png' })).toEqual({ contents: [{ uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw==' }] });
    expect(await suite.client.readResource({ uri: 'mem://several' })).toEqual({
      contents: [
        { uri: 'mem://several', mimeType: 'text/plain', text: 'a' },
        { uri: 'mem://several#2', blob: 'AQI=' },
      ],
    });
  });

  it('binds template variables to typed, validated parameters', async () => {
    expect(await suite.client.readResource({ uri: 'notes://2' })).toEqual({ contents: [{ uri: 'notes://2', mimeType: 'text/plain', text: 'number:second note' }] });
    const search = await suite.client.readResource({ uri: 'search://items?q=tea&limit=3' });
    expect(JSON.parse((search.contents[0] as { text: string }).text)).toEqual({ q: 'tea', limit: 3, by: 'search' });
    const defaulted = await suite.client.readResource({ uri: 'search://items?q=tea' });
    expect(JSON.parse((defaulted.contents[0] as { text: string }).text)).toEqual({ q: 'tea', limit: 10, by: 'search' });
    expect(((await suite.client.readResource({ uri: 'tree:///a/b%20c/d' })).contents[0] as { text: string }).text).toBe('a|b c|d');
  });

  it('answers invalid variables with -32602 naming the field', async () => {
    await expect(suite.client.readResource({ uri: 'notes://abc' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid arguments for resource template 'note':\n- id: must be an integer"),
    });
    await expect(suite.client.readResource({ uri: 'search://items' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('- q: is required') });
  });

  it('answers an unknown URI with -32602 (SDK v2 sends resource-not-found so in every era) and the uri in data', async () => {
    await expect(suite.client.readResource({ uri: 'nope://x' })).rejects.toMatchObject({ code: -32602, data: { uri: 'nope://x' }, message: expect.stringContaining('Resource not found: nope://x') });
  });

  it('lets a template method say the resource does not exist (-32602)', async () => {
    await expect(suite.client.readResource({ uri: 'notes://7' })).rejects.toMatchObject({ code: -32602, data: { uri: 'notes://7' }, message: expect.stringContaining('There is no note 7.') });
  });

  // Issue 30 #8: the docs said -32002. The SDK answers resource-not-found with -32602 (2026-07-28's code) in both eras; the docs now say so per era.
  it.each(['2025-11-25', '2026-07-28'] as const)('answers ResourceNotFoundError and an unknown URI with -32602 and the URI, over %s', async (protocol) => {
    const other = await createTestClient(suite.app, { protocol });
    try {
      await expect(other.readResource({ uri: 'notes://7' })).rejects.toMatchObject({ code: -32602, data: { uri: 'notes://7' }, message: expect.stringContaining('There is no note 7.') });
      await expect(other.readResource({ uri: 'nope://x' })).rejects.toMatchObject({ code: -32602, data: { uri: 'nope://x' } });
    } finally {
      await other.close();
    }
  });

  it('hides unexpected errors behind -32603 and logs them to stderr', async () => {
    const error = await suite.client.readResource({ uri: 'broken://thing' }).catch((e: unknown) => e as { code: number; message: string });
    expect(error).toMatchObject({ code: -32603 });
    expect(JSON.stringify(error)).not.toContain('hunter2');
    expect(suite.stderr.mock.calls.join('')).toContain('hunter2');
  });

  it('sends resources/updated only to subscribers of that URI', async () => {
    const other = await createTestClient(suite.app);
    const mine: string[] = [];
    const theirs: string[] = [];
    suite.client.setNotificationHandler('notifications/resources/updated', (n) => void mine.push(n.params.uri));
    other.setNotificationHandler('notifications/resources/updated', (n) => void theirs.push(n.params.uri));
    await suite.client.subscribeResource({ uri: 'notes://1' });
    await other.subscribeResource({ uri: 'config://app' });

    expect(suite.app.notifyResourceUpdated('notes://1')).toBe(1);
    expect(suite.app.notifyResourceUpdated('file:///readme.txt')).toBe(0);
    await waitFor(() => mine.length > 0, 'the update');
    await other.ping(); // a round trip: an update sent to `other` before it would have arrived
    expect(mine).toEqual(['notes://1']);
    expect(theirs).toEqual([]);

    await suite.client.unsubscribeResource({ uri: 'notes://1' });
    expect(suite.app.notifyResourceUpdated('notes://1')).toBe(0);
    await expect(suite.client.subscribeResource({ uri: 'nope://x' })).rejects.toMatchObject({ code: -32602 });
    await other.close();
    // The server drops the closed connection's subscription when it sees the close.
    await waitFor(() => suite.app.notifyResourceUpdated('config://app') === 0, 'the closed subscription to go');
  });
});

describe('resource build errors', () => {
  it('reports every problem at once with where and how to fix', () => {
    class Bad {
      @Resource('notes://{id}') wrongName(@Param('nid') nid: string) {
        return nid;
      }
      @Resource('static://x') staticWithParam(@Param('id') id: string) {
        return id;
      }
      @Resource('no-scheme') noScheme() {
        return '';
      }
      @Resource('dup://x') one() {
        return '';
      }
      @Resource('dup://x') two() {
        return '';
      }
      @Resource('bad://{a') unbalanced() {
        return '';
      }
    }
    let error: BuildError | undefined;
    try {
      buildRegistry({ tools: [Bad] });
    } catch (e) {
      error = e as BuildError;
    }
    expect(error).toBeInstanceOf(BuildError);
    expect(error!.problems.map((p) => `${p.where}: ${p.what}`)).toEqual([
      "Bad.wrongName: has @Param 'nid', but its template 'notes://{id}' has no variable of that name",
      "Bad.staticWithParam: has @Param 'id', but its URI 'static://x' is not a template",
      "Bad.noScheme: its URI 'no-scheme' has no scheme",
      "Bad.two: its URI 'dup://x' is already used by Bad.one",
      "Bad.unbalanced: its URI template 'bad://{a' is invalid: it has an unbalanced brace",
    ]);
  });
});

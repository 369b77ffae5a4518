import { Param, Prompt, RequireScopes, Resource, type AuthInfo } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { attachAuthInfo } from '../src/sdk/attachAuthInfo';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

class Handbook {
  @Resource('handbook://public', { description: 'Open to all' })
  open() {
    return 'welcome';
  }

  @RequireScopes('handbook:read')
  @Resource('handbook://salaries', { description: 'Restricted' })
  salaries() {
    return 'secret figures';
  }

  @RequireScopes('handbook:read')
  @Resource('handbook://people/{id}', { description: 'One person' })
  person(@Param('id', { complete: () => ['ann', 'bob'] }) id: string) {
    return `person ${id}`;
  }

  @Prompt({ description: 'Open prompt' })
  greet() {
    return 'Hello';
  }

  @RequireScopes('handbook:write')
  @Prompt({ description: 'Restricted prompt' })
  review(@Param('who', { complete: () => ['ann'] }) who: string) {
    return `Review ${who}`;
  }
}

/** An in-memory connection whose every message carries `auth`, as over stdio with an auth provider or over HTTP with a bearer token. */
async function connectAs(app: App, auth: AuthInfo | undefined): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  if (auth) attachAuthInfo(serverSide, auth);
  const client = new Client({ name: 'auth-members', version: '1' });
  await client.connect(clientSide);
  return client;
}

const reader: AuthInfo = { token: 't1', clientId: 'reader', scopes: ['handbook:read'] };

describe('authorization rules on resources and prompts', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'handbook', version: '1', tools: [Handbook] });
  });

  it('hides what a caller may not use from the lists', async () => {
    const anonymous = await connectAs(app, undefined);
    expect((await anonymous.listResources()).resources.map((r) => r.uri)).toEqual(['handbook://public']);
    expect((await anonymous.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await anonymous.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);

    const withScope = await connectAs(app, reader);
    expect((await withScope.listResources()).resources.map((r) => r.uri)).toEqual(['handbook://public', 'handbook://salaries']);
    expect((await withScope.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['handbook://people/{id}']);
    expect((await withScope.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    await Promise.all([anonymous.close(), withScope.close()]);
  });

  it('refuses reads, subscriptions, prompts and completions as for members that do not exist', async () => {
    const client = await connectAs(app, { ...reader, scopes: [] });
    const answer = (read: Promise<unknown>) =>
      read.then(
        () => 'served',
        (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
      );
    // Each answer is the one for a URI nothing serves, but for the URI.
    expect(await answer(client.readResource({ uri: 'handbook://salaries' }))).toEqual(
      await answer(client.readResource({ uri: 'handbook://nope' })).then((a) => JSON.parse(JSON.stringify(a).replaceAll('handbook://nope', 'handbook://salaries'))),
    );
    expect(await answer(client.readResource({ uri: 'handbook://people/ann' }))).toEqual(
      await answer(client.readResource({ uri: 'handbook://nope' })).then((a) => JSON.parse(JSON.stringify(a).replaceAll('handbook://nope', 'handbook://people/ann'))),
    );
    expect(await answer(client.subscribeResource({ uri: 'handbook://salaries' }))).toEqual(
      await answer(client.subscribeResource({ uri: 'handbook://nope' })).then((a) => JSON.parse(JSON.stringify(a).replaceAll('handbook://nope', 'handbook://salaries'))),
    );
    await expect(client.getPrompt({ name: 'review', arguments: { who: 'ann' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown prompt 'review'."),
    });
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'who', value: '' } })).rejects.toMatchObject({ code: -32602 });
    await expect(client.complete({ ref: { type: 'ref/resource', uri: 'handbook://people/{id}' }, argument: { name: 'id', value: '' } })).rejects.toMatchObject({ code: -32602 });
    expect((await client.readResource({ uri: 'handbook://public' })).contents[0]).toMatchObject({ text: 'welcome' });
    await client.close();
  });

  it('serves callers who hold the scopes', async () => {
    const client = await connectAs(app, reader);
    expect((await client.readResource({ uri: 'handbook://salaries' })).contents[0]).toMatchObject({ text: 'secret figures' });
    expect((await client.readResource({ uri: 'handbook://people/bob' })).contents[0]).toMatchObject({ text: 'person bob' });
    expect((await client.complete({ ref: { type: 'ref/resource', uri: 'handbook://people/{id}' }, argument: { name: 'id', value: '' } })).completion.values).toEqual(['ann', 'bob']);
    await client.close();
    const writer = await connectAs(app, { ...reader, scopes: ['handbook:write'] });
    expect((await writer.getPrompt({ name: 'review', arguments: { who: 'ann' } })).messages[0].content).toEqual({ type: 'text', text: 'Review ann' });
    await writer.close();
  });
});

import 'reflect-metadata';
import { Param, Prompt, Resource, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * A parent's own switches of a mounted member, as the parent's clients see them (SDK v2 client
 * in memory, both eras): a member the parent disabled stays disabled, and one it removed stays
 * removed, whatever the mounted app changes later; a member the mounted app disabled is not
 * served by the parent's `enable`. A member is served only while both apps allow it. A mounted
 * member that clashes with one of the parent's is logged once while the clash lasts.
 */
class Child {
  @Tool({ description: 'Echo a word.' })
  echo(@Param('word') word: string) {
    return `echo ${word}`;
  }
  @Tool({ description: 'Another tool, switched on and off to change the list.' })
  spare() {
    return 'spare';
  }
  @Resource('c://doc')
  doc() {
    return 'doc';
  }
  @Resource('c://note')
  note() {
    return 'note';
  }
  @Resource('c://spare')
  spareResource() {
    return 'spare';
  }
  @Resource('c://items/{id}')
  item(@Param('id') id: string) {
    return `item ${id}`;
  }
  @Prompt({ description: 'Greet.' })
  greet() {
    return 'hello';
  }
  @Prompt({ description: 'Say goodbye.' })
  bye() {
    return 'goodbye';
  }
  @Prompt({ name: 'spare', description: 'Another prompt.' })
  sparePrompt() {
    return 'spare';
  }
}

class ChildLate {
  @Tool({ description: 'Added by the mounted app while the parent serves.' })
  late() {
    return 'mounted late';
  }
}

class ParentLate {
  @Tool({ name: 'c_late', description: "The parent's own, under a name the mount would take." })
  late() {
    return 'parent late';
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every list and read goes to the server (a 2026-07-28 client would otherwise answer from its cache until it hears of the change). */
const FRESH = { cacheMode: 'bypass' } as const;

/** How long a list change takes to reach the parent (both apps debounce 1 ms). */
const SETTLE_MS = 40;

async function apps() {
  const logged: string[] = [];
  const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: (message: string) => void logged.push(message) };
  const child = await createApp({ name: 'child', version: '1', tools: [Child], listChangedDebounceMs: 1 });
  const parent = await createApp({ name: 'p', version: '1', tools: [], listChangedDebounceMs: 1, logger, mount: [{ app: child, namespace: 'c' }] });
  return { child, parent, logged };
}

describe.each(['2025-11-25', '2026-07-28'] as const)("a parent's switches of mounted members, over %s", (protocol) => {
  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => errors.mockRestore());

  it('a tool the parent disabled stays disabled through the mounted app changes, until the parent enables it', async () => {
    const { child, parent, logged } = await apps();
    const client = await createTestClient(parent, { protocol });
    try {
      const tools = async () => (await client.listTools(undefined, FRESH)).tools.map((t) => t.name).sort();
      const echo = async () => (await client.callTool({ name: 'c_echo', arguments: { word: 'hi' } })).content;
      expect(parent.tools.disable('c_echo')).toBe(true);
      expect(await tools()).toEqual(['c_spare']);
      // The mounted app's tools change: the parent's switch-off holds.
      child.tools.disable('spare');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual([]);
      await expect(echo()).rejects.toThrow(/c_echo/);
      child.tools.enable('spare');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual(['c_spare']);
      await expect(echo()).rejects.toThrow(/c_echo/);
      // It holds while the mounted app disables the tool itself and enables it again.
      child.tools.disable('echo');
      await pause(SETTLE_MS);
      child.tools.enable('echo');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual(['c_spare']);
      await expect(echo()).rejects.toThrow(/c_echo/);
      // The parent enables it: served, and still served after the next change.
      expect(parent.tools.enable('c_echo')).toBe(true);
      expect(await echo()).toEqual([{ type: 'text', text: 'echo hi' }]);
      child.tools.disable('spare');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual(['c_echo']);
      expect(await echo()).toEqual([{ type: 'text', text: 'echo hi' }]);
      expect(logged).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("a tool the mounted app disabled is not served by the parent's enable; it is served again when the mounted app enables it", async () => {
    const { child, parent } = await apps();
    const client = await createTestClient(parent, { protocol });
    try {
      const tools = async () => (await client.listTools(undefined, FRESH)).tools.map((t) => t.name).sort();
      child.tools.disable('echo');
      await pause(SETTLE_MS);
      expect(parent.tools.enable('c_echo')).toBe(false);
      expect(await tools()).toEqual(['c_spare']);
      await expect(client.callTool({ name: 'c_echo', arguments: { word: 'hi' } })).rejects.toThrow(/c_echo/);
      child.tools.enable('echo');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual(['c_echo', 'c_spare']);
    } finally {
      await client.close();
    }
  });

  it("the parent's enable while the mounted app has the tool disabled does not undo the parent's own disable: the parent enables it again once the mounted app serves it", async () => {
    const { child, parent } = await apps();
    const client = await createTestClient(parent, { protocol });
    try {
      const tools = async () => (await client.listTools(undefined, FRESH)).tools.map((t) => t.name).sort();
      expect(parent.tools.disable('c_echo')).toBe(true);
      child.tools.disable('echo');
      await pause(SETTLE_MS);
      expect(parent.tools.enable('c_echo')).toBe(false);
      child.tools.enable('echo');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual(['c_spare']);
      expect(parent.tools.enable('c_echo')).toBe(true);
      expect(await tools()).toEqual(['c_echo', 'c_spare']);
    } finally {
      await client.close();
    }
  });

  it('a tool the parent removed does not come back with the mounted app changes', async () => {
    const { child, parent, logged } = await apps();
    const client = await createTestClient(parent, { protocol });
    try {
      const tools = async () => (await client.listTools(undefined, FRESH)).tools.map((t) => t.name).sort();
      expect(parent.tools.remove('c_echo')).toBe(true);
      child.tools.disable('spare');
      await pause(SETTLE_MS);
      child.tools.disable('echo');
      child.tools.enable('spare');
      await pause(SETTLE_MS);
      child.tools.enable('echo');
      await pause(SETTLE_MS);
      expect(await tools()).toEqual(['c_spare']);
      await expect(client.callTool({ name: 'c_echo', arguments: { word: 'hi' } })).rejects.toThrow(/c_echo/);
      expect(parent.tools.enable('c_echo')).toBe(false);
      expect(logged).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('resources, templates and prompts the parent disabled or removed stay so through the mounted app changes', async () => {
    const { child, parent, logged } = await apps();
    const client = await createTestClient(parent, { protocol });
    try {
      const resources = async () => (await client.listResources(undefined, FRESH)).resources.map((r) => r.uri).sort();
      const templates = async () => (await client.listResourceTemplates(undefined, FRESH)).resourceTemplates.map((t) => t.uriTemplate);
      const prompts = async () => (await client.listPrompts(undefined, FRESH)).prompts.map((p) => p.name).sort();
      expect(parent.resources.disable('c://doc')).toBe(true);
      expect(parent.resources.disable('c://items/{id}')).toBe(true);
      expect(parent.resources.remove('c://note')).toBe(true);
      expect(parent.prompts.disable('c_greet')).toBe(true);
      expect(parent.prompts.remove('c_bye')).toBe(true);
      // The mounted app's resources and prompts change.
      child.resources.disable('c://spare');
      child.prompts.disable('spare');
      await pause(SETTLE_MS);
      expect(await resources()).toEqual([]);
      expect(await templates()).toEqual([]);
      expect(await prompts()).toEqual([]);
      for (const uri of ['c://doc', 'c://note', 'c://items/7']) await expect(client.readResource({ uri }, FRESH)).rejects.toThrow(/c:\/\//);
      for (const name of ['c_greet', 'c_bye']) await expect(client.getPrompt({ name })).rejects.toThrow(new RegExp(name));
      // The parent enables the ones it disabled: served, and still served after the next change.
      expect(parent.resources.enable('c://doc')).toBe(true);
      expect(parent.resources.enable('c://items/{id}')).toBe(true);
      expect(parent.prompts.enable('c_greet')).toBe(true);
      expect(parent.resources.enable('c://note')).toBe(false);
      expect(parent.prompts.enable('c_bye')).toBe(false);
      child.resources.enable('c://spare');
      child.prompts.enable('spare');
      await pause(SETTLE_MS);
      expect(await resources()).toEqual(['c://doc', 'c://spare']);
      expect(await templates()).toEqual(['c://items/{id}']);
      expect(await prompts()).toEqual(['c_greet', 'c_spare']);
      expect((await client.readResource({ uri: 'c://items/7' }, FRESH)).contents.map((c) => ('text' in c ? c.text : ''))).toEqual(['item 7']);
      expect(logged).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a mounted tool that clashes with one the parent added is logged once while the clash lasts, and served once it ends', async () => {
    const { child, parent, logged } = await apps();
    const client = await createTestClient(parent, { protocol });
    try {
      const late = async () => (await client.callTool({ name: 'c_late' })).content;
      await parent.add(ParentLate);
      await child.add(ChildLate);
      await pause(SETTLE_MS);
      for (let i = 0; i < 3; i++) {
        child.tools.disable('spare');
        await pause(SETTLE_MS);
        child.tools.enable('spare');
        await pause(SETTLE_MS);
      }
      const clash = "mount 'c': Toolwright: cannot add tool 'c_late': already served. Remove the old one first, or rename the new one.";
      expect(logged).toEqual([clash]);
      expect(await late()).toEqual([{ type: 'text', text: 'parent late' }]);
      // The parent's own goes: the mounted one is served from the next change on.
      expect(parent.tools.remove('c_late')).toBe(true);
      child.tools.disable('spare');
      await pause(SETTLE_MS);
      expect(await late()).toEqual([{ type: 'text', text: 'mounted late' }]);
      expect(logged).toEqual([clash]);
    } finally {
      await client.close();
    }
  });
});

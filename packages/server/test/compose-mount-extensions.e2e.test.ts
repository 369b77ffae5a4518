import 'reflect-metadata';
import { join } from 'node:path';
import { BuildError, Param, Tool, UI_EXTENSION, UiResource } from '@toolwright/core';
import { apps, createApp, defineExtension, skills, tasks, TASKS_EXTENSION_ID, type App, type Extension } from '@toolwright/server';
import { createTaskClient, createTestClient, toolText } from '@toolwright/server/testing';
import { codeOf } from './fixtures/codeOf';
import { openModern } from './fixtures/modernRequest';
import { waitFor } from './fixtures/waitFor';

/**
 * A mount brings members, not extensions: the parent's extensions serve its clients for every
 * member it serves. A tool declared `@Tool({ task: 'required' })` runs only as a task, which only
 * the tasks extension runs, so a parent that does not serve `tasks()` refuses to mount one (its
 * calls would run as plain calls, which the tasks extension forbids): with `mount`, with
 * `app.mount()` before and while it serves, through two mounts, and when a mounted app adds one
 * while the parent serves (logged and left out). A parent that serves `tasks()` runs the mounted
 * tool as a task; members that need no extension mount as before. Driven by the SDK v2 client in
 * memory in both eras, and the test kit's task client (the 2026-07-28 wire).
 */
const ran: string[] = [];

class Exports {
  @Tool({ description: 'Exports everything (only as a task).', task: 'required' })
  exportAll() {
    ran.push('export_all');
    return 'exported';
  }
}

class Reports {
  @Tool({ description: 'Builds a report (a task when the client declared tasks).', task: 'optional' })
  report() {
    ran.push('report');
    return 'reported';
  }

  @Tool({ description: 'Says hello.' })
  hello() {
    return 'hello';
  }
}

class Views {
  @UiResource('ui://ledger')
  ledger() {
    return '<html><body>ledger</body></html>';
  }

  @Tool({ description: 'Shows the ledger.', ui: { resource: 'ui://ledger' } })
  show() {
    return 'shown';
  }

  @Tool({ description: 'Refreshes the view (called by the view only).', ui: { resource: 'ui://ledger', visibility: ['app'] } })
  refresh() {
    return 'refreshed';
  }

  @Tool({ description: 'Runs in one region.' })
  inRegion(@Param('region', { header: 'Region' }) region: string) {
    return `ran in ${region}`;
  }
}

const ERAS = ['2025-11-25', '2026-07-28'] as const;
const declaring = { extensions: { [TASKS_EXTENSION_ID]: {} } };
const JSON_RESULT = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** The tool names `app` lists to a client of `protocol`. */
async function toolNames(app: App, protocol: (typeof ERAS)[number]): Promise<string[]> {
  const client = await createTestClient(app, { protocol });
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

/** What `createApp` or `mount` threw (or undefined). */
async function refusal(work: () => Promise<unknown>): Promise<BuildError> {
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BuildError);
  return error as BuildError;
}

/** The one problem of a refused required task tool, as the build reports it. */
function expectTasksProblem(error: BuildError, tool: string, whose: string): void {
  expect(error.problems).toEqual([
    {
      where: `tool '${tool}'`,
      what: expect.stringContaining(`(${whose}) runs only as a task (@Tool({ task: 'required' })), and this app does not serve the tasks extension ('${TASKS_EXTENSION_ID}')`),
      fix: expect.stringContaining("add `tasks()` to this app's `extensions`"),
    },
  ]);
}

beforeEach(() => {
  ran.length = 0;
});

describe("a parent that does not serve tasks() refuses a mounted task: 'required' tool", () => {
  it('mounted with the `mount` option, though the mounted app serves tasks() itself, naming the tool, the mount and the extension', async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports], extensions: [tasks()] });
    const error = await refusal(() => createApp({ name: 'front', version: '1', tools: [Reports], mount: [{ app: inner, namespace: 'data' }] }));
    expectTasksProblem(error, 'data_export_all', "mount 'data', app 'exporter'");
    expect(error.problems[0]!.what).toContain('Exports.exportAll');
    // Renamed by a transform: the message names the tool as the parent would serve it.
    const renamed = await refusal(() => createApp({ name: 'front', version: '1', tools: [], mount: [{ app: inner, namespace: 'data', transforms: { export_all: { name: 'dump' } } }] }));
    expectTasksProblem(renamed, 'data_dump', "mount 'data', app 'exporter'");
  });

  it('mounted into a mounted app', async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports], extensions: [tasks()] });
    const middle = await createApp({ name: 'middle', version: '1', tools: [], extensions: [tasks()], mount: [{ app: inner, namespace: 'data' }] });
    const error = await refusal(() => createApp({ name: 'front', version: '1', tools: [], mount: [{ app: middle, namespace: 'ops' }] }));
    expectTasksProblem(error, 'ops_data_export_all', "mount 'ops', app 'middle'");
  });

  it('by a middle app without tasks(), though the app that mounts the middle one has it: the fix says the middle app lists tasks() itself', async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports] });
    const error = await refusal(() => createApp({ name: 'middle', version: '1', tools: [], mount: [{ app: inner, namespace: 'data' }] }));
    expectTasksProblem(error, 'data_export_all', "mount 'data', app 'exporter'");
    expect(error.problems[0]!.fix).toContain("add `tasks()` to this app's `extensions`, even when this app is mounted in turn by one that has it");
  });

  it.each(ERAS)('mounted with app.mount(), before and while it serves, and serves nothing of the call (%s)', async (protocol) => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports], extensions: [tasks()] });
    const other = await createApp({ name: 'reports', version: '1', tools: [Reports] });
    const front = await createApp({ name: 'front', version: '1', tools: [] });
    let started = 0;
    const watched = await createApp({ name: 'watched', version: '1', tools: [Exports], extensions: [tasks()], onStart: () => void started++ });

    expectTasksProblem(await refusal(() => front.mount(inner, { namespace: 'data' })), 'data_export_all', "mount 'data', app 'exporter'");
    // One call mounting a good app and a refused one mounts neither.
    await refusal(() => front.mount({ app: other, namespace: 'reports' }, { app: inner, namespace: 'data' }));
    expect(await toolNames(front, protocol)).toEqual([]);

    await front.start();
    try {
      await refusal(() => front.mount(watched, { namespace: 'data' }));
      expect(started).toBe(0); // refused before the mounted app's start hooks run
      expect(await toolNames(front, protocol)).toEqual([]);
    } finally {
      await front.stop();
    }
  });
});

describe('a mounted app whose members need no extension', () => {
  it.each(ERAS)('mounts as before into a parent without tasks(); its optional task tool runs as a plain call (%s)', async (protocol) => {
    const inner = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [tasks()] });
    const front = await createApp({ name: 'front', version: '1', tools: [], mount: [{ app: inner, namespace: 'r' }] });
    expect(await toolNames(front, protocol)).toEqual(['r_hello', 'r_report']);
    const client = await createTestClient(front, { protocol, capabilities: declaring });
    try {
      expect(await toolText(client.callTool({ name: 'r_report', arguments: {} }))).toBe('reported');
    } finally {
      await client.close();
    }
  });
});

describe("a parent that serves tasks() runs a mounted task: 'required' tool only as a task", () => {
  it('2026-07-28: a task for a client that declared the extension, -32021 for one that did not (the mounted app need not serve tasks())', async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports] });
    const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [tasks()], mount: [{ app: inner, namespace: 'data' }] });
    const done = await createTaskClient(front).run('data_export_all', {});
    expect(done.status).toBe('completed');
    expect(done.result?.content).toEqual([{ type: 'text', text: 'exported' }]);
    const client = await createTestClient(front, { protocol: '2026-07-28' });
    try {
      expect(await codeOf(client.callTool({ name: 'data_export_all', arguments: {} }))).toMatchObject({ code: -32021 });
    } finally {
      await client.close();
    }
    expect(ran).toEqual(['export_all']);
  });

  it('2026-07-28, through three levels: a middle app with tasks() mounts the tool, and is mounted by a top app with tasks(), which runs it as a task', async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports] });
    const middle = await createApp({ name: 'middle', version: '1', tools: [Reports], extensions: [tasks()], mount: [{ app: inner, namespace: 'data' }] });
    const top = await createApp({ name: 'top', version: '1', tools: [], extensions: [tasks()], mount: [{ app: middle, namespace: 'ops' }] });
    await top.start();
    try {
      const done = await createTaskClient(top).run('ops_data_export_all', {});
      expect(done.status).toBe('completed');
      expect(done.result?.content).toEqual([{ type: 'text', text: 'exported' }]);
      const client = await createTestClient(top, { protocol: '2026-07-28', capabilities: declaring });
      try {
        expect(await toolText(client.callTool({ name: 'ops_hello', arguments: {} }))).toBe('hello');
      } finally {
        await client.close();
      }
    } finally {
      await top.stop();
    }
    expect(ran).toEqual(['export_all']);
  });

  it("2026-07-28: renamed by the mount's transforms, it runs as a task under its new name", async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports], extensions: [tasks()] });
    const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [tasks()], mount: [{ app: inner, namespace: 'data', transforms: { export_all: { name: 'dump' } } }] });
    expect(await toolNames(front, '2026-07-28')).toEqual(['data_dump']);
    const done = await createTaskClient(front).run('data_dump', {});
    expect(done.status).toBe('completed');
    expect(done.result?.content).toEqual([{ type: 'text', text: 'exported' }]);
    expect(ran).toEqual(['export_all']);
  });

  it('2025-11-25: a plain call, as for a task tool of its own (that era has no tasks Toolwright serves)', async () => {
    const inner = await createApp({ name: 'exporter', version: '1', tools: [Exports], extensions: [tasks()] });
    const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [tasks()] });
    await front.mount(inner, { namespace: 'data' });
    const client = await createTestClient(front, { protocol: '2025-11-25' });
    try {
      expect(await toolText(client.callTool({ name: 'data_export_all', arguments: {} }))).toBe('exported');
    } finally {
      await client.close();
    }
  });
});

describe('a mounted app that adds a task: required tool while a parent without tasks() serves it', () => {
  it.each(ERAS)('is served by the mounted app, and left out of the parent with a logged reason (%s)', async (protocol) => {
    const logged: string[] = [];
    const logger = { ...silent, error: (message: string) => void logged.push(message) };
    const inner = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [tasks()] });
    const front = await createApp({ name: 'front', version: '1', tools: [], listChangedDebounceMs: 1, logger, mount: [{ app: inner, namespace: 'r' }] });
    await inner.add(Exports);
    await waitFor(async () => logged.length > 0 || (await toolNames(front, protocol)).includes('r_export_all'), "the parent to follow the mounted app's change");
    expect(logged).toEqual([expect.stringMatching(/^mount 'r': tool 'r_export_all' is not served: Exports\.exportAll .*runs only as a task.*Fix: add `tasks\(\)`/)]);
    expect(await toolNames(front, protocol)).toEqual(['r_hello', 'r_report']);
    expect(await toolNames(inner, protocol)).toEqual(['export_all', 'hello', 'report']);
    const client = await createTestClient(front, { protocol, capabilities: declaring });
    try {
      expect(await codeOf(client.callTool({ name: 'r_export_all', arguments: {} }))).toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
    expect(ran).toEqual([]);
  });

  it('is logged once while it stays left out, however often the tools change, and again once it was served in between', async () => {
    const logged: string[] = [];
    const logger = { ...silent, error: (message: string) => void logged.push(message) };
    const inner = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [tasks()] });
    const front = await createApp({ name: 'front', version: '1', tools: [], listChangedDebounceMs: 1, logger, mount: [{ app: inner, namespace: 'r' }] });
    const listed = (want: string[], what: string) => waitFor(async () => JSON.stringify(await toolNames(front, '2025-11-25')) === JSON.stringify(want), what);
    await inner.add(Exports);
    await waitFor(() => logged.length > 0, 'the refusal to be logged');
    // Each change of the mounted app's tools serves its list again, and leaves the same tool out again.
    for (let i = 1; i <= 4; i++) {
      if (i % 2) inner.tools.disable('hello');
      else inner.tools.enable('hello');
      await listed(i % 2 ? ['r_report'] : ['r_hello', 'r_report'], `change ${i} to reach the parent`);
    }
    expect(logged).toHaveLength(1);
    // Disabled in the mounted app, it is no longer left out of the parent: enabled again, it is refused (and logged) again.
    inner.tools.disable('export_all');
    inner.tools.disable('hello');
    await listed(['r_report'], 'the parent to follow the disable');
    inner.tools.enable('export_all');
    inner.tools.enable('hello');
    await listed(['r_hello', 'r_report'], 'the parent to follow the enable');
    expect(logged).toHaveLength(2);
    expect(logged[1]).toBe(logged[0]);
  });
});

describe('the other extensions a mounted app serves stay its own (the Composition guide says so)', () => {
  it.each(ERAS)('apps(): the parent serves the views and links, app-only tools only to clients that declared the extension (%s)', async (protocol) => {
    const inner = await createApp({ name: 'views', version: '1', tools: [Views], extensions: [apps()] });
    const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [apps()], mount: [{ app: inner, namespace: 'v' }] });
    for (const declared of [false, true]) {
      const client = await createTestClient(front, { protocol, ...(declared && { capabilities: { extensions: { [UI_EXTENSION]: {} } } }) });
      try {
        const tools = (await client.listTools()).tools;
        expect(tools.map((t) => t.name).sort()).toEqual(declared ? ['v_in_region', 'v_refresh', 'v_show'] : ['v_in_region', 'v_show']);
        expect(tools.find((t) => t.name === 'v_show')?._meta).toMatchObject({ ui: { resourceUri: 'ui://ledger' } });
        expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['ui://ledger']);
      } finally {
        await client.close();
      }
    }
  });

  it.each(ERAS)('apps(): the parent advertises the extension only when it lists apps() itself (%s)', async (protocol) => {
    const inner = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [apps()] });
    for (const [extensions, advertised] of [
      [[], undefined],
      [[apps()], {}],
    ] as const) {
      const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [...extensions], mount: [{ app: inner, namespace: 'r' }] });
      const client = await createTestClient(front, { protocol });
      try {
        const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
        expect(capabilities?.extensions?.['io.modelcontextprotocol/ui']).toEqual(advertised);
      } finally {
        await client.close();
      }
    }
  });

  it('skills(): the parent serves the skill files, but not skills/list unless it has skills() itself, which clashes with the mounted one', async () => {
    const dir = join(__dirname, 'fixtures/skills');
    const inner = await createApp({ name: 'skilled', version: '1', tools: [], extensions: [skills({ dir })] });
    const front = await createApp({ name: 'front', version: '1', tools: [], mount: [{ app: inner, namespace: 's' }] });
    const client = await createTestClient(front, { protocol: '2026-07-28' });
    try {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['skill://code-review/SKILL.md']));
      expect(await codeOf(client.request({ method: 'skills/list', params: {} } as never, JSON_RESULT as never))).toMatchObject({ code: -32601 });
    } finally {
      await client.close();
    }
    const clash = await refusal(() => createApp({ name: 'front', version: '1', tools: [], extensions: [skills({ dir })], mount: [{ app: inner, namespace: 's' }] }));
    expect(clash.problems.map((p) => p.where)).toContain("resource template 'skill://{+path}'");
  });

  it("your own extension: its methods and aroundToolCall serve the mounted app's own clients only; the parent's aroundToolCall wraps mounted calls", async () => {
    const wrapped: string[] = [];
    const extension = (id: string): Extension =>
      defineExtension({
        id,
        requests: { [`${id.split('/')[1]}/ping`]: { handle: () => ({ pong: id }) } },
        aroundToolCall: (call, _ctx, next) => {
          wrapped.push(`${id}>${call.name}`);
          return next();
        },
      });
    const inner = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [extension('com.example/inner')] });
    const front = await createApp({ name: 'front', version: '1', tools: [], extensions: [extension('com.example/outer')], mount: [{ app: inner, namespace: 'r' }] });
    const client = await createTestClient(front, { protocol: '2026-07-28' });
    try {
      expect(await toolText(client.callTool({ name: 'r_hello', arguments: {} }))).toBe('hello');
      expect(await codeOf(client.request({ method: 'inner/ping', params: {} } as never, JSON_RESULT as never))).toMatchObject({ code: -32601 });
      expect(await client.request({ method: 'outer/ping', params: {} } as never, JSON_RESULT as never)).toMatchObject({ pong: 'com.example/outer' });
    } finally {
      await client.close();
    }
    expect(wrapped).toEqual(['com.example/outer>r_hello']);
  });
});

describe('Mcp-Param headers of a mounted tool', () => {
  it('are checked by the parent over 2026-07-28 HTTP, as for its own tools', async () => {
    const inner = await createApp({ name: 'views', version: '1', tools: [Views] });
    const front = await createApp({ name: 'front', version: '1', tools: [], mount: [{ app: inner, namespace: 'v' }] });
    const send = (region: string) => openModern((request) => front.fetch(request), 'tools/call', { name: 'v_in_region', arguments: { region: 'eu' } }, { headers: { 'mcp-param-region': region } });
    const refused = await send('us');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: -32020, data: { mismatch: { header: 'Mcp-Param-Region', body: 'params.arguments.region' } } } });
    const agreed = await send('eu');
    expect(agreed.status).toBe(200);
    expect(await agreed.text()).toContain('ran in eu');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Worker bundler leaves out resources, prompts, completions and tool transforms when the Worker
 * holds none of the decorators that record them (DECORATED_PARTS in scripts/bundleWorker.mjs). A
 * Worker whose app uses them keeps them and serves them to the SDK's client; a record that reaches
 * a Worker without them (a decorator of Toolwright's CommonJS build, loaded while it runs) fails
 * the app's start with a message that says what is missing and what to import.
 */
const ROOT = join(__dirname, '..');
const BUNDLER = join(ROOT, 'scripts', 'bundleWorker.mjs');
const PARTS = ['no-resources', 'no-prompts', 'no-completions', 'no-transforms'];
let dir: string;
// Inside the example, so the files written here resolve its packages.
beforeAll(() => (dir = mkdtempSync(join(ROOT, '.bundle-decorated-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `entry` into `<name>.mjs`: the modules the Worker holds (inputs with code in the output). */
function bundle(name: string, entry: string): string[] {
  const outfile = join(dir, `${name}.mjs`);
  const script = `import { bundleWorker } from ${JSON.stringify(`file://${BUNDLER}`)};
const { metafile } = await bundleWorker({ entry: ${JSON.stringify(entry)}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(outfile)} });
const [output] = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs')).map(([, o]) => o);
console.log(JSON.stringify(Object.entries(output.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([path]) => path)));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[];
}

/** Runs `script` (ES module source, with `worker`, the default export of `<name>.mjs`, in scope) in node; what it printed. */
function runWorker(name: string, script: string): string {
  const file = join(dir, `run-${name}.mjs`);
  writeFileSync(
    file,
    `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nglobalThis.process.getBuiltinModule ??= (id) => require(id);\nconst worker = (await import(${JSON.stringify(`file://${join(dir, `${name}.mjs`)}`)})).default;\n${script}\n`,
  );
  return execFileSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8' });
}

/** The SDK client's two eras: 2025-11-25 (`legacy`) and 2026-07-28 (`auto` picks it, the Worker serving both). */
const CONNECT = `const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
const MODES = ['legacy', 'auto'];
const connect = async (mode) => {
  const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: (input, init) => worker.fetch(new Request(input, init)) }));
  return client;
};`;

/** A module whose class Library has a member of each kind, decorated as tsc emits it with Toolwright's ES module build. */
const LIBRARY = `import 'reflect-metadata';
import { Param, Prompt, Resource, Tool, TransformTools } from '@toolwright/core';
const topics = ['bees', 'birds', 'owls'];
const complete = (typed) => topics.filter((topic) => topic.startsWith(typed));
export class Library {
  readme() { return 'The library opens at nine.'; }
  chapter(n) { return 'Chapter ' + n + ' of the guide.'; }
  review(topic) { return 'Please review the notes on ' + topic + '.'; }
  find(query) { return 'found ' + query; }
}
const decorate = (member, decorators, types) =>
  Reflect.decorate([...decorators, Reflect.metadata('design:type', Function), Reflect.metadata('design:paramtypes', types)], Library.prototype, member, Object.getOwnPropertyDescriptor(Library.prototype, member));
const param = (index, decorator) => (target, key) => decorator(target, key, index);
decorate('readme', [Resource('library://readme', { description: 'Opening hours' })], []);
decorate('chapter', [Resource('library://chapters/{n}', { description: 'A chapter' }), param(0, Param('n', { complete: (typed) => ['1', '2', '3'].filter((n) => n.startsWith(typed)) }))], [String]);
decorate('review', [Prompt({ description: 'Review the notes on a topic' }), param(0, Param('topic', { complete }))], [String]);
decorate('find', [Tool({ description: 'Finds a book' }), param(0, Param('query'))], [String]);
Reflect.decorate([TransformTools({ find: { name: 'search_library', description: 'Searches the library' } })], Library);
`;

const ENTRY_END = `export default { fetch: (request) => createApp({ name: 'library', version: '1.0.0', tools: [Library] }).then((app) => createFetchHandler(app, { stateless: true })(request)) };\n`;

describe('resources, prompts, completions and tool transforms in a Worker', () => {
  it('are left out of a Worker that holds none of their decorators', () => {
    // An app compiled as ES modules (as the example and the edge template build their Workers): esbuild keeps only the decorators it calls.
    writeFileSync(
      join(dir, 'plain.mjs'),
      `import 'reflect-metadata';\nimport { Tool } from '@toolwright/core';\nexport class Plain {\n  hello() { return 'hello'; }\n}\nReflect.decorate([Tool({ description: 'Says hello' }), Reflect.metadata('design:type', Function), Reflect.metadata('design:paramtypes', [])], Plain.prototype, 'hello', Object.getOwnPropertyDescriptor(Plain.prototype, 'hello'));\n`,
    );
    const modules = bundle(
      'without',
      `import 'reflect-metadata';\nimport { createApp } from '@toolwright/server';\nimport { createFetchHandler } from '@toolwright/server/fetch';\nimport { Plain } from ${JSON.stringify(join(dir, 'plain.mjs'))};\nexport default { fetch: (request) => createApp({ name: 'plain', version: '1.0.0', tools: [Plain] }).then((app) => createFetchHandler(app, { stateless: true })(request)) };\n`,
    );
    for (const part of PARTS) expect(modules.some((m) => m.startsWith(`${part}:`))).toBe(true);
    expect(
      modules.filter((m) =>
        /packages\/(core|server)\/esm\/(registry\/build(Resource|Prompt)|handlers\/register(Resource|Prompt|Completion)\w*|invoke\/compileCompleter|extensions\/apps\/viewFileReader)\.js$/.test(m),
      ),
    ).toEqual([]);
    // Of transformTool's module only its constants stay (esbuild keeps a `new Set(...)` at the top of a module it reaches).
    expect(readFileSync(join(dir, 'without.mjs'), 'utf8')).not.toMatch(/function transformTool\(tool\b/);
    // It serves its tool in both eras: nothing on the way reaches a stand-in.
    const printed = runWorker(
      'without',
      `${CONNECT}
const served = [];
for (const mode of MODES) {
  const client = await connect(mode);
  served.push([client.getNegotiatedProtocolVersion(), (await client.callTool({ name: 'hello', arguments: {} })).content[0].text, (await client.listTools()).tools.length]);
  await client.close();
}
console.log(JSON.stringify(served));`,
    );
    expect(JSON.parse(printed)).toEqual([
      ['2025-11-25', 'hello', 1],
      ['2026-07-28', 'hello', 1],
    ]);
  });

  it("are kept, and served to the SDK's client, when the app decorates members with them", () => {
    writeFileSync(join(dir, 'library.mjs'), LIBRARY);
    const modules = bundle(
      'with',
      `import 'reflect-metadata';\nimport { createApp } from '@toolwright/server';\nimport { createFetchHandler } from '@toolwright/server/fetch';\nimport { Library } from ${JSON.stringify(join(dir, 'library.mjs'))};\n${ENTRY_END}`,
    );
    expect(modules.filter((m) => PARTS.some((part) => m.startsWith(`${part}:`)))).toEqual([]);
    expect(modules.filter((m) => /packages\/(core|server)\/esm\/(invoke\/compileCompleter|extensions\/apps\/viewFileReader)\.js$/.test(m))).toHaveLength(2);
    const printed = runWorker(
      'with',
      `${CONNECT}
const served = [];
for (const mode of MODES) {
  const client = await connect(mode);
  served.push({
    era: client.getNegotiatedProtocolVersion(),
    tools: (await client.listTools()).tools.map((tool) => [tool.name, tool.description]),
    readme: (await client.readResource({ uri: 'library://readme' })).contents[0].text,
    chapter: (await client.readResource({ uri: 'library://chapters/3' })).contents[0].text,
    prompt: (await client.getPrompt({ name: 'review', arguments: { topic: 'owls' } })).messages[0].content.text,
    topics: (await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'topic', value: 'b' } })).completion.values,
    chapters: (await client.complete({ ref: { type: 'ref/resource', uri: 'library://chapters/{n}' }, argument: { name: 'n', value: '2' } })).completion.values,
    found: (await client.callTool({ name: 'search_library', arguments: { query: 'Dune' } })).content[0].text,
  });
  await client.close();
}
console.log(JSON.stringify(served));`,
    );
    const expected = {
      tools: [['search_library', 'Searches the library']],
      readme: 'The library opens at nine.',
      chapter: 'Chapter 3 of the guide.',
      prompt: 'Please review the notes on owls.',
      topics: ['bees', 'birds'],
      chapters: ['2'],
      found: 'found Dune',
    };
    expect(JSON.parse(printed)).toEqual([
      { era: '2025-11-25', ...expected },
      { era: '2026-07-28', ...expected },
    ]);
  });

  it('say what is missing when a record reaches a Worker without them', () => {
    // The decorators of Toolwright's CommonJS build, loaded while the Worker runs: esbuild never saw them.
    writeFileSync(
      join(dir, 'outside.mjs'),
      `const core = () => globalThis.process.getBuiltinModule('node:module').createRequire(${JSON.stringify(join(ROOT, 'package.json'))})('@toolwright/core');
const decorated = (kind) => {
  const { Prompt, Resource, Tool, TransformTools } = core();
  class Outside {
    member() { return 'text'; }
  }
  const decorator = { resource: Resource('outside://text'), prompt: Prompt(), transform: Tool({ description: 'Says text' }) }[kind];
  Reflect.decorate([decorator, Reflect.metadata('design:type', Function), Reflect.metadata('design:paramtypes', [])], Outside.prototype, 'member', Object.getOwnPropertyDescriptor(Outside.prototype, 'member'));
  if (kind === 'transform') Reflect.decorate([TransformTools({ member: { name: 'renamed' } })], Outside);
  return Outside;
};
export const start = (createApp) => Promise.all(['resource', 'prompt', 'transform'].map((kind) => createApp({ name: kind, version: '1.0.0', tools: [decorated(kind)] }).then(() => kind + ' started', (error) => kind + ': ' + error.message)));
`,
    );
    const modules = bundle(
      'outside',
      `import 'reflect-metadata';\nimport { createApp } from '@toolwright/server';\nimport { start } from ${JSON.stringify(join(dir, 'outside.mjs'))};\nexport default { start: () => start(createApp) };\n`,
    );
    for (const part of PARTS) expect(modules.some((m) => m.startsWith(`${part}:`))).toBe(true);
    const said = JSON.parse(runWorker('outside', 'console.log(JSON.stringify(await worker.start()));')) as string[];
    expect(said).toEqual([
      "resource: Toolwright's resources are not in this Worker bundle: nothing in it calls @Resource or @UiResource from @toolwright/core. Decorate the resources with them, imported from @toolwright/core in the Worker's code, and bundle again.",
      "prompt: Toolwright's prompts are not in this Worker bundle: nothing in it calls @Prompt from @toolwright/core. Decorate the prompts with it, imported from @toolwright/core in the Worker's code, and bundle again.",
      "transform: Toolwright's tool transforms are not in this Worker bundle: nothing in it calls @TransformTools from @toolwright/core. Import it from @toolwright/core in the Worker's code, and bundle again.",
    ]);
  });
});

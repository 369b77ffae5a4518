import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Worker bundler leaves out resources, prompts, completions and tool transforms when the Worker
 * holds none of the decorators that record them and no file that names the metadata key they record
 * under (DECORATED_PARTS in scripts/bundleWorker.mjs). A Worker whose app uses them keeps them and
 * serves them to the SDK's client, also when a dependency published pre-bundled, with its own copy
 * of Toolwright's decorators, records them; a record that reaches a Worker without them (a
 * decorator of Toolwright's CommonJS build, loaded while it runs) fails the app's start with a
 * message that says what is missing and what to do.
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

/** A module whose class Plain has one tool, decorated as tsc emits it with Toolwright's ES module build. */
const PLAIN = `import 'reflect-metadata';\nimport { Tool } from '@toolwright/core';\nexport class Plain {\n  hello() { return 'hello'; }\n}\nReflect.decorate([Tool({ description: 'Says hello' }), Reflect.metadata('design:type', Function), Reflect.metadata('design:paramtypes', [])], Plain.prototype, 'hello', Object.getOwnPropertyDescriptor(Plain.prototype, 'hello'));\n`;

/** Prints what the SDK's client reads from the Library's Worker in both eras (run with runWorker). */
const SERVED = `${CONNECT}
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
console.log(JSON.stringify(served));`;
/** What SERVED prints for each era. */
const EXPECTED = {
  tools: [['search_library', 'Searches the library']],
  readme: 'The library opens at nine.',
  chapter: 'Chapter 3 of the guide.',
  prompt: 'Please review the notes on owls.',
  topics: ['bees', 'birds'],
  chapters: ['2'],
  found: 'found Dune',
};

describe('resources, prompts, completions and tool transforms in a Worker', () => {
  it('are left out of a Worker that holds none of their decorators', () => {
    // An app compiled as ES modules (as the example and the edge template build their Workers): esbuild keeps only the decorators it calls.
    writeFileSync(join(dir, 'plain.mjs'), PLAIN);
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
    expect(JSON.parse(runWorker('with', SERVED))).toEqual([
      { era: '2025-11-25', ...EXPECTED },
      { era: '2026-07-28', ...EXPECTED },
    ]);
  });

  it('are kept, and served, when a dependency published pre-bundled with its own copy of the decorators records them', () => {
    // The library as a package might publish it: one ES module, @toolwright/core's decorators and metadata keys inlined.
    // esbuild sees no file of core's decorators, only the keys they record under; the library has no @TransformTools.
    writeFileSync(join(dir, 'library-source.mjs'), LIBRARY.replace(/^Reflect\.decorate\(\[TransformTools.*\n/m, '').replace(', TransformTools', ''));
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { build } from 'esbuild';\nawait build({ entryPoints: [${JSON.stringify(join(dir, 'library-source.mjs'))}], bundle: true, format: 'esm', platform: 'neutral', conditions: ['workerd'], mainFields: ['module', 'main'], external: ['reflect-metadata', '@modelcontextprotocol/*', 'class-transformer', 'class-validator', 'zod', 'node:*'], outfile: ${JSON.stringify(join(dir, 'library-bundled.mjs'))}, logLevel: 'silent' });`,
      ],
      { cwd: ROOT },
    );
    expect(readFileSync(join(dir, 'library-bundled.mjs'), 'utf8')).not.toMatch(/@toolwright\/core/);
    const modules = bundle(
      'prebundled',
      `import 'reflect-metadata';\nimport { createApp } from '@toolwright/server';\nimport { createFetchHandler } from '@toolwright/server/fetch';\nimport { Library } from ${JSON.stringify(join(dir, 'library-bundled.mjs'))};\n${ENTRY_END}`,
    );
    expect(modules.filter((m) => /packages\/core\/esm\/decorators\//.test(m))).toEqual([]);
    expect(PARTS.filter((part) => modules.some((m) => m.startsWith(`${part}:`)))).toEqual(['no-transforms']);
    const expected = { ...EXPECTED, tools: [['find', 'Finds a book']] };
    expect(JSON.parse(runWorker('prebundled', SERVED.replace("'search_library'", "'find'")))).toEqual([
      { era: '2025-11-25', ...expected },
      { era: '2026-07-28', ...expected },
    ]);
  });

  it('are kept when their decorators reach the Worker under other names, or through skills()', () => {
    writeFileSync(join(dir, 'renamed.mjs'), `export { Resource as Res, Prompt as Ask, Param as Arg, Tool as Act, TransformTools as Rename } from '@toolwright/core';\n`);
    writeFileSync(
      join(dir, 'library-renamed.mjs'),
      LIBRARY.replace(
        "import { Param, Prompt, Resource, Tool, TransformTools } from '@toolwright/core';",
        `import { Arg as Param, Ask as Prompt, Res as Resource, Act as Tool, Rename as TransformTools } from ${JSON.stringify(join(dir, 'renamed.mjs'))};`,
      ),
    );
    const renamed = bundle(
      'renamed',
      `import 'reflect-metadata';\nimport { createApp } from '@toolwright/server';\nimport { createFetchHandler } from '@toolwright/server/fetch';\nimport { Library } from ${JSON.stringify(join(dir, 'library-renamed.mjs'))};\n${ENTRY_END}`,
    );
    expect(PARTS.filter((part) => renamed.some((m) => m.startsWith(`${part}:`)))).toEqual([]);
    // The skills() extension records its resources with core's @Resource: a Worker that names it keeps resources.
    writeFileSync(join(dir, 'plain.mjs'), PLAIN);
    const skills = bundle(
      'skills',
      `import 'reflect-metadata';\nimport { createApp, skills } from '@toolwright/server';\nimport { createFetchHandler } from '@toolwright/server/fetch';\nimport { Plain } from ${JSON.stringify(join(dir, 'plain.mjs'))};\nglobalThis.skills = skills;\nexport default { fetch: (request) => createApp({ name: 'plain', version: '1.0.0', tools: [Plain] }).then((app) => createFetchHandler(app, { stateless: true })(request)) };\n`,
    );
    expect(PARTS.filter((part) => skills.some((m) => m.startsWith(`${part}:`)))).toEqual(['no-prompts', 'no-transforms']);
  });

  it("read the first build's file names with either separator, and the metadata keys of the files it holds but core's own", () => {
    // decoratedPartsKept() on metafiles as esbuild writes them on Windows (`\`), and on files that name the keys.
    writeFileSync(join(dir, 'records-transforms.js'), "Reflect.defineMetadata('toolwright:transforms', [], Target);\n");
    writeFileSync(join(dir, 'records-prompts.js'), 'const key = "toolwright:prompts";\n');
    const coreKeys = join(ROOT, '..', '..', 'packages', 'core', 'esm', 'metadata', 'keys.js');
    expect(readFileSync(coreKeys, 'utf8')).toContain('toolwright:resources');
    const cases: Record<string, Record<string, number>> = {
      windowsMarker: { 'node_modules\\@toolwright\\core\\esm\\decorators\\Prompt.js': 120 },
      windowsProxy: { '..\\..\\packages\\server\\esm\\compose\\proxy\\ProxiedServer.js': 900 },
      coreKeysAlone: { [coreKeys]: 200 },
      recordsTransforms: { [coreKeys]: 200, [join(dir, 'records-transforms.js')]: 40 },
      keyNotInOutput: { [join(dir, 'records-prompts.js')]: 0 },
      keyInOutput: { [join(dir, 'records-prompts.js')]: 20 },
      // A plugin's module has no file to read; a file that cannot be read might name a key, so every part stays.
      pluginModule: { 'no-tracing:../handlers/tracedServerClass': 300 },
      unreadable: { [join(dir, 'not-there.js')]: 20 },
    };
    const script = `import { readFile } from 'node:fs/promises';
import { decoratedPartsKept } from ${JSON.stringify(`file://${BUNDLER}`)};
// The Windows-spelled files stand for files there that name no key.
const sourceOf = (file) => (file.includes('\\\\') ? Promise.resolve('') : readFile(file, 'utf8').catch(() => undefined));
const cases = ${JSON.stringify(cases)};
const kept = {};
for (const [name, inputs] of Object.entries(cases)) {
  const metafile = { inputs: {}, outputs: { 'out.mjs': { inputs: Object.fromEntries(Object.entries(inputs).map(([file, bytesInOutput]) => [file, { bytesInOutput }])) }, 'out.mjs.map': {} } };
  kept[name] = [...(await decoratedPartsKept(metafile, sourceOf))].sort();
}
console.log(JSON.stringify(kept));`;
    expect(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }))).toEqual({
      windowsMarker: ['no-completions', 'no-prompts'],
      windowsProxy: ['no-completions', 'no-prompts', 'no-resources', 'no-transforms'],
      coreKeysAlone: [],
      recordsTransforms: ['no-transforms'],
      keyNotInOutput: [],
      keyInOutput: ['no-completions', 'no-prompts'],
      pluginModule: [],
      unreadable: ['no-completions', 'no-prompts', 'no-resources', 'no-transforms'],
    });
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
      "resource: Toolwright's resources are not in this Worker bundle: nothing in it calls @Resource or @UiResource from @toolwright/core or names their metadata key 'toolwright:resources'. Decorate the resources with them, imported from @toolwright/core in the Worker's code, and bundle again, or, if a dependency's code records them, report it to Toolwright.",
      "prompt: Toolwright's prompts are not in this Worker bundle: nothing in it calls @Prompt from @toolwright/core or names its metadata key 'toolwright:prompts'. Decorate the prompts with it, imported from @toolwright/core in the Worker's code, and bundle again, or, if a dependency's code records them, report it to Toolwright.",
      "transform: Toolwright's tool transforms are not in this Worker bundle: nothing in it calls @TransformTools from @toolwright/core or names its metadata key 'toolwright:transforms'. Import it from @toolwright/core in the Worker's code, and bundle again, or, if a dependency's code records them, report it to Toolwright.",
    ]);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What scripts/bundleWorker.mjs leaves out of a Worker (workerd parses the whole script on each
 * cold start): class-validator's unused decorators with validator.js and libphonenumber-js, jose
 * when nothing imports `@toolwright/server/auth`, @opentelemetry/api when nothing but Toolwright
 * imports it, the server's node-only code when no entry point leads into it, the stdio
 * transports, the SDK's Skills extension when no file of the app names skills(), zod's translations when
 * none names locales, the SDK's default JSON Schema validator when nothing but Toolwright imports the SDK, and the
 * server's composition, cluster sharing, bearer authentication and check of overrides when no file of the app names `mount`, `cluster`, `auth` or `overrides`; that it takes Toolwright's ES module build (the `workerd` export condition), and
 * through it the SDK's and zod's, so esbuild drops what nothing reaches; that from an app compiled as
 * ES modules (emitEsModules) all of them share one scope; and how it writes it. The Workers it builds are served and called in runtimes.e2e.test.ts. Needs dist/ (`tsc -b`).
 */
const ROOT = join(__dirname, '..');
const BUNDLER = join(ROOT, 'scripts', 'bundleWorker.mjs');

let dir: string;
// Inside the example, so the files written here resolve its packages.
beforeAll(() => (dir = mkdtempSync(join(ROOT, '.bundle-test-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` (ES module source, with `bundleWorker`, `dtoNamesOf`, `emitEsModules` and `writeWhole` in scope) in node, in `cwd`; its stdout. */
function run(script: string, cwd = ROOT): string {
  const source = `import { bundleWorker, dtoNamesOf, emitEsModules, writeWhole } from ${JSON.stringify(`file://${BUNDLER}`)};\n${script}`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd, encoding: 'utf8' });
}

/**
 * The Worker bundle of `entry` (resolved from the example's folder): the module paths it holds (the
 * inputs with code in the output, from esbuild's metafile), the class-validator decorators it
 * defines (class-validator's decorator functions, each with its `validationOptions` parameter, declared
 * or, when the compile hints name it, written `var Name=(function(...){...})` (see compileWithScript);
 * esbuild keeps an empty shell of each module it prunes), and its text.
 */
function bundled(name: string, entry: string, cwd = ROOT): { modules: string[]; decorators: string[]; text: string } {
  const outfile = join(dir, `${name}.mjs`);
  const built = run(
    `const { metafile } = await bundleWorker({ entry: ${JSON.stringify(entry)}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(outfile)} });
    const [output] = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs')).map(([, o]) => o);
    console.log(JSON.stringify(Object.entries(output.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([path]) => path)));`,
    cwd,
  );
  const text = readFileSync(outfile, 'utf8');
  return {
    modules: JSON.parse(built) as string[],
    decorators: [...text.matchAll(/(?:function |var )([A-Z]\w*?)\d*(?:=\(function)?\((?:[\w$]+,)*validationOptions\)/g)].map(([, decorator]) => decorator),
    text,
  };
}

const has = (modules: string[], pattern: RegExp) => modules.some((m) => pattern.test(m));

/** The modules of class-validator's decorators that board.dto.ts's decorators are in, or are made with (ValidateBy). */
const CLASS_VALIDATOR_DECORATOR_MODULES = [
  'array/ArrayMaxSize.js',
  'array/ArrayMinSize.js',
  'common/IsOptional.js',
  'common/ValidateBy.js',
  'common/ValidateNested.js',
  'number/Max.js',
  'number/Min.js',
  'string/MinLength.js',
  'typechecker/IsInt.js',
  'typechecker/IsString.js',
];

let esmApp: string | undefined;
/** The example's app compiled once more by tsc as ES modules, as its bundle-worker.mjs does: their folder. */
function appAsEsModules(): string {
  if (esmApp === undefined) {
    esmApp = join(dir, 'esm');
    run(`emitEsModules(${JSON.stringify(join(ROOT, 'tsconfig.json'))}, ${JSON.stringify(esmApp)});`);
  }
  return esmApp;
}

/**
 * Loads the Worker in `file` in node and sends it a 2026-07-28 tools/list: what it printed (`status <code>`, and whatever the
 * node flags print). `prelude` runs first; `report`, an expression, is printed after the answer as `reads <JSON>`.
 */
function listTools(file: string, nodeFlags: string[] = [], prelude = 'globalThis.process.getBuiltinModule ??= (id) => require(id);', report?: string): string {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
  const request = `new Request('http://127.0.0.1/mcp', { method: 'POST', body: ${JSON.stringify(body)}, headers: ${JSON.stringify(headers)} })`;
  const reported = report === undefined ? '' : `; console.log('reads ' + JSON.stringify(${report}))`;
  const script = `${prelude}\nimport(${JSON.stringify(`file://${file}`)}).then((m) => m.default.fetch(${request}, {})).then((response) => { console.log('status', response.status)${reported}; });`;
  return execFileSync(process.execPath, [...nodeFlags, '-e', script], { cwd: ROOT, encoding: 'utf8' });
}

describe("the edge example's Worker bundler", () => {
  it('reads the names a file takes from class-validator or @toolwright/core/dto, and gives up on any other use', () => {
    const cases = {
      cjs: 'const dto_1 = require("@toolwright/core/dto");\n(0, dto_1.IsString)(); (0, dto_1.Min)(1); dto_1.Property;',
      esm: "import { IsEmail, type ValidationOptions, Max as Most } from 'class-validator';\nimport '@toolwright/core/dto';",
      whole: 'const cv = require("class-validator");\nuse(cv);',
      namespace: "import * as cv from 'class-validator';",
      computed: 'const cv = require("class-validator");\ncv[name]();',
      none: 'const x = 1;',
    };
    const out = JSON.parse(
      run(`const cases = ${JSON.stringify(cases)};
      console.log(JSON.stringify(Object.fromEntries(Object.entries(cases).map(([k, v]) => [k, dtoNamesOf(v) ? [...dtoNamesOf(v)].sort() : null]))));`),
    ) as Record<string, string[] | null>;
    expect(out).toEqual({
      cjs: ['IsString', 'Min', 'Property'],
      esm: ['IsEmail', 'Max', 'ValidationOptions'],
      whole: null,
      namespace: null,
      computed: null,
      none: [],
    });
  });

  it("holds only the class-validator decorators the app's DTOs use, and jose because the Worker imports @toolwright/server/auth", () => {
    const { modules, decorators, text } = bundled('worker', "import 'reflect-metadata';\nimport worker from './dist/worker.js';\nexport default worker.default;\n");
    // board.dto.ts's decorators (and ValidateBy, which they are made with), and no other.
    expect(decorators.sort()).toEqual(['ArrayMaxSize', 'ArrayMinSize', 'IsInt', 'IsOptional', 'IsString', 'Max', 'Min', 'MinLength', 'ValidateBy', 'ValidateNested']);
    expect(has(modules, /node_modules\/libphonenumber-js\//)).toBe(false);
    expect(has(modules, /node_modules\/validator\/lib\/isEmail\.js$/)).toBe(false);
    expect(has(modules, /node_modules\/jose\//)).toBe(true);
    expect(has(modules, /node_modules\/@opentelemetry\/api\//)).toBe(false);
    // Without the API no connection records, so Toolwright's tracing is left out with it.
    expect(modules).toContain('no-tracing:../handlers/tracedServerClass');
    expect(has(modules, /packages\/server\/esm\/(handlers\/tracedServerClass|telemetry\/traceRequest)\.js$/)).toBe(false);
    // Toolwright's ES module build, and no module of its CommonJS one (two copies would keep two registries).
    expect(has(modules, /packages\/server\/esm\/fetch\/createFetchHandler\.js$/)).toBe(true);
    expect(has(modules, /packages\/core\/esm\/registry\/buildRegistry\.js$/)).toBe(true);
    expect(has(modules, /packages\/(server|core)\/bundle\//)).toBe(false);
    // Its imports of Node's built-ins load them on first use, through the Worker's require, not as the Worker starts.
    expect(text).not.toMatch(/\bimport\s*[^;]*?from\s*"node:/);
    expect(text).toContain('require("node:fs",[');
    // Through it, the SDK's and zod's ES module builds, from which esbuild keeps what is used.
    expect(has(modules, /node_modules\/@modelcontextprotocol\/server\/dist\/.+\.mjs$/)).toBe(true);
    expect(has(modules, /node_modules\/(@modelcontextprotocol\/[\w-]+|zod)\/.+\.cjs$/)).toBe(false);
    // The web-standard path of the server, without its node-only code (node listener, test kit, proxy).
    expect(has(modules, /packages\/server\/esm\/http\/serveHttp\.js$/)).toBe(false);
    expect(modules).toContain('no-node-only-server:../http/serveHttp');
    // The stdio transports (a Worker has no standard input) and, as no file of the app names skills(), the SDK's Skills extension.
    expect(modules).toContain('no-stdio:../stdio/serveStdio');
    expect(has(modules, /packages\/server\/esm\/stdio\//)).toBe(false);
    expect(modules).toContain('no-skills:@modelcontextprotocol/server/ext/skills');
    expect(has(modules, /@modelcontextprotocol\/server\/dist\/(stdio|ext\/skills\/)/)).toBe(false);
    // zod's translations, but for English, which zod itself loads.
    expect(modules).toContain('zod-english-only:zod/v4/locales/index.js');
    expect(has(modules, /node_modules\/zod\/v4\/locales\/en\.js$/)).toBe(true);
    expect(modules.filter((m) => /node_modules\/zod\/v4\/locales\//.test(m) && !/\/(en|index)\.js$/.test(m))).toEqual([]);
    // The SDK's default JSON Schema validator (@cfworker/json-schema's): Toolwright gives each of its servers its own.
    expect(has(modules, /^no-sdk-default-validator:\.\/cfWorkerProvider-[\w-]+\.mjs$/)).toBe(true);
    expect(has(modules, /@modelcontextprotocol\/server\/dist\/cfWorkerProvider-/)).toBe(false);
    // The server's composition and its sessions shared through a cluster: no file of the app names `mount` or `cluster`.
    expect(modules).toEqual(expect.arrayContaining(['no-composition:../compose/mountApps', 'no-composition:../compose/mountLater', 'no-cluster:./shareThroughCluster']));
    expect(has(modules, /packages\/server\/esm\/(compose\/(mountApps|mountLater|holdMounted)|http\/shareThroughCluster)\.js$/)).toBe(false);
    // Its bearer authentication stays: the app names `auth`. createApp's check of service overrides does not: none names `overrides`.
    expect(has(modules, /packages\/server\/esm\/auth\/authenticateRequest\.js$/)).toBe(true);
    expect(modules).toContain('no-overrides-check:../compose/checkOverridesInjected');
  });

  it('lays the app, Toolwright, the SDK and zod out in one scope when tsc compiles the app as ES modules, as the example builds its Worker', () => {
    const esm = appAsEsModules();
    // tsc's ES modules, decorator metadata included.
    const tools = readFileSync(join(esm, 'notes.tools.js'), 'utf8');
    expect(tools).toMatch(/^import .* from '@toolwright\/core';$/m);
    expect(tools).toContain('__metadata("design:paramtypes"');
    const { modules, text } = bundled('from-esm', `import 'reflect-metadata';\nimport worker from ${JSON.stringify(join(esm, 'worker.js'))};\nexport default worker;\n`);
    expect(has(modules, /packages\/server\/esm\/fetch\/createFetchHandler\.js$/)).toBe(true);
    // No module of theirs behind an initialiser that runs it when first required (and parses it a second time):
    // Toolwright's ES module build imports its own modules where its CommonJS one requires them on first use.
    const initialised = [...text.matchAll(/__esm\(\{"([^"]+)"/g)].map(([, path]) => path);
    expect(initialised.filter((path) => /packages\/(server|core)\/|@modelcontextprotocol\/|\/zod\/|\.bundle-test-/.test(path))).toEqual([]);
    // class-validator's modules are (the core requires it on first use), but only those the DTOs' decorators
    // need: from its entry point, each of its 110-odd decorators' modules would be there, pruned to an
    // empty initialiser that a cold start compiles and runs.
    const decoratorModules = initialised.filter((path) => /class-validator\/esm2015\/decorator\//.test(path)).map((path) => path.replace(/^.*\/esm2015\/decorator\//, ''));
    expect(decoratorModules.sort()).toEqual(CLASS_VALIDATOR_DECORATOR_MODULES);
    // Of @toolwright/core/dto's stand-ins, made as its module loads, only those the DTOs import (each call marked pure, so esbuild drops the others).
    const standIns = [...text.matchAll(/\bfromClass(?:Validator|Transformer)\("(\w+)"\)/g)].map(([, name]) => name);
    expect(standIns.sort()).toEqual(['ArrayMaxSize', 'ArrayMinSize', 'IsInt', 'IsOptional', 'IsString', 'Max', 'Min', 'MinLength', 'Type', 'ValidateNested']);
    // Its entry point itself neither (the stand-in module named after it re-exports from the files that declare each name).
    expect(has(modules, /^[^:]*node_modules\/class-validator\/esm2015\/index\.js$/)).toBe(false);
    // What it imports of the modules left out is there, each export a function that says why when called.
    expect(modules).toContain('no-stdio:../stdio/serveStdio');
    expect(text).toContain('function serveStdioAfter(){throw new Error("A Worker cannot serve stdio');
    // It starts and answers without throwing an exception anywhere: each one thrown as the script runs
    // makes V8 parse the whole script again for its stack's source positions (on workerd 105 M
    // instructions, a sixth of a cold start, for the one Toolwright's class-validator loader caught).
    const printed = listTools(join(dir, 'from-esm.mjs'), ['--print-all-exceptions']);
    expect(printed).toContain('status 200');
    expect(printed).not.toContain('Exception thrown');
  });

  it("starts and answers without reading node's process where the runtime says it is Cloudflare Workers (workerd builds it on the first read: a twentieth of a cold start)", () => {
    const esm = appAsEsModules();
    bundled('no-process', `import 'reflect-metadata';\nimport worker from ${JSON.stringify(join(esm, 'worker.js'))};\nexport default worker;\n`);
    // In node, with the user agent workerd gives and a process that records who reads it.
    const prelude = [
      `globalThis.process.getBuiltinModule ??= (id) => require(id);`,
      `const real = globalThis.process;`,
      `globalThis.reads = [];`,
      `Object.defineProperty(globalThis, 'navigator', { configurable: true, value: { userAgent: 'Cloudflare-Workers' } });`,
      `Object.defineProperty(globalThis, 'process', { configurable: true, get() { globalThis.reads.push(new Error().stack.split('\\n')[2].trim()); return real; } });`,
    ].join('\n');
    const printed = listTools(join(dir, 'no-process.mjs'), [], prelude, 'globalThis.reads');
    expect(printed).toContain('status 200');
    expect(
      JSON.parse(
        printed
          .split('\n')
          .find((line) => line.startsWith('reads '))!
          .slice('reads '.length),
      ),
    ).toEqual([]);
  });

  it('runs from ES modules with the node-only code in it too (its modules, imported where the CommonJS build requires them, laid out in one scope)', () => {
    const esm = appAsEsModules();
    const entry = `import 'reflect-metadata';\nimport worker from ${JSON.stringify(join(esm, 'worker.js'))};\nimport { InMemoryEventStore } from '@toolwright/server/http';\nglobalThis.store = InMemoryEventStore;\nexport default worker;\n`;
    const { modules } = bundled('from-esm-with-http', entry);
    expect(has(modules, /packages\/server\/esm\/http\/serveHttp\.js$/)).toBe(true);
    expect(listTools(join(dir, 'from-esm-with-http.mjs'))).toContain('status 200');
  });

  it('writes the Worker without indentation or comments, in ASCII, with a linked source map that leads back to the TypeScript', () => {
    const { text } = bundled('written', "import 'reflect-metadata';\nimport worker from './dist/worker.js';\nexport default worker.default;\n");
    expect([...text].every((c) => c.charCodeAt(0) < 128)).toBe(true);
    // Line breaks are left in the banner (the Worker's require) and in the licences esbuild gathers at the end.
    expect(text.split('\n').length).toBeLessThan(1000);
    expect(text.trimEnd().endsWith('//# sourceMappingURL=written.mjs.map')).toBe(true);
    const map = JSON.parse(readFileSync(join(dir, 'written.mjs.map'), 'utf8')) as { sources: string[] };
    // Through tsc's own maps, to the app's TypeScript and Toolwright's.
    expect(map.sources.some((source) => source.endsWith('/src/worker.ts'))).toBe(true);
    expect(map.sources.some((source) => source.endsWith('packages/core/src/decorators/Tool.ts'))).toBe(true);
  });

  it('replaces a Worker built before whole, by a rename in its folder: no temporary file is left, and the script names its new map', () => {
    const folder = join(dir, 'rebuilt');
    mkdirSync(folder);
    writeFileSync(join(folder, 'worker.mjs'), 'export default {}; // the old build\n//# sourceMappingURL=worker.mjs.map\n');
    writeFileSync(join(folder, 'worker.mjs.map'), '{"version":3,"sources":["old.js"],"mappings":""}');
    run(
      `await bundleWorker({ entry: ${JSON.stringify("import 'reflect-metadata';\nimport worker from './dist/worker.js';\nexport default worker.default;\n")}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(join(folder, 'worker.mjs'))} });`,
    );
    expect(readdirSync(folder).sort()).toEqual(['worker.mjs', 'worker.mjs.map']);
    const text = readFileSync(join(folder, 'worker.mjs'), 'utf8');
    expect(text).not.toContain('the old build');
    expect(text.trimEnd().endsWith('//# sourceMappingURL=worker.mjs.map')).toBe(true);
    const map = JSON.parse(readFileSync(join(folder, 'worker.mjs.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith('/src/worker.ts'))).toBe(true);
  });

  it('writes the source map before the script, and leaves the old script and no temporary file when a write fails', () => {
    const folder = join(dir, 'failing');
    mkdirSync(folder);
    writeFileSync(join(folder, 'worker.mjs'), 'the old build');
    // The map's name is a folder here, so its rename fails: the script, written after it, must not change.
    mkdirSync(join(folder, 'worker.mjs.map'));
    writeFileSync(join(folder, 'worker.mjs.map', 'keep'), '');
    const said = run(
      `const te = new TextEncoder();
      await writeWhole([{ path: ${JSON.stringify(join(folder, 'worker.mjs'))}, contents: te.encode('the new build') }, { path: ${JSON.stringify(join(folder, 'worker.mjs.map'))}, contents: te.encode('{}') }]).then(() => console.log('written'), (error) => console.log(error.code));`,
    );
    expect(said.trim()).toMatch(/^E[A-Z]+$/);
    expect(readFileSync(join(folder, 'worker.mjs'), 'utf8')).toBe('the old build');
    expect(readdirSync(folder).sort()).toEqual(['worker.mjs', 'worker.mjs.map']);
  });

  it('keeps @opentelemetry/api when the app imports it, run from the folder that holds node_modules', () => {
    // There esbuild names the files `node_modules/...`, with no folder before it (a new project's
    // `npm run build`); the repository's root holds the node_modules this example resolves from.
    const entry = `import 'reflect-metadata';\nimport { trace } from '@opentelemetry/api';\nimport { createEdgeHandler } from ${JSON.stringify(join(ROOT, 'dist', 'handler.js'))};\nglobalThis.tracer = trace;\nexport default { fetch: (request) => createEdgeHandler({ stateless: true }).then((serve) => serve(request)) };\n`;
    const { modules } = bundled('telemetry', entry, join(ROOT, '..', '..'));
    expect(has(modules, /^node_modules\/@opentelemetry\/api\//)).toBe(true);
    expect(modules).not.toContain('no-telemetry:@opentelemetry/api');
    expect(has(modules, /packages\/server\/esm\/telemetry\/traceRequest\.js$/)).toBe(true);
    expect(modules).not.toContain('no-tracing:../handlers/tracedServerClass');
  });

  it("keeps the SDK's Skills extension when a file of the app names skills()", () => {
    writeFileSync(join(dir, 'with-skills.js'), `"use strict";\nconst server_1 = require("@toolwright/server");\nexports.extension = () => (0, server_1.skills)({ dir: 'skills' });\n`);
    const { modules } = bundled(
      'with-skills',
      `import 'reflect-metadata';\nimport ${JSON.stringify(join(dir, 'with-skills.js'))};\nimport { createEdgeHandler } from './dist/handler.js';\nexport default { fetch: (request) => createEdgeHandler({ stateless: true }).then((serve) => serve(request)) };\n`,
    );
    // The SDK's catalog (Toolwright reads the folder with its own reader, not the SDK's node one).
    expect(has(modules, /@modelcontextprotocol\/server\/dist\/ext\/skills\/index\.mjs$/)).toBe(true);
    expect(modules).not.toContain('no-skills:@modelcontextprotocol/server/ext/skills');
    expect(modules).toContain('no-stdio:../stdio/serveStdio');
  });

  it("keeps zod's translations when a file of the app names locales, and has English alone in z.locales when none does", () => {
    writeFileSync(join(dir, 'with-locales.js'), `"use strict";\nconst zod_1 = require("zod");\nexports.french = () => zod_1.z.config(zod_1.z.locales.fr());\n`);
    const kept = bundled('with-locales', `import ${JSON.stringify(join(dir, 'with-locales.js'))};\nexport default { fetch: () => new Response('') };\n`);
    expect(has(kept.modules, /node_modules\/zod\/v4\/locales\/fr\.cjs$/)).toBe(true);
    expect(has(kept.modules, /^zod-english-only:/)).toBe(false);
    // The entry reads z.locales by a computed name, which nothing in the entry or a file names: the index stands in, with English in it, and zod's messages stay English.
    const { modules } = bundled(
      'english-only',
      `import { z } from 'zod';\nconst translations = z['loc' + 'ales'];\nconsole.log(JSON.stringify({ names: Object.keys(translations), en: typeof translations.en, message: z.string().safeParse(1).error.issues[0].message }));\nexport default {};\n`,
    );
    expect(has(modules, /^zod-english-only:/)).toBe(true);
    const printed = execFileSync(process.execPath, [join(dir, 'english-only.mjs')], { encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual({ names: ['en'], en: 'function', message: 'Invalid input: expected string, received number' });
  });

  it("keeps the SDK's default JSON Schema validator when the app's code imports the SDK itself, which may make a Server or call fromJsonSchema() without one", () => {
    writeFileSync(
      join(dir, 'own-sdk.mjs'),
      `import { fromJsonSchema } from '@modelcontextprotocol/server';\nexport const check = (value) => fromJsonSchema({ type: 'integer' })['~standard'].validate(value);\n`,
    );
    const { modules } = bundled(
      'with-sdk',
      `import 'reflect-metadata';\nimport { check } from ${JSON.stringify(join(dir, 'own-sdk.mjs'))};\nimport { createEdgeHandler } from './dist/handler.js';\nglobalThis.check = check;\nexport default { fetch: (request) => createEdgeHandler({ stateless: true }).then((serve) => serve(request)) };\n`,
    );
    expect(has(modules, /@modelcontextprotocol\/server\/dist\/cfWorkerProvider-[\w-]+\.mjs$/)).toBe(true);
    expect(has(modules, /^no-sdk-default-validator:/)).toBe(false);
    // The app's own check runs on the SDK's default validator, and Toolwright's server answers beside it.
    const printed = listTools(join(dir, 'with-sdk.mjs'), [], undefined, "[globalThis.check(1).issues === undefined, globalThis.check('x').issues.length > 0]");
    expect(printed).toContain('status 200');
    expect(printed).toContain('reads [true,true]');
  });

  it('keeps composition, sessions shared through a cluster and the check of overrides when a file of the app names mount, cluster or overrides, leaves bearer authentication out when none names auth; says which is missing when it is left out', () => {
    /** A file that makes an app mounting the edge example's notes under `inner`, naming the option as `key` says. */
    const mounting = (key: string) =>
      `"use strict";\nconst server_1 = require("@toolwright/server");\nconst notes_1 = require(${JSON.stringify(join(ROOT, 'dist', 'notes.tools.js'))});\nexports.outer = async () => server_1.createApp({ name: 'outer', version: '1.0.0', tools: [], ${key}: [{ app: await server_1.createApp({ name: 'inner', version: '1.0.0', tools: [notes_1.NoteTools] }), namespace: 'inner' }] });\n`;
    /** Bundles `file` as a Worker that serves its app, stateless, and runs it in node: what a 2026-07-28 tools/list answers, or the error it fails with. */
    const serve = (name: string, file: string, more = '') => {
      bundled(
        name,
        `import 'reflect-metadata';\nimport { outer } from ${JSON.stringify(file)};\nimport { createFetchHandler } from '@toolwright/server/fetch';\n${more}\nexport default { fetch: (request) => outer().then((app) => createFetchHandler(app, { stateless: true })(request)) };\n`,
      );
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
      const script = `globalThis.process.getBuiltinModule ??= (id) => require(id);\nimport(${JSON.stringify(`file://${join(dir, `${name}.mjs`)}`)}).then((m) => m.default.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: ${JSON.stringify(body)}, headers: ${JSON.stringify(headers)} }))).then((response) => response.text()).then((text) => console.log(JSON.stringify(JSON.parse(text).result.tools.map((tool) => tool.name))), (error) => console.log(error.message));`;
      return execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    };
    writeFileSync(join(dir, 'mounting.js'), mounting('mount'));
    writeFileSync(join(dir, 'names-cluster.js'), `"use strict";\nexports.endpoint = { stateless: false, cluster: undefined };\nexports.context = { overrides: undefined };\n`);
    const served = serve('with-mount', join(dir, 'mounting.js'), `import ${JSON.stringify(join(dir, 'names-cluster.js'))};`);
    const { modules } = bundled('with-mount-modules', `import ${JSON.stringify(join(dir, 'mounting.js'))};\nimport ${JSON.stringify(join(dir, 'names-cluster.js'))};\nexport default {};\n`);
    expect(has(modules, /packages\/server\/esm\/compose\/mountApps\.js$/)).toBe(true);
    expect(has(modules, /packages\/server\/esm\/http\/shareThroughCluster\.js$/)).toBe(true);
    expect(has(modules, /packages\/server\/esm\/compose\/checkOverridesInjected\.js$/)).toBe(true);
    expect(has(modules, /^no-(composition|cluster|overrides-check):/)).toBe(false);
    // No file of it names `auth` or `oauth`: no bearer authentication.
    expect(modules).toEqual(expect.arrayContaining(['no-auth:../auth/authenticateRequest', 'no-auth:../auth/protectedResourceMetadata']));
    expect(JSON.parse(served)).toEqual(expect.arrayContaining(['inner_repeat', 'inner_plan']));
    // The option named by a computed key, which no file names: composition is left out, and createApp says so.
    writeFileSync(join(dir, 'mounting-computed.js'), mounting("['mo' + 'unt']"));
    expect(serve('computed-mount', join(dir, 'mounting-computed.js'))).toContain("Toolwright's composition (createApp({ mount }), app.mount()) is not in this Worker bundle");
  });

  it("keeps the server's node-only code when the Worker imports an entry point that leads into it, and says what is missing when it is left out", () => {
    const { modules } = bundled(
      'with-http',
      `import 'reflect-metadata';\nimport { createEdgeHandler } from './dist/handler.js';\nimport { InMemoryEventStore } from '@toolwright/server/http';\nglobalThis.store = InMemoryEventStore;\nexport default { fetch: (request) => createEdgeHandler({ stateless: true }).then((serve) => serve(request)) };\n`,
    );
    expect(has(modules, /packages\/server\/esm\/http\/serveHttp\.js$/)).toBe(true);
    expect(modules).not.toContain('no-node-only-server:../http/serveHttp');
    // Without it, a node-only feature fails with the reason (app.listen over node's HTTP, here run in node on the bundle).
    const outfile = join(dir, 'listen.mjs');
    run(
      `await bundleWorker({ entry: ${JSON.stringify(
        "import 'reflect-metadata';\nimport { createEdgeApp } from './dist/app.js';\nexport default { listen: () => createEdgeApp().then((app) => app.listen({ transport: 'http', port: 0 })) };\n",
      )}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(outfile)} });`,
    );
    const script = `globalThis.process.getBuiltinModule ??= (id) => require(id);\nimport(${JSON.stringify(`file://${outfile}`)}).then((m) => m.default.listen()).then(() => console.log('listening'), (error) => console.log(error.message));`;
    const said = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(said).toContain("@toolwright/server's node-only code (the node HTTP listener, the test kit, the proxy) is not in this Worker bundle");
  });

  it('leaves jose out of a Worker without auth, and keeps a decorator (with its validator.js check) that a DTO imports from class-validator itself', () => {
    writeFileSync(
      join(dir, 'contact.js'),
      `"use strict";\nconst class_validator_1 = require("class-validator");\nclass Contact {}\n(0, class_validator_1.IsEmail)()(Contact.prototype, 'email');\nexports.Contact = Contact;\n`,
    );
    const { modules, decorators } = bundled(
      'plain',
      `import 'reflect-metadata';\nimport { createEdgeHandler } from './dist/handler.js';\nimport ${JSON.stringify(join(dir, 'contact.js'))};\nexport default { fetch: (request) => createEdgeHandler({ stateless: true }).then((serve) => serve(request)) };\n`,
    );
    expect(has(modules, /node_modules\/jose\//)).toBe(false);
    expect(decorators).toContain('IsEmail');
    expect(has(modules, /node_modules\/validator\/lib\/isEmail\.js$/)).toBe(true);
    expect(has(modules, /node_modules\/libphonenumber-js\//)).toBe(false);
  });
});

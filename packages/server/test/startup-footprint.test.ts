import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * What a server loads before it serves decides its cold start and memory. These run a
 * fresh node process on the built packages (jest's own module registry would hide this).
 */
const ROOT = join(__dirname, '..', '..', '..');

/** The files in node's module cache once `script` (a promise expression) settles, relative to the repo. */
async function loadedFiles(script: string): Promise<string[]> {
  const probe = `${script}.then(() => process.stdout.write(JSON.stringify(Object.keys(require.cache))));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe], { cwd: ROOT });
  return (JSON.parse(stdout) as string[]).map((file) => relative(ROOT, file)).sort();
}

async function loadedPackages(script: string): Promise<string[]> {
  const names = (await loadedFiles(script)).flatMap((f) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []);
  return [...new Set(names)].sort();
}

describe('startup footprint', () => {
  it('does not load class-validator, class-transformer or the HTTP stack for a stdio app without DTOs', async () => {
    const packages = await loadedPackages(`
      require('reflect-metadata');
      const { Param, Tool } = require('@toolwright/core');
      const { createApp } = require('@toolwright/server');
      class Echo { echo(text) { return text; } }
      Param('text', { type: () => String })(Echo.prototype, 'echo', 0);
      Tool({ description: 'Echo' })(Echo.prototype, 'echo', Object.getOwnPropertyDescriptor(Echo.prototype, 'echo'));
      createApp({ name: 'echo', version: '1', tools: [Echo] }).then((app) => app.createServer())`);
    expect(packages).toEqual(expect.arrayContaining(['@modelcontextprotocol/server', 'reflect-metadata']));
    for (const heavy of ['class-validator', 'class-transformer', 'libphonenumber-js', 'hono', '@hono/node-server', 'express', '@opentelemetry/api']) {
      expect(packages).not.toContain(heavy);
    }
  });

  it('does not load the HTTP stack for the weather example over stdio', async () => {
    const packages = await loadedPackages(`require('./examples/weather/dist/app.js').createWeatherApp().then((app) => app.createServer())`);
    expect(packages).toContain('class-validator');
    for (const heavy of ['hono', '@hono/node-server', 'express']) expect(packages).not.toContain(heavy);
  });

  it('leaves Web Crypto unloaded until a 2026-07-28 round signs its first state', async () => {
    const probe = `require('./examples/weather/dist/app.js').createWeatherApp().then((app) => app.createServer())
      .then(() => process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('webcrypto')))));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('leaves node:crypto unloaded at startup (the hand-written SDK servers never load it)', () => {
    // The probe is read from stdin: `node -e` loads node:crypto itself.
    const probe = `require('./examples/weather/dist/app.js').createWeatherApp().then((app) => { app.createServer(); app.createServer({ era: 'modern' }); })
      .then(() => process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (crypto|internal\\/crypto\\/)/.test(m)))));`;
    const { stdout, stderr } = spawnSync(process.execPath, ['-'], { cwd: ROOT, input: probe, encoding: 'utf8' });
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it("serves stdio from the startup bundles: packages/*/bundle/all.js, never the server's lazy.js", () => {
    const { answers, files } = stdioStart(`require('./examples/weather/dist/app.js').createWeatherApp().then((app) => app.listen({ transport: 'stdio' }))`, 'get_weather', { location: 'Tokyo' });
    expect(answers.map((a) => a.id)).toEqual([0, 1, 2]);
    expect(answers.every((a) => !('error' in a))).toBe(true);
    expect(files.filter((f) => f.startsWith('packages/'))).toEqual([
      'packages/core/bundle/all.js',
      'packages/core/bundle/dto.js',
      'packages/core/bundle/index.js',
      'packages/core/bundle/internal.js',
      'packages/server/bundle/all.js',
      'packages/server/bundle/index.js',
    ]);
  });

  it('loads the SDK with @toolwright/server, before the tool classes and their libraries (bench/README.md: why a start schedules incremental marking)', () => {
    const { modules } = weatherStart([]);
    const first = (pattern: RegExp) => modules.findIndex((f) => pattern.test(f));
    const sdk = first(/node_modules\/@modelcontextprotocol\/server\/dist\/index\.cjs$/);
    expect(sdk).toBeGreaterThan(first(/^packages\/server\/bundle\/all\.js$/));
    for (const later of [/^packages\/core\/bundle\/all\.js$/, /node_modules\/typedi\//, /node_modules\/class-validator\//, /^examples\/weather\/dist\/weather\.tools\.js$/]) {
      expect(first(later)).toBeGreaterThan(sdk);
    }
  });

  it("leaves node:util's argument parser unloaded when a server starts without flags (parseListenArgs)", () => {
    const parser = (list: string[]) => list.filter((m) => m.includes('internal/util/parse_args'));
    expect(parser(weatherStart([]).builtins)).toEqual([]);
    // With a flag the parser runs (so the check above can fail).
    expect(parser(weatherStart(['--stdio']).builtins)).not.toEqual([]);
  });

  it('loads the lazy bundle when an HTTP entry point is imported (so the test above can fail)', async () => {
    const files = await loadedFiles(`Promise.resolve(require('@toolwright/server/http'))`);
    expect(files).toContain('packages/server/bundle/lazy.js');
  });

  it('runs no HTTP, fetch, test-kit, auth, middleware, proxy, OAuth or tasks module on a stdio start (tsc output, module by module)', () => {
    // The app module from dist/, the rest from the bundles: require.cache then lists each server module that ran.
    const { answers, files } = stdioStart(
      `require('reflect-metadata');
      const { Param, Tool } = require('@toolwright/core');
      const { createApp } = require('./packages/server/dist/app/createApp.js');
      class Echo { echo(text) { return text; } }
      Param('text', { type: () => String })(Echo.prototype, 'echo', 0);
      Tool({ description: 'Echo' })(Echo.prototype, 'echo', Object.getOwnPropertyDescriptor(Echo.prototype, 'echo'));
      createApp({ name: 'echo', version: '1', tools: [Echo] }).then((app) => app.listen({ transport: 'stdio' }))`,
      'echo',
      { text: 'hi' },
    );
    expect(answers.every((a) => !('error' in a))).toBe(true);
    const modules = files.flatMap((f) => /^packages\/server\/dist\/(.+)\.js$/.exec(f)?.[1] ?? []);
    expect(modules).toEqual(expect.arrayContaining(['app/createApp', 'stdio/serveStdio', 'handlers/registerToolHandlers']));
    const unused = /^(http|fetch|testing|middleware|proxy|compose\/proxy|extensions\/(tasks|skills))\/|^auth\/(?!canAccess$|createListFilter$)|^sdk\/(client|createSdkStreamableTransport)/;
    expect(modules.filter((m) => unused.test(m))).toEqual([]);
    const packages = files.flatMap((f) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []);
    for (const heavy of ['jose', '@toolwright/oauth', '@modelcontextprotocol/node', '@modelcontextprotocol/client', 'hono', '@hono/node-server', 'express', '@opentelemetry/api']) {
      expect(packages).not.toContain(heavy);
    }
  });

  it('runs no stdio, composition, tracing or view-file module for an app answering through fetch until one is used (tsc output, module by module)', async () => {
    // The weather example's tools, served by app.fetch (a Worker's path): stdio, mount, telemetry and
    // @UiResource's file reader are loaded by the apps that use them, never by createApp itself.
    const served = `
      require('reflect-metadata');
      const { createApp } = require('./packages/server/dist/app/createApp.js');
      const { WeatherTools } = require('./examples/weather/dist/weather.tools.js');
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'footprint', version: '1' } };
      const call = (app) => app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Tokyo' }, _meta: meta } }) }))
        .then((response) => response.json()).then((answer) => { if (!answer.result || answer.result.isError) throw new Error(JSON.stringify(answer)); });`;
    const modules = (files: string[]) => files.flatMap((f) => /^packages\/server\/dist\/(.+)\.js$/.exec(f)?.[1] ?? []);
    // compose/MountSource stays: it records every app as one that others may mount.
    const lazy = /^stdio\/|^compose\/(?!MountSource$)|^handlers\/tracedServerClass$|^telemetry\/traceRequest$|^extensions\/apps\/viewFileReader$|^app\/loadToolFiles$/;
    const plain = modules(await loadedFiles(`${served}\ncreateApp({ name: 'w', version: '1', tools: [WeatherTools] }).then(call)`));
    expect(plain).toEqual(expect.arrayContaining(['app/createApp', 'fetch/createAppFetch', 'handlers/registerToolHandlers']));
    expect(plain.filter((m) => lazy.test(m))).toEqual([]);
    // The same app mounting another loads composition, and one naming its tools by glob the file walk (so the check above can fail).
    const mounting = modules(
      await loadedFiles(
        `${served}\ncreateApp({ name: 'inner', version: '1', tools: [WeatherTools] }).then((inner) => createApp({ name: 'w', version: '1', tools: [], mount: [{ app: inner, namespace: 'inner' }] })).then(() => undefined)`,
      ),
    );
    expect(mounting).toContain('compose/mountApps');
    const globbed = modules(await loadedFiles(`${served}\ncreateApp({ name: 'w', version: '1', tools: ['examples/weather/dist/weather.tools.js'] }).then(call)`));
    expect(globbed).toContain('app/loadToolFiles');
  });

  it("keeps the server's HTTP, fetch, test-kit, auth, middleware and proxy code out of its startup bundle, each module in one bundle", () => {
    const sources = (file: string) =>
      (JSON.parse(readFileSync(join(ROOT, 'packages', 'server', 'bundle', `${file}.map`), 'utf8')) as { sources: string[] }).sources.flatMap((s) => /\/src\/(.+)\.ts$/.exec(s)?.[1] ?? []);
    const startup = sources('all.js');
    const web = sources('web.js');
    const lazy = sources('lazy.js');
    expect(startup).toEqual(expect.arrayContaining(['app/createApp', 'stdio/serveStdio', 'stdio/StdioTransport']));
    const stdioNeverRuns = /^(http|fetch|testing|middleware|proxy|compose\/proxy)\/|^auth\/(?!canAccess$|createListFilter$)/;
    expect(startup.filter((m) => stdioNeverRuns.test(m))).toEqual([]);
    // The web-standard path (Deno, Bun, Workers) in web.js; the node listener, the test kit and the proxy in lazy.js.
    expect(web).toEqual(
      expect.arrayContaining([
        'fetch/createFetchHandler',
        'fetch/createAppFetch',
        'http/createRequestRules',
        'middleware/rateLimit',
        'auth/jwtVerifier',
        'compose/mountApps',
        'ground/importModule',
        'app/loadToolFiles',
      ]),
    );
    expect(lazy).toEqual(expect.arrayContaining(['http/serveHttp', 'http/createHttpHandler', 'testing/createTestClient', 'compose/proxy/proxyServer']));
    expect(web.filter((m) => /^(stdio|testing|proxy|compose\/proxy)\/|^http\/serveHttp$/.test(m))).toEqual([]);
    expect(lazy.filter((m) => startup.includes(m) || web.includes(m))).toEqual([]);
    expect(web.filter((m) => startup.includes(m))).toEqual([]);
    // A Worker bundle leaves lazy.js out (examples/edge's bundleWorker): the only way into it from the
    // other bundles must be the node HTTP listener, which app.listen({ transport: 'http' }) requires.
    const { moduleGraph } = require(join(ROOT, 'scripts', 'bundle-packages.js')) as { moduleGraph: (files: string[]) => { imports: Map<string, Set<string>> } };
    const dist = join(ROOT, 'packages', 'server', 'dist');
    const graph = moduleGraph(['index', 'stdio/index', 'fetch/index', 'http/index', 'testing/index', 'auth/index', 'middleware/index', 'proxy/index'].map((m) => join(dist, `${m}.js`)));
    const into = [...startup, ...sources('extensions.js'), ...web].flatMap((m) =>
      [...(graph.imports.get(join(dist, `${m}.js`)) ?? [])]
        .map((file) => relative(dist, file).replace(/\.js$/, ''))
        .filter((to) => lazy.includes(to))
        .map((to) => `${m} -> ${to}`),
    );
    expect(into).toEqual(['app/createApp -> http/serveHttp']);
  });

  it('answers through the fetch handler and app.fetch from all.js and web.js, never lazy.js (what Deno and Bun read)', async () => {
    const files = await loadedFiles(`
      require('reflect-metadata');
      const { createApp } = require('@toolwright/server');
      const { createFetchHandler } = require('@toolwright/server/fetch');
      const { WeatherTools } = require('./examples/weather/dist/weather.tools.js');
      const { NotesTools } = require('./examples/weather/dist/notes.tools.js');
      const { ERAS } = require('./bench/edge/requests.js');
      const post = (serve, body, headers) => serve(new Request('http://127.0.0.1/mcp', { method: 'POST', body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }));
      const answered = async (response) => { const text = await response.text(); if (response.status !== 200 || !text.includes('"result"')) throw new Error(response.status + ' ' + text); return response; };
      const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'footprint', version: '1' } } };
      createApp({ name: 'w', version: '1', tools: [WeatherTools, NotesTools] }).then(async (app) => {
        for (const { body, headers } of Object.values(ERAS)) await answered(await post(createFetchHandler(app, { stateless: true }), JSON.parse(body), headers));
        await answered(await post((request) => app.fetch(request), JSON.parse(ERAS['2026-07-28'].body), ERAS['2026-07-28'].headers));
        // A 2025-11-25 session: initialize, then a call in it.
        const sessions = createFetchHandler(app);
        const session = (await answered(await post(sessions, initialize, {}))).headers.get('mcp-session-id');
        await answered(await post(sessions, JSON.parse(ERAS['2025-11-25'].body), { ...ERAS['2025-11-25'].headers, 'mcp-session-id': session }));
        await sessions.close();
      })`);
    const bundles = files.filter((f) => f.startsWith('packages/server/bundle/'));
    expect(bundles).toEqual(expect.arrayContaining(['packages/server/bundle/all.js', 'packages/server/bundle/web.js']));
    expect(bundles).not.toContain('packages/server/bundle/lazy.js');
  });

  it("reads no import of @toolwright/core/dto's loaders while the module loads (a Worker then starts with 20% more instructions)", () => {
    const emitted = readFileSync(join(ROOT, 'packages', 'core', 'dist', 'dto', 'index.js'), 'utf8');
    expect(emitted).toMatch(/onDemand\(name, loadValidator\)/);
    expect(emitted).not.toMatch(/onDemand\(name, class_(validator|transformer)_1\./);
  });

  it('keeps the tasks and skills extensions in their own bundle, read when an app first uses one', async () => {
    const sources = (pkg: string, file: string) =>
      (JSON.parse(readFileSync(join(ROOT, 'packages', pkg, 'bundle', `${file}.map`), 'utf8')) as { sources: string[] }).sources.flatMap((s) => /\/src\/(.+)\.ts$/.exec(s)?.[1] ?? []);
    const extensions = sources('server', 'extensions.js');
    expect(extensions).toEqual(expect.arrayContaining(['extensions/tasks/tasks', 'extensions/tasks/TaskRunner', 'extensions/skills/skills']));
    expect(extensions.filter((m) => ['all.js', 'web.js', 'lazy.js'].some((file) => sources('server', file).includes(m)))).toEqual([]);
    expect(sources('core', 'extensions.js')).toEqual(expect.arrayContaining(['metadata/toolTaskMode', 'elicit/compileElicitationForm']));
    expect(sources('core', 'all.js')).not.toContain('metadata/toolTaskMode');
    // Reading `tasks` from the entry point loads it (the stdio start above lists no extensions.js).
    const files = await loadedFiles(`Promise.resolve(require('@toolwright/server').tasks)`);
    expect(files).toContain('packages/server/bundle/extensions.js');
  });

  it.each(['core/bundle/all.js', 'server/bundle/all.js', 'server/bundle/web.js', 'server/bundle/lazy.js', 'server/bundle/extensions.js'])(
    "writes each module of %s as a parenthesized function, which V8 compiles with the file (so Node's compile cache holds it)",
    (file) => {
      const source = readFileSync(join(ROOT, 'packages', file), 'utf8');
      const wrappers = source.match(/=__commonJS\(\{"[^"\n]+"/g) ?? [];
      expect(wrappers.length).toBeGreaterThan(file.endsWith('extensions.js') ? 5 : 20);
      expect(source.match(/=__commonJS\(\{"[^"\n]+":\(function\(/g)).toHaveLength(wrappers.length);
    },
  );

  it('names in scripts/compile-hints.json exactly the module-level functions that a stdio start runs, in both eras', () => {
    const check = spawnSync(process.execPath, [join(ROOT, 'scripts/record-compile-hints.js'), '--check'], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('writes each function of the compile hints at the top of its module in parentheses, so V8 compiles it with the bundle', () => {
    const hints = JSON.parse(readFileSync(join(ROOT, 'scripts/compile-hints.json'), 'utf8')) as Record<string, string[]>;
    const bundles = ['core/bundle/all.js', 'server/bundle/all.js'].map((file) => readFileSync(join(ROOT, 'packages', file), 'utf8')).join('\n');
    const names = Object.values(hints).flat();
    expect(names.length).toBeGreaterThan(100);
    const missing = names.filter((name) => !new RegExp(`var ${name.replace(/\$/g, '\\$')}=\\((async )?function ${name.replace(/\$/g, '\\$')}\\(`).test(bundles));
    expect(missing).toEqual([]);
  });

  it.each(['core/bundle/all.js', 'server/bundle/all.js', 'server/bundle/web.js', 'server/bundle/lazy.js', 'server/bundle/extensions.js'])(
    'maps every function of the minified %s back to its line in src/ (stack traces under --enable-source-maps)',
    (file) => {
      const generated = readFileSync(join(ROOT, 'packages', file), 'utf8');
      const map = new SourceMap(JSON.parse(readFileSync(join(ROOT, 'packages', `${file}.map`), 'utf8')) as SourceMapPayload);
      const lines = generated.split('\n');
      let checked = 0;
      lines.forEach((line, lineNumber) => {
        for (const found of line.matchAll(/function ([A-Za-z_$][\w$]*)\(/g)) {
          const entry = map.findEntry(lineNumber, found.index) as { originalSource?: string; originalLine?: number };
          if (!entry.originalSource?.endsWith('.ts')) continue; // esbuild's own helpers
          const sourceFile = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : join(ROOT, 'packages', dirname(file), entry.originalSource);
          const original = readFileSync(sourceFile, 'utf8').split('\n')[entry.originalLine!];
          expect(`${entry.originalSource}:${entry.originalLine! + 1}: ${original}`).toContain(found[1]);
          checked++;
        }
      });
      expect(checked).toBeGreaterThan(file.endsWith('all.js') ? 100 : file.endsWith('extensions.js') ? 10 : 50);
    },
  );
});

interface Answer {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: unknown;
}

/**
 * A real stdio start: `script` (which listens on stdio) reads an initialize, a tools/call of each
 * era, then end of input; the files in node's module cache when the process exits, relative to the repo.
 */
function stdioStart(script: string, tool: string, args: Record<string, unknown>): { answers: Answer[]; files: string[] } {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'footprint', version: '1' },
  };
  const input = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'footprint', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args, _meta: meta } },
  ]
    .map((m) => `${JSON.stringify(m)}\n`)
    .join('');
  const probe = `process.on('exit', () => process.stderr.write('\\nFILES ' + JSON.stringify(Object.keys(require.cache))));\n${script};`;
  const { stdout, stderr } = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, input, encoding: 'utf8' });
  const listed = /\nFILES (.+)$/.exec(stderr);
  if (!listed) throw new Error(`the stdio probe listed no files; stderr:\n${stderr}`);
  const answers = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Answer)
    .sort((a, b) => a.id - b.id);
  return { answers, files: (JSON.parse(listed[1]) as string[]).map((file) => relative(ROOT, file)).sort() };
}

/**
 * The weather example's own entry (`examples/weather/dist/server.js`) started with `flags`: it
 * answers an initialize and exits at end of input. Node's module cache in load order (relative to
 * the repo) and its list of built-in modules loaded, at exit.
 */
function weatherStart(flags: string[]): { modules: string[]; builtins: string[] } {
  const probe = join(ROOT, 'bench', 'gc-probe.js'); // any preload works; this one loads nothing but node:v8
  const input = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'footprint', version: '1' } } })}\n`;
  const report = `process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify({ modules: Object.keys(require.cache), builtins: process.moduleLoadList })));`;
  const server = join(ROOT, 'examples', 'weather', 'dist', 'server.js');
  // As if started as `node server.js <flags>`: parseListenArgs reads process.argv.
  const start = `process.argv = [process.argv[0], ${JSON.stringify(server)}, ...${JSON.stringify(flags)}];\nrequire(${JSON.stringify(server)});`;
  const { stdout, stderr } = spawnSync(process.execPath, ['-r', probe, '-e', `${report}\n${start}`], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    env: { ...process.env, TOOLWRIGHT_COMPILE_CACHE: 'off' },
  });
  const listed = /\nLOADED (.+)$/.exec(stderr);
  if (!listed || !stdout.includes('"result"')) throw new Error(`the weather server did not answer; stdout:\n${stdout}\nstderr:\n${stderr}`);
  const loaded = JSON.parse(listed[1]) as { modules: string[]; builtins: string[] };
  return { modules: loaded.modules.map((file) => relative(ROOT, file)), builtins: loaded.builtins };
}

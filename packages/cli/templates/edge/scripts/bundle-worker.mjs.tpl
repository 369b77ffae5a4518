// Bundles the app into one ES module for workerd: dist-worker/worker.mjs. tsc compiles it once more,
// as ES modules (dist-worker/esm/, decorator metadata included; from tsc's CommonJS in dist/ the
// Worker would be bigger and start slower), and esbuild joins that JavaScript: it never sees the
// TypeScript, so no metadata is lost (esbuild drops it from TypeScript). Node's built-in modules
// are left to the runtime: the Worker runs with the nodejs_compat flag.
//
// Toolwright's packages offer their ES module build to Worker bundlers (the `workerd` export
// condition; `esm/`, beside the CommonJS `bundle/` that Node, Deno and Bun load). From it esbuild
// keeps only what the app reaches, of Toolwright and of the SDK and zod, whose ES module builds
// Toolwright's imports lead to: a Worker about a quarter smaller than from the CommonJS build, which
// brings each whole. Older releases, with `bundle/` alone, are bundled too. emitEsModules() has tsc
// compile the app itself as ES modules for the entry to import (see there why).
//
// A Worker parses its whole script on every cold start, so the bundle leaves out what the app can
// never run. It is built twice: the first build (not written) says what the app's code reaches,
// the second leaves out the optional modules nothing reaches:
// - jose, unless the app imports `@toolwright/server/auth` (jwtVerifier loads it);
// - @opentelemetry/api, unless code other than Toolwright's imports it (Toolwright records spans
//   only once a provider is registered with the API, which needs the app's own import of it), and
//   with it Toolwright's tracing;
// - @toolwright/server's node-only code (the node HTTP listener, the test kit, the proxy: lazy.js
//   of the CommonJS build, what `app.listen({ transport: 'http' })` loads in the ES module one),
//   unless the app imports one of the entry points that lead into it (`@toolwright/server/http`,
//   `/testing`, `/proxy`); a Worker serves through the web-standard path;
// - class-validator's decorators that no DTO uses, with validator.js and libphonenumber-js that
//   they bring, and the modules of those decorators (see usedClassValidator below);
// - the SDK's stdio transport and Toolwright's (a Worker has no standard input), and the SDK's Skills
//   extension unless a file of the app names skills().
// - zod's translations of its messages into 60-odd languages (a fifth of the Worker), unless a
//   file outside zod names `locales`; zod's English, which the SDK and Toolwright use, stays.
// - parts of @toolwright/server that only an option or a method of the app leads into, each unless
//   a file of the app (or of a package that imports the server) names the word that leads into it
//   (see OPTIONAL_PARTS): composition (`mount`), sessions shared through a cluster (`cluster`),
//   bearer authentication (`auth`, `oauth`) and the check of service overrides (`overrides`);
// - resources, prompts, their completions and tool transforms, when the Worker holds none of the
//   decorators that record them (esbuild keeps a decorator only when code calls it) and no file
//   that names the metadata key they record under (see DECORATED_PARTS);
// - the SDK's default JSON Schema validator on workerd (@cfworker/json-schema's), when every server
//   Toolwright makes is given Toolwright's own (its ES module build has sdk/schemaValidatorProvider)
//   and nothing but Toolwright imports the SDK: the SDK makes its default only for a `Server` given
//   no validator, or for `fromJsonSchema()` called without one.
// It is written without indentation, line breaks or comments (names stay, for stack traces; the
// licences esbuild gathers at the end stay too), with a source map beside it (worker.mjs.map): a quarter less text to parse, and all of it ASCII, which
// V8 reads one byte a character (the comments of the SDK and zod hold a few dashes that made V8
// decode the whole script to two bytes a character).
// The functions a start runs are written so that V8 compiles them with the script, not parsed twice
// (see COMPILE_HINTS).
//
// Each file is written whole under a temporary name in its folder, then renamed over the old one,
// the source map first (see writeWhole): Deno, Bun or wrangler reading the Worker while a build
// runs (a test, a dev server) get the old file or the new one, never a half-written one.
import { build, transform } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name esbuild gives the entry, which is text (`stdin`), not a file. */
const ENTRY_NAME = 'worker-entry.mjs';
/** A file of @toolwright/server's builds: `bundle/*.js` (CommonJS) or a file under `esm/` (ES modules). */
const SERVER_BUNDLE = /[\\/]server[\\/](?:bundle[\\/][\w-]+|esm[\\/].+)\.js$/;
const CORE_BUNDLE = /[\\/]core[\\/](?:bundle[\\/][\w-]+|esm[\\/].+)\.js$/;
/** The entry points of the server's node-only code, in either build. */
const NODE_ONLY_ENTRY = /[\\/]server[\\/](?:bundle[\\/](http|testing|proxy)|esm[\\/](http|testing|proxy)[\\/]index)\.js$/;
const ZOD_FILE = /(^|[\\/])node_modules[\\/]zod[\\/]/;
/** A file of the SDK's server package (`@modelcontextprotocol/server`). */
const SDK_SERVER_FILE = /(^|[\\/])node_modules[\\/]@modelcontextprotocol[\\/]server[\\/]/;

/**
 * Toolwright loads optional modules with an `import()` of a name known at run time (`jose` for
 * jwtVerifier, tool files named by glob). A Worker can only import what the bundle holds:
 * `jose` is bundled when the app imports `@toolwright/server/auth`, anything else is refused with a message.
 */
const staticImports = (withJose) => ({
  name: 'static-imports',
  setup(build) {
    // No `;` after it: the bundle may be minified (`{return import(specifier)}`).
    const dynamic = 'return import(specifier)';
    const refuse = 'Promise.reject(new Error(`Cannot import ${specifier} in a Worker: only what the bundle holds is there. Name tool classes in createApp({ tools }) instead of a glob.`))';
    const fixed = withJose ? `return specifier === 'jose' ? import('jose') : ${refuse}` : `return ${refuse}`;
    let seen = 0;
    let replaced = 0;
    // Whichever of the server's bundle files holds it (the package may split its bundle in several files).
    build.onLoad({ filter: SERVER_BUNDLE }, async (args) => {
      seen++;
      let source = await readFile(args.path, 'utf8');
      // jwtVerifier's own `require("jose")` (`require('jose')` in the ES module build), unreachable when nothing imports @toolwright/server/auth.
      if (!withJose) source = source.replace(/require\((["'])jose\1\)/g, '(() => { throw new Error("jose is not in this Worker bundle: nothing imports @toolwright/server/auth."); })()');
      if (!source.includes(dynamic)) return { contents: source, loader: 'js' };
      replaced++;
      return { contents: source.replace(dynamic, fixed), loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && seen > 0 && replaced === 0)
        throw new Error(`bundle-worker: no file of @toolwright/server's bundle has '${dynamic}' any more; update scripts/bundle-worker.mjs.`);
    });
  },
});

/**
 * class-transformer ships two builds, each with its own metadata storage: CommonJS (`main`) and
 * ES modules (`module`, which a browser-like bundle picks for `import ... from 'class-transformer'`).
 * Toolwright reads `@Type`, `@Expose` and `@Exclude` from the CommonJS build's storage, so the
 * app's own imports of class-transformer are resolved to that build too: one storage, where
 * `@Type(() => X)` is found however it was imported.
 */
const oneClassTransformer = {
  name: 'one-class-transformer',
  setup(build) {
    build.onResolve({ filter: /^class-transformer$/ }, (args) => build.resolve('class-transformer/cjs/index.js', { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer }));
  },
};

/**
 * A module left out of the Worker (`filter`, required or imported from a file that `from` matches).
 * Where the module is CommonJS (or required), loading it throws `message`: the stand-in is
 * CommonJS too, whose exports are known only when it runs, so importing names from it bundles
 * without a warning. Where it is an ES module, which Toolwright's ES module build imports up front,
 * the stand-in has the same exports, each a function that throws `message` when called.
 */
const leftOut = (name, filter, message, from = /./) => ({
  name,
  setup(build) {
    build.onResolve({ filter }, async (args) => {
      if (args.pluginData === name || !from.test(args.importer)) return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: name });
      const esm = args.kind === 'import-statement' && real.errors.length === 0 && /\.m?js$/.test(real.path) && (await isEsModule(real.path));
      return { path: args.path, namespace: name, pluginData: esm ? real.path : undefined };
    });
    build.onLoad({ filter: /.*/, namespace: name }, async (args) => {
      const thrower = `throw new Error(${JSON.stringify(message)});`;
      if (args.pluginData === undefined) return { contents: `${thrower}\nmodule.exports = {};`, loader: 'js' };
      const names = await exportNames(args.pluginData);
      return { contents: names.map((n) => (n === 'default' ? `export default function () { ${thrower} }` : `export function ${n}() { ${thrower} }`)).join('\n'), loader: 'js' };
    });
  },
});

/** Whether `file` is an ES module: an `.mjs` file, or a `.js` file whose nearest package.json says `"type": "module"`. */
async function isEsModule(file) {
  if (file.endsWith('.mjs')) return true;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = await readFile(resolve(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (pkg !== undefined) return JSON.parse(pkg).type === 'module';
  }
  return false;
}

/** The names an ES module exports, as esbuild reads them from the file alone. */
async function exportNames(file) {
  const result = await build({ entryPoints: [file], bundle: false, write: false, metafile: true, format: 'esm', logLevel: 'silent' });
  return Object.values(result.metafile.outputs)[0].exports;
}

/** `@opentelemetry/api` left out: Toolwright's `require` of it throws, which it reads as "not installed". */
const noTelemetry = leftOut('no-telemetry', /^@opentelemetry\/api$/, '@opentelemetry/api is not in this Worker bundle: nothing in the app imports it.');

/**
 * The server's node-only code left out: lazy.js, which only the node HTTP listener, the test kit and
 * the proxy would require, or in the ES module build the node HTTP listener, which only
 * `app.listen({ transport: 'http' })` requires.
 */
const noNodeOnlyServer = leftOut(
  'no-node-only-server',
  /^(?:\.\/lazy\.js|\.\.\/http\/serveHttp)$/,
  "@toolwright/server's node-only code (the node HTTP listener, the test kit, the proxy) is not in this Worker bundle: a Worker serves through createFetchHandler or app.fetch. If you need it, import the entry point that has it (@toolwright/server/http, /testing or /proxy) in the Worker's code.",
  SERVER_BUNDLE,
);

/**
 * The stdio transports left out, the SDK's and (in the ES module build, where `app.listen({ transport:
 * 'stdio' })` requires it) Toolwright's: a Worker cannot serve stdio (it has no standard input).
 */
const noStdio = leftOut(
  'no-stdio',
  /^(?:@modelcontextprotocol\/server\/stdio|\.\.\/stdio\/serveStdio)$/,
  'A Worker cannot serve stdio: it has no standard input. Serve the app with createFetchHandler or app.fetch.',
  SERVER_BUNDLE,
);

/**
 * Toolwright's tracing left out with `@opentelemetry/api` (see noTelemetry): only a connection with
 * telemetry to record loads it, and without the API none has any.
 */
const noTracing = leftOut('no-tracing', /^\.\.\/handlers\/tracedServerClass$/, "Toolwright's tracing is not in this Worker bundle: nothing in the app imports @opentelemetry/api.", SERVER_BUNDLE);

/** The SDK's Skills extension left out: only `skills()` loads it, and nothing in the app's code names it. */
const noSkills = leftOut(
  'no-skills',
  /^@modelcontextprotocol\/server\/ext\/skills(\/node)?$/,
  "The SDK's Skills extension is not in this Worker bundle: nothing in the app's code names skills().",
  SERVER_BUNDLE,
);

/** A file of @toolwright/server's ES module build. */
const SERVER_ESM = /[\\/]server[\\/]esm[\\/].+\.js$/;

/**
 * Parts of @toolwright/server's ES module build that only an option or a method the app uses leads
 * into (its CommonJS build requires them on first use; the ES module one imports them up front).
 * Each is left out (where a file that `from` matches imports it), its exports functions that throw
 * `message`, unless a file of the app's, or of a package that imports Toolwright, names `word`: an
 * app that mounts apps names `mount` (`createApp({ mount })`, `app.mount()`), one that shares
 * sessions names `cluster`, one that authenticates names `auth` or `oauth` (the endpoint's `auth`,
 * createApp's `oauth`), one that replaces services for a server names `overrides`.
 */
const OPTIONAL_PARTS = [
  {
    name: 'no-composition',
    modules: /^\.\.\/compose\/(?:mountApps|mountLater|holdMounted)$/,
    word: /\bmount\b/,
    message:
      "Toolwright's composition (createApp({ mount }), app.mount()) is not in this Worker bundle: no file of the app names `mount`. Mount the apps in a file of the Worker's code that names it, and bundle again.",
  },
  {
    name: 'no-cluster',
    modules: /^\.\/shareThroughCluster$/,
    word: /\bcluster\b/,
    message:
      "Toolwright's sessions shared through a cluster are not in this Worker bundle: no file of the app names `cluster`. Pass the endpoint's `cluster` option in a file of the Worker's code, and bundle again.",
  },
  {
    name: 'no-auth',
    modules: /^\.\.\/auth\/(?:authenticateRequest|protectedResourceMetadata)$/,
    word: /\b(?:auth|oauth)\b/,
    message:
      "Toolwright's bearer authentication is not in this Worker bundle: no file of the app names `auth` or `oauth`. Pass the endpoint's `auth` option (or createApp's `oauth`) in a file of the Worker's code, and bundle again.",
  },
  {
    // createApp's check of `overrides` (createServer(), connect()); the test kit's own stays.
    name: 'no-overrides-check',
    modules: /^\.\.\/compose\/checkOverridesInjected$/,
    from: /[\\/]server[\\/]esm[\\/]app[\\/]createApp\.js$/,
    word: /\boverrides\b/,
    message:
      "Toolwright's check of service overrides is not in this Worker bundle: no file of the app names `overrides`. Pass them (createServer({ overrides }), connect(transport, { overrides })) in a file of the Worker's code, and bundle again.",
  },
].map((part) => ({ ...part, plugin: leftOut(part.name, part.modules, part.message, part.from ?? SERVER_ESM) }));

/**
 * A file of @toolwright/core's (or @toolwright/server's) ES module build: `esm/<path>.js`, `path` a
 * pattern whose `/` matches either separator (esbuild names files with `\` on Windows).
 */
const esmFile = (pkg, path) => new RegExp(`[\\\\/]${pkg}[\\\\/]esm[\\\\/]${path.replaceAll('/', '[\\\\/]')}\\.js$`);
const coreEsm = (path) => esmFile('core', path);
const serverEsm = (path) => esmFile('server', path);

/**
 * Parts of Toolwright's ES module build that only what a decorator records leads into: resources
 * (`@Resource`, `@UiResource`), prompts (`@Prompt`), the completions of their arguments (served
 * for resource templates and prompts alone), and tool transforms (`@TransformTools`). The build
 * finds a member only by the record on its class (own metadata under `keys`, the keys of
 * packages/core/src/metadata/keys.ts), and the server serves a kind of member only when its
 * catalog holds one. esbuild keeps a decorator in the Worker only when code calls it, so a part
 * stays when the first build's output holds one of its `markers`. Code that records under a part's
 * key without them (a dependency published with its own copy of Toolwright's decorators inlined)
 * writes the key's text, so a part also stays when a file the output holds, other than core's own
 * metadata/keys.js, has one of its `keys`. Otherwise no class in the Worker can carry the record,
 * and the part is left out (where a file that `from` matches imports it), its exports functions
 * that throw `message`. Mounted apps are made by createApp from decorated classes too. Two things
 * keep every part: the proxy, whose members are an upstream server's, and a CommonJS build of
 * Toolwright in the Worker, whose decorators record under the same keys without esbuild dropping any.
 */
const KEEP_ALL_PARTS = [serverEsm('compose/proxy/.+'), /[\\/](?:core|server)[\\/]bundle[\\/][\w-]+\.js$/];
/** Core's own metadata keys, which its registry reads whatever the app decorates: not a record. */
const CORE_KEYS = coreEsm('metadata/keys');
/** How a stand-in's message ends: what to do when a dependency records members in a way the bundler cannot see. */
const FROM_A_DEPENDENCY = ", or, if a dependency's code records them, report it to Toolwright.";
const DECORATED_PARTS = [
  {
    // With the reader of a view's file (`@UiResource({ file })`), which createApp hands the build.
    name: 'no-resources',
    modules: /^(?:\.\/buildResource|\.\.\/handlers\/registerResourceHandlers|\.\.\/extensions\/apps\/viewFileReader)$/,
    from: /[\\/](?:core[\\/]esm[\\/]registry[\\/]collectMembers|server[\\/]esm[\\/](?:surface[\\/]Surface|app[\\/]createApp))\.js$/,
    markers: [coreEsm('decorators/(?:Resource|UiResource)')],
    keys: ['toolwright:resources'],
    message: `Toolwright's resources are not in this Worker bundle: nothing in it calls @Resource or @UiResource from @toolwright/core or names their metadata key 'toolwright:resources'. Decorate the resources with them, imported from @toolwright/core in the Worker's code, and bundle again${FROM_A_DEPENDENCY}`,
  },
  {
    name: 'no-prompts',
    modules: /^(?:\.\/buildPrompt|\.\.\/handlers\/registerPromptHandlers)$/,
    from: /[\\/](?:core[\\/]esm[\\/]registry[\\/]collectMembers|server[\\/]esm[\\/]surface[\\/]Surface)\.js$/,
    markers: [coreEsm('decorators/Prompt')],
    keys: ['toolwright:prompts'],
    message: `Toolwright's prompts are not in this Worker bundle: nothing in it calls @Prompt from @toolwright/core or names its metadata key 'toolwright:prompts'. Decorate the prompts with it, imported from @toolwright/core in the Worker's code, and bundle again${FROM_A_DEPENDENCY}`,
  },
  {
    // With the completers of their arguments, which the build compiles for them alone.
    name: 'no-completions',
    modules: /^(?:\.\.\/handlers\/registerCompletionHandler|\.\.\/invoke\/compileCompleter)$/,
    from: /[\\/](?:core[\\/]esm[\\/]registry[\\/]buildMemberParams|server[\\/]esm[\\/]surface[\\/]Surface)\.js$/,
    markers: [coreEsm('decorators/(?:Resource|UiResource|Prompt)')],
    keys: ['toolwright:resources', 'toolwright:prompts'],
    message: `Toolwright's completions are not in this Worker bundle: nothing in it calls @Resource, @UiResource or @Prompt from @toolwright/core or names their metadata keys ('toolwright:resources', 'toolwright:prompts'). Decorate the members with them, imported from @toolwright/core in the Worker's code, and bundle again${FROM_A_DEPENDENCY}`,
  },
  {
    // A mount's own transforms reach transformTool through their own import, which stays.
    name: 'no-transforms',
    modules: /^\.\.\/transform\/transformTool$/,
    from: coreEsm('registry/buildRegistry'),
    markers: [coreEsm('decorators/TransformTools')],
    keys: ['toolwright:transforms'],
    message: `Toolwright's tool transforms are not in this Worker bundle: nothing in it calls @TransformTools from @toolwright/core or names its metadata key 'toolwright:transforms'. Import it from @toolwright/core in the Worker's code, and bundle again${FROM_A_DEPENDENCY}`,
  },
].map((part) => ({ ...part, plugin: leftOut(part.name, part.modules, part.message, part.from) }));

/**
 * The names of the DECORATED_PARTS that stay, from the first build's `metafile`: those whose
 * markers the output holds, or whose keys a file it holds has (`sourceOf(file)`, its text, read only
 * when a marker does not already keep the part; see sourceReader).
 */
async function decoratedPartsKept(metafile, sourceOf) {
  const held = Object.values(metafile.outputs)
    .flatMap((output) => Object.entries(output.inputs ?? {}))
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  if (held.some((file) => KEEP_ALL_PARTS.some((pattern) => pattern.test(file)))) return new Set(DECORATED_PARTS.map((part) => part.name));
  const kept = new Set(DECORATED_PARTS.filter((part) => held.some((file) => part.markers.some((marker) => marker.test(file)))).map((part) => part.name));
  const keys = [...new Set(DECORATED_PARTS.filter((part) => !kept.has(part.name)).flatMap((part) => part.keys))];
  if (keys.length === 0) return kept;
  const named = new Set();
  // One file at a time (a few hundred reads at once run out of file handles where the limit is 256); a
  // plugin's module (`namespace:path`) has no file. A file that cannot be read might name a key: every part stays.
  for (const file of new Set(held)) {
    if (file.includes(':') || CORE_KEYS.test(file)) continue;
    const source = await sourceOf(file);
    if (source === undefined) return new Set(DECORATED_PARTS.map((part) => part.name));
    for (const key of keys) if (source.includes(key)) named.add(key);
  }
  for (const part of DECORATED_PARTS) if (part.keys.some((key) => named.has(key))) kept.add(part.name);
  return kept;
}

/**
 * The SDK's default JSON Schema validator for workerd left out: the ES module file of
 * @cfworker/json-schema's provider that the SDK's workerd shims import. The SDK constructs it only
 * for a `Server` given no `jsonSchemaValidator` and in `fromJsonSchema()` without a validator;
 * Toolwright gives every server its own and calls neither. In its place, a class that throws
 * this message when constructed. (The CommonJS build requires it as the shims load: kept there.)
 */
const noSdkDefaultValidator = leftOut(
  'no-sdk-default-validator',
  /^\.\/cfWorkerProvider-[\w-]+\.mjs$/,
  "The MCP SDK's default JSON Schema validator is not in this Worker bundle: Toolwright gives each of its servers its own. Pass a jsonSchemaValidator to the SDK's Server or fromJsonSchema() if the app's code makes either itself.",
  /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsWorkerd\.mjs$/,
);

/**
 * zod's translations left out: zod loads its English messages from `locales/en` itself; only
 * `z.locales` (and `zod/locales`) reads the index of the others. In their place, an index that
 * has English alone, in the module format of the file it stands for.
 */
const noZodLocales = {
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/(?:\.\.\/)?locales\/index\.c?js$/ }, (args) => {
      if (!ZOD_FILE.test(args.importer)) return undefined;
      const index = resolve(args.resolveDir, args.path);
      // Named from node_modules (zod/v4/locales/index.cjs; each copy of zod its own), not from this machine's folders, in the source map.
      return { path: index.slice(index.indexOf('node_modules') + 'node_modules/'.length), namespace: 'zod-english-only', pluginData: dirname(index) };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: args.path.endsWith('.cjs')
        ? '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nconst en = require("./en.cjs");\nexports.en = en && en.__esModule ? en.default : en;\n'
        : 'export { default as en } from "./en.js";\n',
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

/**
 * class-validator's entry point (CommonJS, or ES modules required from CommonJS, as tsc's output
 * does) brings all its 110+ decorators, validator.js and libphonenumber-js: 650 kB. Here
 * `class-validator` is a module that re-exports, from class-validator's ES build, only the names
 * the bundle uses: those Toolwright's core reads (its metadata storage, `ValidationTypes`,
 * `validate`) and the decorators the app's files take from `class-validator` or
 * `@toolwright/core/dto`, each from the file that declares it (see classValidatorExports). esbuild
 * drops the rest. The decorators record in the storage
 * class-validator keeps on `globalThis`, which every build of it shares.
 */
const usedClassValidator = (names) => ({
  name: 'used-class-validator',
  setup(build) {
    build.onResolve({ filter: /^class-validator$/ }, async (args) => {
      const esm = await build.resolve('class-validator/esm2015/index.js', { kind: 'import-statement', resolveDir: args.resolveDir });
      if (esm.errors.length > 0) return undefined; // a release without that build: the whole library, as before
      return { path: esm.path, namespace: 'toolwright-class-validator', pluginData: esm.path };
    });
    build.onLoad({ filter: /.*/, namespace: 'toolwright-class-validator' }, async (args) => ({
      contents: await classValidatorExports(names, args.pluginData),
      resolveDir: dirname(args.pluginData),
      loader: 'js',
    }));
  },
});

/** class-validator's own checks, which its entry point defines over its `Validator`: the same calls, through the same container. */
const VALIDATOR_CALLS = ['validate', 'validateOrReject', 'validateSync'];

/**
 * The module that stands for class-validator: each of `names` re-exported from the file of its ES
 * build that declares it, not from its entry point. The entry point imports every decorator, and
 * Toolwright's core `require`s class-validator (on first use), so esbuild gives each module the
 * entry reaches an initialiser that runs when first required: 135 of them, each compiled and run
 * at a cold start, for the dozen decorators a Worker's DTOs use. Names no file declares (a release
 * laid out otherwise) come from the entry point, as before.
 */
async function classValidatorExports(names, entry) {
  const root = dirname(entry);
  /** Each exported name, with the file that exports it (undefined: more than one does). */
  const declaredIn = new Map();
  const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.js') && file !== 'index.js' && file !== join('decorator', 'decorators.js'));
  // esbuild reads what each file exports (its own parser, one pass over them all); a name two files export is taken from the entry point, which decides between them.
  const read = await build({ entryPoints: files, absWorkingDir: root, outdir: 'exports', bundle: false, write: false, metafile: true, format: 'esm', logLevel: 'silent' });
  for (const output of Object.values(read.metafile.outputs)) {
    if (output.entryPoint === undefined) continue;
    for (const name of output.exports) declaredIn.set(name, declaredIn.has(name) ? undefined : join(root, output.entryPoint));
  }
  const calls = VALIDATOR_CALLS.filter((name) => names.has(name));
  const useFiles = declaredIn.get('Validator') !== undefined && declaredIn.get('getFromContainer') !== undefined;
  const lines = [];
  const fromEntry = [];
  for (const name of names) {
    if (useFiles && calls.includes(name)) continue;
    const file = declaredIn.get(name);
    if (file) lines.push(`export { ${name} } from ${JSON.stringify(file)};`);
    else fromEntry.push(name);
  }
  if (useFiles && calls.length > 0) {
    lines.push(`import { Validator as ToolwrightValidator } from ${JSON.stringify(declaredIn.get('Validator'))};`);
    lines.push(`import { getFromContainer as toolwrightFromContainer } from ${JSON.stringify(declaredIn.get('getFromContainer'))};`);
    for (const name of calls) lines.push(`export function ${name}(...args) { return toolwrightFromContainer(ToolwrightValidator).${name}(...args); }`);
  } else fromEntry.push(...calls);
  if (fromEntry.length > 0) lines.push(`export { ${fromEntry.join(', ')} } from ${JSON.stringify(entry)};`);
  return `${lines.join('\n')}\n`;
}

/** The built-ins whose export is a plain object, which the Worker's `require` gives as stand-ins. */
const OBJECT_BUILTINS = new Set([
  'fs',
  'fs/promises',
  'path',
  'url',
  'crypto',
  'util',
  'async_hooks',
  'http',
  'https',
  'net',
  'os',
  'zlib',
  'buffer',
  'string_decoder',
  'querystring',
  'timers',
  'dns',
  'tls',
  'http2',
  'child_process',
  'worker_threads',
  'perf_hooks',
  'diagnostics_channel',
]);

/**
 * The Worker's `require` for Node's built-in modules (workerd gives them through
 * process.getBuiltinModule, with the nodejs_compat flag). Loading one costs the Worker's cold start
 * (node:fs, node:path and node:url together: about 10 ms of CPU on workerd), and CommonJS code
 * requires them when its module loads, often for a function that a Worker never calls (Toolwright's
 * tool-file globbing, class-validator's file lookups). So a built-in whose export is a plain object
 * is given as a stand-in that loads it on the first read of one of its members; the others
 * (a function or class, such as node:events) are loaded when required. `names`, when given, are
 * the built-in's export names, which the stand-in lists without loading it (see lazyBuiltinImports).
 */
const BUILTIN_REQUIRE = `const require = /* @__PURE__ */ (() => {
  const objects = new Set(${JSON.stringify([...OBJECT_BUILTINS])});
  const load = (id) => globalThis.process.getBuiltinModule(id);
  return (id, names) => {
    if (!objects.has(id.startsWith('node:') ? id.slice(5) : id)) return load(id);
    let loaded;
    const real = () => (loaded ??= load(id));
    return new Proxy({}, {
      get: (_, key) => real()[key],
      has: (_, key) => key in real(),
      set: (_, key, value) => Reflect.set(real(), key, value),
      ownKeys: () => (loaded || !names ? Reflect.ownKeys(real()) : names),
      getOwnPropertyDescriptor: (_, key) => {
        if (!loaded && names) return names.includes(key) ? { configurable: true, enumerable: true, writable: true, value: undefined } : undefined;
        const found = Reflect.getOwnPropertyDescriptor(real(), key);
        return found && { ...found, configurable: true };
      },
    });
  };
})();`;

/**
 * An `import { x } from 'node:fs'` in Toolwright's ES module build would load the built-in when the
 * Worker starts (esbuild keeps such imports of external modules at the top of the Worker). Here it
 * reads a CommonJS module that requires it through the Worker's `require`, with the built-in's
 * export names (as this node has them), so it loads on the first use of one of them, as the
 * CommonJS build's `require` does.
 */
const lazyBuiltinImports = {
  name: 'lazy-builtin-imports',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      const id = args.path.replace(/^node:/, '');
      if (args.kind !== 'import-statement' || !OBJECT_BUILTINS.has(id) || !(SERVER_BUNDLE.test(args.importer) || CORE_BUNDLE.test(args.importer))) return undefined;
      return { path: `node:${id}`, namespace: 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)}, ${JSON.stringify(Object.keys(createRequire(import.meta.url)(args.path)))});\n`,
      loader: 'js',
    }));
  },
};

/** What Toolwright's core takes from class-validator (packages/core/src/schema/class-validator.ts, validateDto.ts). */
const CORE_NEEDS = ['getMetadataStorage', 'ValidationTypes', 'validate'];

/**
 * The names a file takes from class-validator or `@toolwright/core/dto`, from tsc's CommonJS
 * (`const x = require("class-validator")` and `x.Name`) or ES module syntax (`import { Name } from`).
 * undefined when the file uses either module in another way (the whole module then stays in).
 */
function dtoNamesOf(source) {
  const names = new Set();
  const mentions = [...source.matchAll(/(["'])(class-validator|@toolwright\/core\/dto)\1/g)].length;
  let understood = 0;
  for (const [, binding] of source.matchAll(/\b(?:const|let|var)\s+([\w$]+)\s*=\s*require\((["'])(?:class-validator|@toolwright\/core\/dto)\2\)\s*;/g)) {
    understood++;
    const uses = [...source.matchAll(new RegExp(`(?<![\\w$.])${binding.replace(/\$/g, '\\$')}(?![\\w$])(\\.[\\w$]+)?`, 'g'))];
    // Every use but the declaration must read one export by name.
    if (uses.filter(([, member]) => member === undefined).length !== 1) return undefined;
    for (const [, member] of uses) if (member) names.add(member.slice(1));
  }
  for (const [, list] of source.matchAll(/\b(?:import|export)\s*(?:type\s*)?\{([^}]*)\}\s*from\s*(["'])(?:class-validator|@toolwright\/core\/dto)\2/g)) {
    understood++;
    for (const item of list.split(',')) {
      const [name] = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      if (name) names.add(name);
    }
  }
  understood += [...source.matchAll(/\bimport\s*(["'])(?:class-validator|@toolwright\/core\/dto)\1/g)].length;
  return understood === mentions ? names : undefined;
}

/**
 * The text of a file a first build's metafile names (undefined when it cannot be read), or `entry`, the
 * entry's own text, for the entry (resolved from `resolveDir`). Each file is read once: reachOf and
 * decoratedPartsKept share the reader.
 */
function sourceReader(resolveDir, entry) {
  // esbuild names the entry in the metafile from the working folder, not from `resolveDir`.
  const entryFile = resolve(resolveDir, ENTRY_NAME);
  const read = new Map();
  return (file) => {
    const path = resolve(file);
    if (path === entryFile) return Promise.resolve(entry);
    let text = read.get(path);
    if (text === undefined) read.set(path, (text = readFile(path, 'utf8').catch(() => undefined)));
    return text;
  };
}

/** What the Worker's code reaches, from a first build's metafile (`sourceOf`: the text of its files, see sourceReader). */
async function reachOf(metafile, resolveDir, sourceOf) {
  const inputs = Object.entries(metafile.inputs).filter(([file]) => !file.includes(':'));
  const jose = inputs.some(([file]) => /[\\/]server[\\/](?:bundle[\\/]auth|esm[\\/]auth[\\/]index)\.js$/.test(file));
  // An entry point that leads into the node-only code (in the CommonJS build, a view that returns a part of lazy.js).
  let nodeOnly = inputs.some(([file]) => NODE_ONLY_ENTRY.test(file));
  for (const [file] of inputs)
    if (/[\\/]server[\\/]bundle[\\/][\w-]+\.js$/.test(file) && !/[\\/](all|extensions|web|lazy)\.js$/.test(file) && /require\(['"]\.\/lazy\.js['"]\)/.test(await readFile(resolve(file), 'utf8')))
      nodeOnly = true;
  const isOtel = (file) => /(^|[\\/])node_modules[\\/]@opentelemetry[\\/]api[\\/]/.test(file);
  const telemetry = inputs.some(([file, { imports }]) => !isOtel(file) && !SERVER_BUNDLE.test(file) && imports.some((i) => isOtel(i.path)));
  // Toolwright gives its servers its own JSON Schema validator, and no code but Toolwright's and the SDK's own imports the SDK.
  const ownValidator = inputs.some(([file]) => /[\\/]server[\\/]esm[\\/]sdk[\\/]schemaValidatorProvider\.js$/.test(file));
  const othersUseSdk = inputs.some(([file, { imports }]) => !SDK_SERVER_FILE.test(file) && !SERVER_BUNDLE.test(file) && imports.some((i) => SDK_SERVER_FILE.test(i.path)));
  const sdkDefaultValidator = !ownValidator || othersUseSdk;
  // The optional parts of the server that the app's code, or a package that imports Toolwright, names.
  const namedParts = new Set();
  for (const [file, { imports }] of inputs) {
    if (SERVER_BUNDLE.test(file) || CORE_BUNDLE.test(file)) continue;
    if (/(^|[\\/])node_modules[\\/]/.test(file) && !imports.some((i) => SERVER_BUNDLE.test(i.path) || CORE_BUNDLE.test(i.path))) continue;
    const source = (await sourceOf(file)) ?? '';
    for (const part of OPTIONAL_PARTS) if (part.word.test(source)) namedParts.add(part.name);
  }
  let classValidator = new Set(CORE_NEEDS);
  let skills = false;
  let zodLocales = false;
  for (const [file, { imports }] of inputs) {
    const app = !/(^|[\\/])node_modules[\\/]/.test(file) && !SERVER_BUNDLE.test(file) && !CORE_BUNDLE.test(file);
    // The app's code, or a package that imports zod, naming `locales` (z.locales.fr(), an import from zod/locales) keeps zod's translations.
    const zodUser = !ZOD_FILE.test(file) && imports.some((i) => ZOD_FILE.test(i.path));
    if (!app && !zodUser) continue;
    const source = (await sourceOf(file)) ?? '';
    if (/\blocales\b/.test(source)) zodLocales = true;
    if (app && /\bskills\b/.test(source)) skills = true;
  }
  for (const [file] of inputs) {
    if (CORE_BUNDLE.test(file) || /(^|[\\/])node_modules[\\/](class-validator|validator|libphonenumber-js)[\\/]/.test(file)) continue;
    const source = (await sourceOf(file)) ?? '';
    if (!/["'](?:class-validator|@toolwright\/core\/dto)["']/.test(source)) continue;
    const names = dtoNamesOf(source);
    if (names === undefined) {
      classValidator = undefined;
      break;
    }
    for (const name of names) classValidator.add(name);
  }
  if (classValidator) {
    // Keep what class-validator exports (`@toolwright/core/dto` also has Property, Type, ...).
    const exported = new Set(Object.keys(createRequire(resolve(resolveDir, 'worker-entry.js'))('class-validator')));
    classValidator = new Set([...classValidator].filter((name) => exported.has(name)));
  }
  return { jose, telemetry, classValidator, nodeOnly, skills, zodLocales, sdkDefaultValidator, namedParts };
}

/**
 * Compiles the TypeScript project of `tsconfig` once more, as ES modules, into `outDir` (decorator
 * metadata included, as tsc emits it), for a Worker's entry to import from. From tsc's CommonJS the
 * app's `require()`s would reach Toolwright, the SDK and zod, and esbuild would then give each of
 * their modules an initialiser that runs it when first required, each parsed twice at a cold start.
 * From ES modules they are laid out in one scope, and esbuild keeps only what the app imports.
 * A compile error writes nothing (`noEmitOnError`) and throws with every error tsc found, each with
 * its file and line: no Worker is bundled from broken JavaScript, or from an older build's.
 */
function emitEsModules(tsconfig, outDir) {
  const ts = createRequire(tsconfig)('typescript');
  const fail = (diagnostic) => {
    throw new Error(`emitEsModules: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  };
  const overrides = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    outDir,
    noEmit: false,
    declaration: false,
    declarationMap: false,
    composite: false,
    incremental: false,
    sourceMap: true,
    noEmitOnError: true,
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, overrides, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail });
  delete parsed.options.tsBuildInfoFile;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const { emitSkipped, diagnostics } = program.emit();
  const errors = [...parsed.errors, ...diagnostics].filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    const host = { getCanonicalFileName: (file) => file, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => '\n' };
    throw new Error(
      `emitEsModules: tsc found ${errors.length} error(s) in the project of ${tsconfig}, so nothing was compiled or bundled. Fix them and build again:\n${ts.formatDiagnostics(errors, host)}`,
    );
  }
  if (emitSkipped) fail(diagnostics[0] ?? { messageText: `tsc emitted nothing for ${tsconfig}.` });
}

/**
 * Writes esbuild's output files (`write: false`) each whole under a temporary name in its folder,
 * then renames it to its name (on POSIX a rename within one folder replaces the file at once): a
 * reader opens the old file or the new one, never one half written. The source map goes first,
 * so the script's `//# sourceMappingURL` never points at an older map than the script. A failed
 * write leaves no temporary file behind.
 */
async function writeWhole(outputFiles) {
  const ordered = [...outputFiles].sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
  for (const { path, contents } of ordered) {
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, contents);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

/**
 * The functions a start runs, written so that V8 compiles them with the Worker's script. V8 compiles
 * a function on its first call: it pre-parses it with the script, then parses it again in full
 * when called, except a function expression in parentheses, `(function (...) {...})`, which it
 * compiles with the code around it. workerd keeps no compiled code between cold starts, so each one
 * pre-parses and then compiles again every function of Toolwright, the SDK and zod that it runs. Here the
 * functions that the hints name (COMPILE_HINTS: those a start and its first call run, recorded by
 * Toolwright's bench/edge/record-compile-hints.mjs from V8's coverage of a Worker's start) are written so:
 * - a function declaration becomes `var f=(function(...){...});` at the top of its scope (the
 *   script, or its function's body after the directives): a declaration is hoisted there anyway,
 *   and the function keeps its name (`f.name`, stack traces) from the `var`;
 * - a function expression is put in parentheses;
 * - the module wrappers esbuild gives CommonJS modules and lazily run ES modules,
 *   `__commonJS({ "path"(exports, module) {...} })`, become `"path":(function(exports, module) {...})`.
 * Any function written so means what it meant; the hints only choose which: the functions a start never
 * runs stay lazy (compiling them all costs as much as it saves). A function is named by the names of the functions
 * around it and its own (`createApp`, `buildRegistry/visit`, `__commonJS:class-transformer/cjs/index.js`),
 * without the number esbuild appends to a name that two modules declare; an app's own functions
 * and a Worker of another app simply match fewer names. The source map moves with the text.
 */
const COMPILE_HINTS = new URL('./worker-compile-hints.json', import.meta.url);

/**
 * The functions of the bundle, each with its key and how it can be written to compile with the
 * script ('declaration', 'expression' or 'wrapper', see COMPILE_HINTS; 'written' when it is so already),
 * or `how` undefined when it cannot be.
 */
function compilableFunctions(ts, source) {
  const found = [];
  const segment = (node) => {
    const wrapper = wrapperOf(ts, source, node);
    if (wrapper) return `${wrapper.call}:${wrapper.path.replace(/^.*node_modules[\\/]/, '')}`;
    const parent = outside(ts, node);
    let name = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
    if (name === undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) name = parent.name.text;
    if (ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
      const owner = ts.isClassLike(parent) && parent.name ? parent.name.text.replace(/\d+$/, '') : '';
      return `${owner}.${ts.isConstructorDeclaration(node) ? 'constructor' : (name ?? '(computed)')}`;
    }
    return name === undefined ? (ts.isArrowFunction(node) ? '(arrow)' : '(function)') : name.replace(/\d+$/, '');
  };
  const visit = (node, path) => {
    let inner = path;
    if (ts.isFunctionLike(node) && node.body) {
      inner = path ? `${path}/${segment(node)}` : segment(node);
      found.push({ node, key: inner, how: howToCompile(ts, source, node) });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, '');
  return found;
}

/** The node that holds `node`, past any parentheses around it. */
function outside(ts, node) {
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return parent;
}

/**
 * When `node` is esbuild's module wrapper, the one key of the object given to `__commonJS` or
 * `__esm` (a method, or a function expression once written to compile with the script): the
 * helper's name and the module's path.
 */
function wrapperOf(ts, source, node) {
  const property = ts.isMethodDeclaration(node) ? node : ts.isFunctionExpression(node) && ts.isPropertyAssignment(outside(ts, node)) ? outside(ts, node) : undefined;
  const object = property?.parent;
  if (!property || !ts.isStringLiteral(property.name) || !ts.isObjectLiteralExpression(object) || object.properties.length !== 1 || !ts.isCallExpression(object.parent)) return undefined;
  const call = object.parent.expression.getText(source);
  return /^__(?:commonJS|esm)$/.test(call) ? { call, path: property.name.text } : undefined;
}

/** How `node` can be written to compile with the script (see compilableFunctions). */
function howToCompile(ts, source, node) {
  if (ts.isFunctionExpression(node) && ts.isParenthesizedExpression(node.parent)) return 'written';
  // An async or generator wrapper (`async "path"() {...}`, a module with top-level await) cannot become `"path": (function...)`.
  if (wrapperOf(ts, source, node)) return ts.isMethodDeclaration(node) && (node.asteriskToken || node.modifiers?.length) ? undefined : 'wrapper';
  if (ts.isFunctionExpression(node)) return 'expression';
  if (!ts.isFunctionDeclaration(node) || !node.name || node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword)) return undefined;
  const scope = node.parent;
  if (!ts.isSourceFile(scope) && !(ts.isBlock(scope) && ts.isFunctionLike(scope.parent))) return undefined;
  // Two declarations of one name in a scope: the last one wins, which moving one of them could change.
  const twice = scope.statements.some((other) => other !== node && ts.isFunctionDeclaration(other) && other.name?.text === node.name.text);
  return twice ? undefined : 'declaration';
}

/**
 * `text` (the Worker) with the functions whose key is in `hints` written to compile with the script,
 * its source map's `mappings` moved with the text, and how many functions were written so.
 */
function compileWithScript(ts, text, mappings, hints) {
  const source = ts.createSourceFile('worker.mjs', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** At `at`, `remove` characters give way to `parts`: strings, and [from, to) ranges of the text (with the edits inside them). */
  const edits = [];
  const hoisted = new Map();
  let written = 0;
  for (const { node, key, how } of compilableFunctions(ts, source)) {
    if (how === undefined || how === 'written' || !hints.has(key)) continue;
    written++;
    if (how === 'wrapper') edits.push({ at: node.name.end, remove: 0, parts: [':(function'] }, { at: node.end, remove: 0, parts: [')'] });
    else if (how === 'expression') edits.push({ at: node.getStart(source), remove: 0, parts: ['('] }, { at: node.end, remove: 0, parts: [')'] });
    else {
      const scope = node.parent;
      let at = 0;
      if (!ts.isSourceFile(scope)) {
        at = scope.getStart(source) + 1;
        for (const statement of scope.statements) {
          if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) break;
          at = statement.end;
        }
      }
      const start = node.getStart(source);
      // `function`, `async function` or `function*`, without the space before the name.
      const keyword = [start, start + text.slice(start, node.name.getStart(source)).trimEnd().length];
      if (!hoisted.has(at)) hoisted.set(at, []);
      hoisted.get(at).push(`var ${node.name.text}=(`, keyword, [node.name.end, node.end], ');');
      edits.push({ at: start, remove: node.end - start, parts: [] });
    }
  }
  for (const [at, parts] of hoisted) edits.push({ at, remove: 0, parts });
  // Insertions at one place keep their order, before a removal there; each edit is made once.
  edits.forEach((edit, i) => (edit.i = i));
  edits.sort((a, b) => a.at - b.at || a.remove - b.remove || a.i - b.i);
  let output = '';
  /** [oldFrom, oldTo, newFrom] of each range of the text kept. */
  const placed = [];
  const keep = (from, to) => {
    if (to > from) placed.push([from, to, output.length]);
    output += text.slice(from, to);
  };
  const render = (low, high) => {
    let from = low;
    for (const edit of edits) {
      if (edit.done || edit.at < from || edit.at >= high || edit.at + edit.remove > high) continue;
      edit.done = true;
      keep(from, edit.at);
      for (const part of edit.parts) typeof part === 'string' ? (output += part) : render(part[0], part[1]);
      from = edit.at + edit.remove;
    }
    keep(from, high);
  };
  render(0, text.length);
  placed.sort((a, b) => a[0] - b[0]);
  return { text: output, mappings: moveMappings(mappings, text, output, placed), written };
}

/** A source map's `mappings` for `output`: each segment goes where its text went (`placed`, see compileWithScript). */
function moveMappings(mappings, text, output, placed) {
  const oldLines = lineStarts(text);
  const newLines = lineStarts(output);
  const segments = [];
  const state = [0, 0, 0, 0, 0];
  mappings.split(';').forEach((line, lineIndex) => {
    state[0] = 0;
    if (line === '') return;
    for (const segment of line.split(',')) {
      const fields = readVlqs(segment);
      fields.forEach((value, k) => (state[k] += value));
      const at = newOffset(placed, oldLines[lineIndex] + state[0]);
      if (at !== undefined) segments.push([at, ...state.slice(1, fields.length)]);
    }
  });
  segments.sort((a, b) => a[0] - b[0]);
  const lines = newLines.map(() => []);
  const last = [0, 0, 0, 0, 0];
  let line = 0;
  for (const [at, ...rest] of segments) {
    while (line + 1 < newLines.length && newLines[line + 1] <= at) line++;
    const fields = [at - newLines[line], ...rest];
    if (lines[line].length === 0) last[0] = 0;
    lines[line].push(fields.map((value, k) => writeVlq(value - last[k])).join(''));
    fields.forEach((value, k) => (last[k] = value));
  }
  return lines
    .map((l) => l.join(','))
    .join(';')
    .replace(/;+$/, '');
}

function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Where offset `at` of the old text is in the output, if its text was kept. */
function newOffset(placed, at) {
  let low = 0;
  let high = placed.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [from, to, start] = placed[mid];
    if (at < from) high = mid - 1;
    else if (at >= to) low = mid + 1;
    else return start + (at - from);
  }
  return undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The base64 VLQ numbers of one source map segment. */
function readVlqs(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new Error(`bundleWorker: not a source map segment: ${JSON.stringify(segment)}; esbuild's source map changed shape.`);
    value += (digit & 31) << shift;
    shift += 5;
    if ((digit & 32) === 0) {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function writeVlq(number) {
  let value = number < 0 ? (-number << 1) | 1 : number << 1;
  let out = '';
  do {
    let digit = value & 31;
    value >>>= 5;
    if (value > 0) digit |= 32;
    out += BASE64[digit];
  } while (value > 0);
  return out;
}

/**
 * The Worker's files (esbuild's output) with the hinted functions written to compile with the script
 * (see COMPILE_HINTS). `hints`: a file of hints, or false for none. TypeScript's parser reads the
 * Worker (resolved from `resolveDir`: the project that emitEsModules compiles has it).
 */
async function compileHinted(outputFiles, hints, resolveDir) {
  if (hints === false) return outputFiles;
  let names;
  try {
    names = new Set(JSON.parse(await readFile(hints, 'utf8')).functions);
  } catch (error) {
    throw new Error(
      `bundle-worker: cannot read the compile hints in ${hints} (${error.message}). Restore the file (a JSON object whose \`functions\` lists names), or set COMPILE_HINTS to false in this file to bundle with none.`,
    );
  }
  const ts = createRequire(resolve(resolveDir, 'worker-entry.js'))('typescript');
  const script = outputFiles.find((file) => !file.path.endsWith('.map'));
  const map = outputFiles.find((file) => file.path === `${script.path}.map`);
  const sourceMap = JSON.parse(map.text);
  const { text, mappings } = compileWithScript(ts, script.text, sourceMap.mappings, names);
  // The rewrite must leave the script valid: esbuild parses it again, and refuses what is not.
  try {
    await transform(text, { loader: 'js', format: 'esm', logLevel: 'silent' });
  } catch (error) {
    throw new Error(`bundle-worker: writing the hinted functions to compile with the script made invalid JavaScript (${error.message.split('\n')[0]}). Set COMPILE_HINTS to false in this file to bundle with none, and report it.`);
  }
  sourceMap.mappings = mappings;
  return [
    { path: script.path, contents: Buffer.from(text) },
    { path: map.path, contents: Buffer.from(JSON.stringify(sourceMap)) },
  ];
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
emitEsModules(join(root, 'tsconfig.json'), join(root, 'dist-worker', 'esm'));
const entry = "import 'reflect-metadata';\nimport worker from './dist-worker/esm/worker.js';\nexport default worker;\n";
const resolveDir = root;
const outfile = join(root, 'dist-worker', 'worker.mjs');

// Node's built-ins come from the runtime. The server's optional peers for Node alone (its node
// HTTP transport, the test kit's client) are required only when used, which a Worker never does.
const options = {
  stdin: { contents: entry, resolveDir, sourcefile: ENTRY_NAME },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), '@modelcontextprotocol/node', '@modelcontextprotocol/client', '@modelcontextprotocol/client/*'],
  outfile,
  // The CommonJS packages require node's modules: workerd gives them through process.getBuiltinModule.
  banner: { js: BUILTIN_REQUIRE },
  logLevel: 'warning',
};
const first = await build({ ...options, plugins: [staticImports(true), oneClassTransformer], write: false, metafile: true, logLevel: 'silent' });
const sourceOf = sourceReader(resolveDir, entry);
const reach = await reachOf(first.metafile, resolveDir, sourceOf);
const decorated = await decoratedPartsKept(first.metafile, sourceOf);
const result = await build({
  ...options,
  write: false,
  minifyWhitespace: true,
  sourcemap: 'linked',
  plugins: [
    lazyBuiltinImports,
    staticImports(reach.jose),
    oneClassTransformer,
    ...(reach.telemetry ? [] : [noTelemetry, noTracing]),
    ...(reach.nodeOnly ? [] : [noNodeOnlyServer]),
    noStdio,
    ...(reach.skills ? [] : [noSkills]),
    ...(reach.zodLocales ? [] : [noZodLocales]),
    ...(reach.sdkDefaultValidator ? [] : [noSdkDefaultValidator]),
    ...OPTIONAL_PARTS.filter((part) => !reach.namedParts.has(part.name)).map((part) => part.plugin),
    ...DECORATED_PARTS.filter((part) => !decorated.has(part.name)).map((part) => part.plugin),
    ...(reach.classValidator ? [usedClassValidator(reach.classValidator)] : []),
  ],
});
await writeWhole(await compileHinted(result.outputFiles, COMPILE_HINTS, resolveDir));

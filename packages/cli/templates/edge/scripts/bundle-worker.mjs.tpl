// Bundles what tsc emitted (dist/worker.js, decorator metadata included) into one ES module for
// workerd: dist-worker/worker.mjs. esbuild only joins JavaScript here; it never sees the
// TypeScript, so no metadata is lost (esbuild drops it from TypeScript). Node's built-in modules
// are left to the runtime: the Worker runs with the nodejs_compat flag.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Toolwright loads optional modules with an `import()` of a name known only at run time (`jose`
 * for jwtVerifier, tool files named by a glob). A Worker can import only what its bundle holds:
 * `jose` is bundled, anything else is refused with a message saying what to do.
 */
const staticImports = {
  name: 'static-imports',
  setup(build) {
    const dynamic = 'return import(specifier);';
    const fixed =
      "return specifier === 'jose' ? import('jose') : Promise.reject(new Error(`Cannot import ${specifier} in a Worker: only what the bundle holds is there. Name tool classes in createApp({ tools }) instead of a glob.`));";
    let seen = 0;
    let replaced = 0;
    // Whichever of the server's bundle files holds it (the package may split its bundle in several files).
    build.onLoad({ filter: /[\\/]server[\\/]bundle[\\/][\w-]+\.js$/ }, async (args) => {
      seen++;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(dynamic)) return undefined;
      replaced++;
      return { contents: source.replace(dynamic, fixed), loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && seen > 0 && replaced === 0)
        throw new Error(`bundle-worker: no file of @toolwright/server's bundle has '${dynamic}' any more; update scripts/bundle-worker.mjs.`);
    });
  },
};

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

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  stdin: { contents: "import 'reflect-metadata';\nimport worker from './dist/worker.js';\nexport default worker.default;\n", resolveDir: root, sourcefile: 'worker-entry.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  // Node's built-ins come from the runtime. The server's optional peers for Node alone (its node
  // HTTP transport, the test kit's client) are required only when used, which a Worker never does.
  external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), '@modelcontextprotocol/node', '@modelcontextprotocol/client', '@modelcontextprotocol/client/*'],
  outfile: join(root, 'dist-worker', 'worker.mjs'),
  // The CommonJS packages require node's modules: workerd gives them through process.getBuiltinModule.
  banner: { js: 'const require = (id) => globalThis.process.getBuiltinModule(id);' },
  plugins: [staticImports, oneClassTransformer],
  logLevel: 'warning',
});

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
    build.onLoad({ filter: /[\\/]server[\\/]bundle[\\/]all\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const dynamic = 'return import(specifier);';
      if (!source.includes(dynamic)) throw new Error(`bundle-worker: ${args.path} no longer has '${dynamic}'; update scripts/bundle-worker.mjs.`);
      const fixed =
        "return specifier === 'jose' ? import('jose') : Promise.reject(new Error(`Cannot import ${specifier} in a Worker: only what the bundle holds is there. Name tool classes in createApp({ tools }) instead of a glob.`));";
      return { contents: source.replace(dynamic, fixed), loader: 'js' };
    });
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
  plugins: [staticImports],
  logLevel: 'warning',
});

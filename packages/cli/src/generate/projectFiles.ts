import { SUPPORTED_NODE } from '../cli/supportedNode';
import type { ProjectOptions } from './ProjectOptions';
import { TEMPLATES } from './templates';
import { ADAPTER_DEPENDENCIES, DEPENDENCY_VERSIONS, DEV_DEPENDENCY_VERSIONS, INSTALL_SCRIPTS, type ToolwrightPackage } from './versions';

/** The port and endpoint `npm start` uses for HTTP, and the README's URL. */
export const HTTP_PORT = 3000;
export const HTTP_URL = `http://127.0.0.1:${HTTP_PORT}/mcp`;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export function packageJson(options: ProjectOptions): string {
  const http = options.transport === 'http';
  const listenFlags = http ? ` --http --port ${HTTP_PORT}` : '';
  const scripts: Record<string, string> = {
    build: 'tsc -b',
    start: `node dist/server.js${listenFlags}`,
    dev: `toolwright dev${http ? ` --${listenFlags}` : ''}`,
    // Build, type-check the tests (jest only transpiles them, which is much faster), lint, run them.
    test: 'tsc -b && tsc -p test && eslint . && jest',
    // What only the compiler sees: DTO properties without a decorator, `?` on a @Param ...
    lint: 'eslint .',
    inspect: 'toolwright inspect --lint',
  };
  if (options.template === 'weather') scripts.demo = 'node dist/demo.js';
  const host = TEMPLATES[options.template].host;
  Object.assign(scripts, host?.scripts);
  const toolwright = (name: ToolwrightPackage) => options.localPackages?.[name] ?? options.toolwrightVersion;
  const direct = host?.toolwrightPackages ?? [];
  const listed = options.localPackages ? [...direct, ...direct.flatMap((name) => ADAPTER_DEPENDENCIES[name] ?? [])] : direct;
  const adapters = Object.fromEntries(listed.map((name) => [name, toolwright(name)]));
  return json({
    name: options.packageName,
    version: '0.1.0',
    private: true,
    description: TEMPLATES[options.template].summary,
    ...(!host?.untypedPackage && { type: 'commonjs' }),
    main: 'dist/server.js',
    scripts,
    engines: { node: host?.node ?? SUPPORTED_NODE },
    dependencies: sortKeys({
      '@toolwright/core': toolwright('@toolwright/core'),
      '@toolwright/server': toolwright('@toolwright/server'),
      ...adapters,
      ...DEPENDENCY_VERSIONS,
      ...host?.dependencies,
    }),
    devDependencies: sortKeys({
      '@toolwright/cli': toolwright('@toolwright/cli'),
      '@toolwright/eslint-plugin': toolwright('@toolwright/eslint-plugin'),
      ...DEV_DEPENDENCY_VERSIONS,
      ...host?.devDependencies,
    }),
    // npm 11 asks about every install script; jest's file watcher ships prebuilt and needs none.
    // A workspace takes this from its root, which says it for the examples.
    ...(options.workspaceRoot === undefined && { allowScripts: installScripts(options) }),
  });
}

/**
 * The build config. Standalone: every option spelled out, decorators on. In the monorepo: the
 * repo's base config (same options) plus references, so `tsc -b` at the root orders the build.
 * Both say `noEmitOnError`: `tsc -b` writes its output even when the build has errors (and refuses
 * the flag on its command line), so without it a failed build would replace the last good one in
 * `dist/`, which `npm start`, `toolwright call` and a `toolwright dev` restart then run.
 */
export function tsconfig(options: ProjectOptions): string {
  if (options.workspaceRoot !== undefined) {
    const root = options.workspaceRoot;
    return json({
      extends: `${root}/tsconfig.base.json`,
      compilerOptions: { rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo', noEmitOnError: true },
      include: ['src'],
      references: [{ path: `${root}/packages/core` }, { path: `${root}/packages/server` }],
    });
  }
  return json({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'node16',
      moduleResolution: 'node16',
      rootDir: 'src',
      outDir: 'dist',
      strict: true,
      // Toolwright reads legacy decorators and the `design:*` metadata tsc emits for them.
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
      skipLibCheck: true,
      sourceMap: true,
      // A build with errors writes nothing: dist/ keeps the last good build.
      noEmitOnError: true,
      forceConsistentCasingInFileNames: true,
      types: ['node'],
    },
    include: ['src'],
  });
}

/**
 * The tests' config: the build's options, plus jest's types and the test folder.
 * `isolatedModules` makes ts-jest transpile file by file (seconds instead of a full type
 * check per run); `npm test` type-checks the tests with `tsc -p test` first instead.
 */
export function testTsconfig(options: ProjectOptions, buildTsconfig = 'tsconfig.json'): string {
  const inWorkspace = options.workspaceRoot !== undefined;
  return json({
    extends: `../${buildTsconfig}`,
    compilerOptions: {
      ...(inWorkspace && { composite: false, declaration: false, declarationMap: false }),
      rootDir: '..',
      noEmit: true,
      isolatedModules: true,
      types: ['node', 'jest'],
    },
    include: ['.', '../src'],
  });
}

export function jestConfig(): string {
  return `/**
 * Jest through ts-jest: tests are compiled by tsc, like the build, so decorator metadata
 * is emitted in tests too (esbuild-based runners drop it).
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  setupFiles: ['reflect-metadata'],
  transform: { '^.+\\\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
  testTimeout: 30000,
};
`;
}

/**
 * ESLint with @toolwright/eslint-plugin's recommended config: type-aware, each file read with
 * the types of its nearest tsconfig.json (src/ the build's, test/ the tests').
 */
/** npm 11's `allowScripts` for a project of this template: every project's, and its host's. */
export function installScripts(options: Pick<ProjectOptions, 'template'>): Record<string, boolean> {
  return sortKeys({ ...INSTALL_SCRIPTS, ...TEMPLATES[options.template].host?.installScripts });
}

export function eslintConfig(options: Pick<ProjectOptions, 'template'>): string {
  const ignores = ['dist/', 'coverage/', ...(TEMPLATES[options.template].host?.outputs ?? [])];
  return `// @ts-check
import toolwright from '@toolwright/eslint-plugin';

/** \`npm run lint\` (and \`npm test\`): what only the compiler sees, e.g. a DTO property without a decorator. */
export default [{ ignores: [${ignores.map((i) => `'${i}'`).join(', ')}] }, toolwright.configs.recommended];
`;
}

export function gitignore(options: Pick<ProjectOptions, 'template'>): string {
  return ['node_modules/', 'dist/', '*.tsbuildinfo', 'coverage/', ...(TEMPLATES[options.template].host?.outputs ?? []), ''].join('\n');
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * One jest run for every package and example. Tests import packages by their public names, mapped to source.
 *
 * Three projects. `fast` (`npm run test:fast`, which runs jest.fast.config.js) is every test file not listed
 * in SLOW or THOROUGH: it runs in jest's process, offline, from source; a guard fails a fast test that starts a process
 * or loads a build output (scripts/jest/). `thorough` is the files in THOROUGH, run the same way but left out
 * of the quick loop for their length. `slow` is the files in SLOW, each with what it needs. `jest` (and `npm test`) runs all three.
 * A new test file is fast; list it here only when it is about a process, the build, Redis or a download.
 */
const SLOW = {
  // Processes on the build: `node` on a dist/ or bundle/ file, or on a fixture that requires @toolwright/* (→ bundle/).
  'docs/test/runnable-snippets.test.ts': 'runs the compiled snippets and built examples with node',
  'examples/conformance/test/conformance-built.e2e.test.ts': 'serves dist/server.js over stdio',
  'examples/conformance/test/round-trips.e2e.test.ts': 'serves dist/server.js over stdio',
  'examples/edge/test/': 'serves the built example on Deno and Bun in processes',
  'examples/interop/test/': 'third-party MCP clients (some on Node 22) drive the built examples in processes',
  'examples/weather/test/': 'runs dist/server.js and dist/demo.js',
  'packages/cli/test/docs.e2e.test.ts': 'reads the contract of examples/full/dist/server.js',
  'packages/cli/test/clone-head.test.ts': 'runs git on temporary repositories',
  'packages/cli/test/commands.e2e.test.ts': 'runs the built CLI on generated projects, npm install',
  'packages/cli/test/dev-inspect.e2e.test.ts': 'runs toolwright dev in a process',
  'packages/cli/test/failed-build-keeps-dist.e2e.test.ts': 'builds temporary projects with tsc and runs toolwright dev in a process',
  'packages/cli/test/from-a-clone.e2e.test.ts': 'packs and npm installs the packages',
  'packages/cli/test/from-the-registry.e2e.test.ts': 'publishes to a local registry and npm installs',
  'packages/cli/test/hostile-input.e2e.test.ts': 'runs the built toolwright and create-toolwright bins on hostile command lines',
  'packages/cli/test/hostile-servers.e2e.test.ts': 'runs misbehaving stdio servers (fixtures/hostile-server.js) in processes',
  'packages/cli/test/host-templates.e2e.test.ts': 'generates the edge, express, nest, next and oauth templates, npm installs them, runs their tests and servers',
  'packages/cli/test/new-from-a-checkout.test.ts': 'npm packs the packages for a generated project',
  'packages/cli/test/packed-packages.e2e.test.ts': 'npm packs the packages, installs them in a temporary project and runs them',
  'packages/cli/test/repository-setup.test.ts': 'runs git, npx toolwright and scripts/check-prerequisites.js',
  'packages/cli/test/run-parallel.test.ts': 'runs scripts/run-parallel.js, which runs npm scripts',
  'packages/cli/test/supported-node.test.ts': 'runs the built CLI and server under a pretend Node 18',
  'packages/cli/test/test-conformance.e2e.test.ts': 'runs the conformance suite (downloaded) on a served example',
  'packages/cli/test/test-peer-range-args.test.ts': 'runs scripts/test-peer-range.js',
  'packages/core/test/dto-decorators-built.test.ts': 'loads the weather example from dist/ in a fresh node',
  'packages/create-toolwright/test/': 'runs the built create-toolwright bin',
  'packages/nestjs/test/without-fastify.e2e.test.ts': 'runs the built @toolwright/nestjs in a fresh node, in a project without @toolwright/fastify',
  'packages/next/test/next.e2e.test.ts': 'builds the Next.js fixture app (next build) and serves it with next start',
  'packages/openapi/test/github-description.e2e.test.ts': 'npm packs @octokit/openapi (a download on first use) for the GitHub description',
  'packages/openapi/test/petstore-prism.e2e.test.ts': 'serves a Petstore 3.1 description with Stoplight Prism (npm installed on first use) in a process',
  'packages/oauth/test/upstream-proxy.e2e.test.ts': 'serves the upstream OpenID provider (oidc-provider, an ES module) in a process',
  'packages/oauth/test/jwt-verifier.e2e.test.ts': "runs the server's built jwtVerifier in a fresh node",
  'packages/oauth/test/edge-runtimes.e2e.test.ts': 'serves the built authorization server on Deno, Bun and workerd in processes',
  'packages/server/test/apps-browser.e2e.test.ts': "drives examples/app's view in Debian's headless Chromium",
  'packages/server/test/api-report.test.ts': 'runs API Extractor on the built types',
  'packages/server/test/auth-jwt.e2e.test.ts': 'serves fixtures/auth-server.js in a process',
  'packages/server/test/auth-jwt-claims.e2e.test.ts': 'serves fixtures/jwt-claims-server.js in a process',
  'packages/server/test/bundles.test.ts': 'loads bundle/ and dist/',
  'packages/server/test/client-requests.e2e.test.ts': 'one row over stdio: fixtures/stdio-server.js in a process',
  'packages/server/test/compile-cache.test.ts': 'starts servers in fresh processes',
  'packages/server/test/eras.e2e.test.ts': 'its stdio rows run fixtures/eras-app.js in a process',
  'packages/server/test/http-example.e2e.test.ts': 'serves examples/weather/dist over HTTP',
  'packages/server/test/http-fuzz.e2e.test.ts': 'fuzzes fixtures/http-server.js in a process',
  'packages/server/test/lifecycle-stdio.e2e.test.ts': 'exits stdio servers in processes',
  'packages/server/test/loading.e2e.test.ts': 'loads the packages in a fresh node',
  'packages/server/test/log-counts-at-exit.test.ts': 'logs from the built packages in a fresh node until it exits',
  'packages/server/test/middleware-matrix.e2e.test.ts': 'its stdio rows run fixtures/pipeline-app.js in a process',
  'packages/server/test/public-api.test.ts': 'lists the built entry points in a fresh node',
  'packages/server/test/proxy-hostile.e2e.test.ts': 'proxies misbehaving stdio upstreams (fixtures/hostile-upstream.js, plain JavaScript) in processes',
  'packages/server/test/proxy-upstreams.e2e.test.ts': 'proxies server-everything (npm, installed on first use) and fixtures/stdio-server.js in processes',
  'packages/server/test/scopes-stdio.e2e.test.ts': 'serves a script over stdio in a process',
  'packages/server/test/skills-fifo.test.ts': 'makes FIFOs with mkfifo (Node has no API for one)',
  'packages/server/test/startup-footprint.test.ts': 'measures what a fresh node loads from dist/ and bundle/',
  'packages/server/test/stdio-fuzz.e2e.test.ts': 'fuzzes fixtures/stdio-server.js in a process',
  'packages/server/test/stdio-hostile.e2e.test.ts': 'fixtures/stdio-server.js in a process, raw stdout',
  'packages/server/test/stdio.e2e.test.ts': 'fixtures/stdio-server.js in a process',
  'packages/server/test/tasks-stdio.e2e.test.ts': 'serves fixtures/tasks-stdio-app.js over stdio in a process',
  'packages/server/test/telemetry-otlp.e2e.test.ts': 'exports OTLP from fixtures/otlp-app.js in a process',
  'packages/server/test/test-client.e2e.test.ts': 'its stdio rows run fixtures/kit-app.js in a process',
  // Redis: these start Debian's redis-server.
  'docs/test/deployment.test.ts': 'starts redis-server',
  'examples/scale-out/test/': 'starts redis-server and built instances',
  'packages/redis/test/': 'starts redis-server',
};

/**
 * In-process tests that keep the quick loop over its two minutes: the hostile-input sweeps that cross every
 * transport and era, the checks that run the TypeScript compiler over the docs and the packages, and the
 * linear-time checks (which also bound CPU time, something the quick loop does not assert). Each takes
 * 3 to 22 s on this 2-core machine. They run as fast tests do (jest's process, the sources, the same guard) in
 * `jest` and `npm test`, and in `npm run test:no-fast-paths`; `npm run test:fast -- <file>` does not run them
 * (its project leaves them out), `npx jest <file>` does.
 */
const THOROUGH = {
  'packages/server/test/http-hostile.e2e.test.ts': 'hostile HTTP input on the listener and the fetch handler, both eras, with stalls past its timeouts',
  'packages/server/test/wire-names.e2e.test.ts': 'every Object.prototype member name in every wire position, both transports and eras',
  'packages/server/test/client-answers-hostile.e2e.test.ts': "hostile answers to the server's requests, 100 of 1 MB among them",
  'packages/server/test/side-channels-hostile.e2e.test.ts':
    'progress, cancellation, logging and _meta against a hostile client on stdio and both HTTP servers, both eras, floods of megabytes among them',
  'packages/nestjs/test/nestjs-hostile.e2e.test.ts': 'hostile input through a Nest app over HTTP',
  'packages/cli/test/package-readmes.test.ts': "type-checks every package README's examples with tsc",
  'packages/cli/test/snippets-compile.test.ts': 'type-checks the README and docs blocks in a generated project with tsc',
  'packages/eslint-plugin/test/rules.test.ts': "runs every rule's cases with type information",
  'packages/eslint-plugin/test/paramTypeVerdicts.test.ts': 'compiles a program per parameter type',
  'packages/eslint-plugin/test/recommended.test.ts': 'lints a sample project with type information',
  'docs/test/options-documented.test.ts': 'reads every options type with the TypeScript compiler',
  'packages/openapi/test/linear-patterns.test.ts': "generated patterns and strings on RE2 against JavaScript's RegExp",
  'packages/core/test/uri-template-linear.test.ts': 'matches megabyte URIs against templates and bounds the CPU time they take',
};

const glob = (path) => (path.endsWith('/') ? `**/${path}**/*.test.ts` : `**/${path}`);

const shared = {
  rootDir: __dirname,
  testTimeout: 30000,
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  roots: ['<rootDir>/packages', '<rootDir>/examples', '<rootDir>/docs'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  moduleNameMapper: {
    '^@toolwright/core$': '<rootDir>/packages/core/src/index.ts',
    '^@toolwright/core/(.*)$': '<rootDir>/packages/core/src/$1/index.ts',
    '^@toolwright/server$': '<rootDir>/packages/server/src/index.ts',
    '^@toolwright/server/(.*)$': '<rootDir>/packages/server/src/$1/index.ts',
    '^@toolwright/cli$': '<rootDir>/packages/cli/src/index.ts',
    '^@toolwright/redis$': '<rootDir>/packages/redis/src/index.ts',
    '^@toolwright/express$': '<rootDir>/packages/express/src/index.ts',
    '^@toolwright/fastify$': '<rootDir>/packages/fastify/src/index.ts',
    '^@toolwright/nestjs$': '<rootDir>/packages/nestjs/src/index.ts',
    '^@toolwright/hono$': '<rootDir>/packages/hono/src/index.ts',
    '^@toolwright/next$': '<rootDir>/packages/next/src/index.ts',
    '^@toolwright/oauth$': '<rootDir>/packages/oauth/src/index.ts',
    '^@toolwright/openapi$': '<rootDir>/packages/openapi/src/index.ts',
  },
};

/**
 * Two test files at a time even on a 2-core machine (jest's default there is one): most slow suites wait on
 * child processes, npm or timers rather than use the CPU, so a second worker fills that time. A third
 * did not shorten the full run (987 s against 920 s on this machine); the quick loop takes one
 * (jest.fast.config.js).
 */
const maxWorkers = Math.max(2, require('node:os').availableParallelism() - 1);

/**
 * What fast and thorough tests share: the guard against processes, the resolver that refuses build outputs, and
 * the runtime that lets a worker's test files reuse the code V8 compiled for the first (scripts/jest/).
 */
const inProcess = {
  setupFilesAfterEnv: ['<rootDir>/scripts/jest/fast-guard.js', '<rootDir>/scripts/jest/record-fast-path-suites.js'],
  resolver: '<rootDir>/scripts/jest/fast-resolver.js',
  runtime: '<rootDir>/scripts/jest/reused-compile-runtime.js',
};

module.exports = {
  testTimeout: 30000,
  maxWorkers,
  projects: [
    {
      ...shared,
      displayName: 'fast',
      testMatch: ['**/test/**/*.test.ts', ...[...Object.keys(SLOW), ...Object.keys(THOROUGH)].map((path) => `!${glob(path)}`)],
      ...inProcess,
    },
    { ...shared, displayName: 'thorough', testMatch: Object.keys(THOROUGH).map(glob), ...inProcess },
    { ...shared, displayName: 'slow', testMatch: Object.keys(SLOW).map(glob), setupFilesAfterEnv: ['<rootDir>/scripts/jest/slow-unguard.js'] },
  ],
};

'use strict';
// The jest suites `npm run test:nodes` runs on Node.js 22, 24 and 26 (the machine's Node runs every
// suite in `jest`). A suite is here when what it proves leans on the Node.js runtime itself:
// its sockets and HTTP server, Web Crypto and `fetch`, child processes and stdio pipes, the
// module loader and compile cache, or the built output started in a fresh `node`. Suites
// about our own logic (schemas, decorators, validation, the CLI's text) behave the same on
// every version and run once. Patterns are jest path regexes, matched against the file path.

const SUITES = [
  // The request path over each transport.
  'packages/server/test/stdio\\.e2e',
  'packages/server/test/stdio-hostile\\.e2e',
  'packages/server/test/lifecycle-stdio\\.e2e',
  'packages/server/test/http\\.e2e',
  'packages/server/test/http-hostile\\.e2e',
  'packages/server/test/http-legacy\\.e2e',
  'packages/server/test/http-security\\.e2e',
  'packages/server/test/sessions\\.e2e',
  'packages/server/test/sse-polling\\.e2e',
  'packages/server/test/listeners-shutdown\\.e2e',
  'packages/server/test/eras\\.e2e',
  // Node's HTTP/2 layer: what it refuses before a handler, and how its sessions close, change by version.
  'packages/server/test/http2-listener\\.e2e',
  // The web-standard fetch handler (Request, Response, streams of the runtime).
  'packages/server/test/fetch-handler\\.e2e',
  'packages/server/test/fetch-sessions\\.e2e',
  'packages/server/test/fetch-security\\.e2e',
  // Web Crypto and jose: JWTs, sealed request state.
  'packages/server/test/auth-jwt\\.e2e',
  'packages/server/test/round-state-sealed\\.e2e',
  'packages/oauth/test/oauth-flow\\.e2e',
  // The built output in a fresh node: loading, bundles, the compile cache, the version gate.
  'packages/server/test/loading\\.e2e',
  'packages/server/test/bundles\\.test',
  'packages/server/test/compile-cache\\.test',
  'packages/server/test/startup-footprint\\.test',
  'packages/cli/test/supported-node\\.test',
  'packages/server/test/telemetry-otlp\\.e2e',
  // The framework adapters and the examples, as users run them.
  'packages/express/test/',
  'packages/fastify/test/',
  'packages/nestjs/test/',
  'packages/hono/test/',
  'examples/(weather|minimal|http|full)/test/.*\\.e2e',
  // Not the edge example (examples/edge/test/): its bundler (esbuild, TypeScript's compiler API) does not lean
  // on the Node.js version, and its runtimes are workerd, Deno and Bun, not Node. Its suites run once, in `jest`;
  // on each version they would take a worker about 180 s (the bundler's) and 40 to 60 s (runtimes.e2e).
  // Redis over Node's sockets.
  'packages/redis/test/session-state\\.e2e',
  'packages/redis/test/cluster\\.e2e',
];

module.exports = { SUITES };

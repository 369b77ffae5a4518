import type { ToolwrightPackage } from './versions';
import { EDGE_VERSIONS, EXPRESS_VERSIONS, NEST_VERSIONS, NEXT_VERSIONS } from './versions';

/** The project templates `toolwright new` knows, in the order `--help` lists them. */
export const TEMPLATE_NAMES = ['minimal', 'weather', 'http', 'full', 'app', 'edge', 'express', 'nest', 'next', 'oauth'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/**
 * The templates whose server is a Node process of its own (`app.listen`), each with its twin in
 * the repo's `examples/`. The others serve the app inside a host: an edge runtime (a Worker) or
 * a web framework (Express, NestJS), and still serve stdio from `dist/server.js` for local clients.
 */
export const STANDALONE_TEMPLATE_NAMES = ['minimal', 'weather', 'http', 'full', 'app'] as const satisfies readonly TemplateName[];

export const TRANSPORTS = ['stdio', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface TemplateInfo {
  readonly name: TemplateName;
  /** One line for `--help`, the prompt and package.json's description. */
  readonly summary: string;
  /** The transport `npm start` uses when `--transport` is not given. */
  readonly transport: Transport;
  /** What the README says is inside, one bullet per line. */
  readonly contents: readonly string[];
  /** A call the README shows with `toolwright call`, and the acceptance test makes. */
  readonly exampleCall: { readonly tool: string; readonly args: Readonly<Record<string, unknown>> };
  /** What the template's host adds to a project; absent for the standalone templates. */
  readonly host?: TemplateHost;
}

/** What a template that serves inside a host (edge runtime, web framework) adds to the common project. */
export interface TemplateHost {
  /** The README's line for `npm start`: what it serves, where. */
  readonly start: string;
  /** What `src/server.ts` does, for the README. */
  readonly serverFile: string;
  /** What `src/app.ts` does, for the README, when it is more than building the app from the tool classes. */
  readonly appFile?: string;
  /** The file whose `tools: [...]` lists the tool classes, when it is not `src/app.ts`. */
  readonly toolsFile?: string;
  /** What `test/` holds, for the README. */
  readonly tests: string;
  /** What `npm run dev` does, for the README, when it is not `toolwright dev`. */
  readonly dev?: string;
  /** A README section after "Run it" (markdown, with its own `##` heading), e.g. how to deploy. */
  readonly section?: string;
  /**
   * `engines.node` of the project when the host's tools need newer Node.js releases than
   * Toolwright does (`SUPPORTED_NODE` otherwise); every release it admits, Toolwright supports.
   */
  readonly node?: string;
  /** Toolwright packages beyond core and server (`@toolwright/express`, ...). */
  readonly toolwrightPackages: readonly ToolwrightPackage[];
  /** Exact versions of the host's packages, runtime and dev. */
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  /** npm scripts that replace or add to every project's. */
  readonly scripts: Readonly<Record<string, string>>;
  /** npm 11 `allowScripts` entries the host's packages need (true: the script must run). */
  readonly installScripts: Readonly<Record<string, boolean>>;
  /** Build outputs beside dist/ that git, eslint and prettier skip. */
  readonly outputs: readonly string[];
  /**
   * The file of the tsc build of `src/` (to `dist/`, for `dist/server.js`), when the template's
   * own `tsconfig.json` belongs to its host (Next.js reads and rewrites that one).
   */
  readonly buildTsconfig?: string;
  /**
   * Leave `"type"` out of package.json (node then loads `dist/` as CommonJS all the same): Next's
   * compiler refuses the TypeScript's `import`s in a package that says `"type": "commonjs"`.
   */
  readonly untypedPackage?: boolean;
}

export const TEMPLATES: Readonly<Record<TemplateName, TemplateInfo>> = {
  minimal: {
    name: 'minimal',
    summary: 'One tool and an injected service: the smallest complete server.',
    transport: 'stdio',
    contents: ['`src/greeting.tools.ts`: the `greet` tool, with a parameter schema from `@Param`.', '`src/greeting.service.ts`: the logic, injected into the tool class by typedi.'],
    exampleCall: { tool: 'greet', args: { name: 'Ada' } },
  },
  weather: {
    name: 'weather',
    summary: 'A small weather server on made-up data: get_weather, calculate, get_time, and search_notes, whose input is a nested object.',
    transport: 'stdio',
    contents: [
      '`src/weather.tools.ts`: `get_weather` (structured output), `calculate` (an enum), `get_time` (the call context).',
      '`src/weather.service.ts`: a stand-in weather API, injected by typedi.',
      '`src/notes.tools.ts` and `src/notes.dto.ts`: `search_notes`, whose nested input is a class-validator DTO.',
      '`src/demo.ts`: a client session over stdio (`npm run demo`).',
    ],
    exampleCall: { tool: 'get_weather', args: { location: 'Tokyo' } },
  },
  http: {
    name: 'http',
    summary: 'A Streamable HTTP server: tools behind bearer-token auth, with a health check.',
    transport: 'http',
    contents: [
      '`src/tasks.tools.ts`: tools that read and change a task list, with the caller from the call context.',
      '`src/tasks.service.ts`: the task store, injected by typedi.',
      '`src/auth.ts`: bearer tokens from `MCP_TOKENS` (`MCP_TOKENS="s3cret=ci" npm start`); without it the HTTP server refuses to start, unless `MCP_ALLOW_ANONYMOUS=1` asks for no auth on purpose. Swap in `jwtVerifier` for OAuth.',
      'Health checks at `/healthz` and `/readyz` come with the HTTP transport. The OAuth protected-resource metadata (`/.well-known/oauth-protected-resource/mcp`) comes too once `src/auth.ts` names an authorization server (`authorizationServers`, with `jwtVerifier`); static tokens have none, so it is not served.',
    ],
    exampleCall: { tool: 'add_task', args: { title: 'Write the docs' } },
  },
  full: {
    name: 'full',
    summary: 'Tools, resources, prompts, dependency injection and the call context together.',
    transport: 'stdio',
    contents: [
      '`src/library.tools.ts`: tools that search, lend and reserve books, with DTO input, structured output and a question to the user (elicitation).',
      '`src/report.tools.ts`: `overdue_report`, a long-running tool (`@Tool({ task: true })`): clients that declared the tasks extension get a task to poll, with its question, progress and cancellation; others get a plain call. `src/shelf-scanner.service.ts` is the slow part, replaced in tests.',
      '`src/library.service.ts` and `src/clock.service.ts`: services injected by typedi; `src/loan-desk.service.ts`: a request-scoped service that knows its caller.',
      '`src/audit.middleware.ts`: middleware around every call, recording what was called and how long it took.',
      '`src/library.dto.ts`: input and output DTOs validated by class-validator.',
      '`src/library.resources.ts`: the catalogue as a resource, and a `library://books/{id}` resource template.',
      '`src/library.prompts.ts`: a `recommend` prompt built from the books on the shelf.',
    ],
    exampleCall: { tool: 'search_books', args: { query: 'dune' } },
  },
  app: {
    name: 'app',
    summary: 'An MCP App: a tool whose result the host shows in an interactive view, with tools only the view calls.',
    transport: 'stdio',
    contents: [
      '`src/counter.app.ts`: the view (`@UiResource` with `views/counter.html`), `show_counter` (the model calls it, the host shows the view) and `add_to_counter`, `reset_counter` (only the view calls them).',
      '`views/counter.html`: the view, one HTML file: it talks to the host over `postMessage` (MCP Apps, SEP-1865) and calls the tools when its buttons are pressed. Read when the server starts; `npm run dev` restarts it when the file changes.',
      '`src/counter.dto.ts`: what the tools return (their output schema): the view reads `count`, clients without views show `text`.',
      '`src/counter.service.ts`: the count, injected by typedi.',
      'Hosts that render views (Claude, ChatGPT, VS Code, Goose, ...) show it; other clients get the text of each result.',
    ],
    exampleCall: { tool: 'show_counter', args: {} },
  },
  edge: {
    name: 'edge',
    summary: 'A Cloudflare Worker: the app as a web-standard fetch handler, bundled from tsc output, tested on workerd.',
    transport: 'http',
    contents: [
      '`src/text.tools.ts`: `word_count` (structured output, `src/word-count.dto.ts`) and `slugify`, pure tools that run on any runtime.',
      '`src/worker.ts`: the Worker (`export default { fetch }`), stateless, through `createFetchHandler` from `@toolwright/server/fetch`.',
      '`scripts/bundle-worker.mjs`: bundles the JavaScript tsc emitted (decorator metadata included) into `dist-worker/worker.mjs`, without whitespace, with a source map beside it; never the TypeScript.',
      '`scripts/worker-compile-hints.json`: the functions a cold start runs, which `scripts/bundle-worker.mjs` writes so that V8 compiles them with the script (a faster start, same behaviour). Optional, yet the bundler stops if it is missing: to bundle without it, set `COMPILE_HINTS` to `false` in `scripts/bundle-worker.mjs`, then delete the file.',
      '`scripts/serve-workerd.mjs`: serves the bundle on workerd, the runtime of Cloudflare Workers, through Miniflare (`npm start`).',
      '`wrangler.jsonc`: the Worker for `npx wrangler deploy` (the bundle as is, with `nodejs_compat`).',
    ],
    exampleCall: { tool: 'word_count', args: { text: 'Deploy anywhere' } },
    host: {
      start: 'npm start          # the Worker on workerd (Miniflare), http://127.0.0.1:3000/mcp',
      serverFile: '`src/server.ts`: the same app on Node: stdio, or Streamable HTTP with `--http` (what `toolwright call`, `inspect` and `dev` start).',
      tests:
        '`test/worker.e2e.test.ts`: a real MCP client drives the app through the fetch handler in memory on Node, and the bundled Worker on workerd, in both protocol eras, and checks that both serve the same schemas. No mocks.',
      section: [
        '## Deploy to Cloudflare Workers',
        '',
        '```sh',
        'npm run build         # tsc, then dist-worker/worker.mjs bundled from its output',
        'npx wrangler deploy   # uploads that bundle as is (wrangler.jsonc); needs a Cloudflare account',
        '```',
        '',
        'Miniflare (`npm start`, the tests) declares Node.js 22 or later, and wrangler refuses to run before 22.12: `engines` in package.json says `^22.12.0 || >=24`.',
        '',
        'Set `ALLOWED_HOSTS` to the host name clients use (e.g. `npx wrangler deploy --var ALLOWED_HOSTS:<name>.<account>.workers.dev`): the Worker answers loopback names only until then, a defence against DNS rebinding. Add `auth` (e.g. `jwtVerifier` from `@toolwright/server/auth`) in `src/worker.ts` before you expose tools that change anything. The Worker is stateless: 2026-07-28 clients and 2025-11-25 clients without sessions. `npm run dev` serves the same app on Node instead (`src/server.ts`); `npm start` is the Worker itself, on workerd.',
      ].join('\n'),
      // Miniflare's engines say Node.js 22 or later, and wrangler (`npx wrangler deploy`) refuses to run before 22.12.
      node: '^22.12.0 || >=24',
      toolwrightPackages: [],
      dependencies: {},
      devDependencies: EDGE_VERSIONS,
      // The tests run the bundle on workerd: `npm test` builds it first.
      scripts: { build: 'tsc -b && node scripts/bundle-worker.mjs', start: 'node scripts/serve-workerd.mjs', test: 'npm run build && tsc -p test && eslint . && jest' },
      installScripts: { esbuild: true, workerd: true },
      outputs: ['dist-worker/', '.wrangler/'],
    },
  },
  express: {
    name: 'express',
    summary: 'An Express 5 app with the MCP endpoint mounted beside its own routes (@toolwright/express).',
    transport: 'http',
    contents: [
      '`src/web.ts`: the Express app: a REST route (`GET /api/todos`) and the MCP endpoint (`/mcp`) from `toolwrightMiddleware`, on one port.',
      '`src/todos.tools.ts`: `list_todos` and `add_todo`, on the same `TodoService` the REST route reads.',
      '`src/todo.service.ts`: the todo store, injected by typedi.',
    ],
    exampleCall: { tool: 'add_todo', args: { title: 'Ship it' } },
    host: {
      start: 'npm start          # Express on http://127.0.0.1:3000: /api/todos and /mcp',
      serverFile: '`src/server.ts`: the entry point: Express with `--http` (`npm start`), else the same tools over stdio.',
      tests: '`test/web.e2e.test.ts`: the Express app on a real port, driven by a real MCP client in both protocol eras, beside its REST route. No mocks.',
      toolwrightPackages: ['@toolwright/express'],
      dependencies: EXPRESS_VERSIONS.dependencies,
      devDependencies: EXPRESS_VERSIONS.devDependencies,
      scripts: {},
      installScripts: {},
      outputs: [],
    },
  },
  nest: {
    name: 'nest',
    summary: 'A NestJS app whose providers are MCP tools: ToolwrightModule, Nest guards, the endpoint on the app port.',
    transport: 'http',
    contents: [
      '`src/app.module.ts`: the Nest module: `ToolwrightModule.forRoot(...)` beside a controller.',
      '`src/todos.tools.ts`: `list_todos` and `add_todo`, an `@Injectable()` provider built by Nest, guarded by `src/writable.guard.ts` (a Nest guard).',
      '`src/todos.service.ts`, `src/todos.module.ts` and `src/todos.controller.ts`: the store, shared by the tools and the REST route `GET /todos`.',
    ],
    exampleCall: { tool: 'add_todo', args: { title: 'Ship it' } },
    host: {
      start: 'npm start          # Nest on http://127.0.0.1:3000: /todos and /mcp',
      serverFile: '`src/server.ts`: the entry point: the Nest app with `--http` (`npm start`), else an application context serving the tools over stdio.',
      appFile: '`src/app.ts`: creates the Nest application from `AppModule` (the server and the tests share it).',
      toolsFile: 'src/app.module.ts',
      tests: '`test/app.e2e.test.ts`: the Nest app on a real port, driven by a real MCP client in both protocol eras, its guard included, beside its controller. No mocks.',
      toolwrightPackages: ['@toolwright/nestjs'],
      dependencies: NEST_VERSIONS,
      devDependencies: {},
      scripts: {},
      installScripts: {},
      outputs: [],
    },
  },
  next: {
    name: 'next',
    summary: 'A Next.js App Router route serving MCP (@toolwright/next), compiled by next build with decorator metadata.',
    transport: 'http',
    contents: [
      '`app/mcp/route.ts`: the route: `export const { GET, POST, DELETE, PUT, PATCH, OPTIONS }` from `src/mcp.ts`, which makes them with `createRouteHandlers` (sessions in memory; `MCP_STATELESS=1` on Vercel).',
      '`src/text.tools.ts`: `word_count` (structured output, `src/word-count.dto.ts`) and `slugify`.',
      "`next.config.mjs`: the Toolwright packages in `serverExternalPackages`; `tsconfig.json` is Next's, with `experimentalDecorators` and `emitDecoratorMetadata`, which its compiler reads.",
    ],
    exampleCall: { tool: 'word_count', args: { text: 'Deploy anywhere' } },
    host: {
      start: 'npm start          # next start on http://127.0.0.1:3000/mcp',
      serverFile:
        '`src/server.ts`: the same app on Node without Next: stdio, or Streamable HTTP with `--http` (what `toolwright call` and `inspect` start), built by `tsc -p tsconfig.server.json` into `dist/`.',
      dev: '`npm run dev` is `next dev` on http://127.0.0.1:3000/mcp: Next recompiles a changed file on the next request.',
      tests:
        '`test/route.e2e.test.ts`: a real MCP client drives the route handlers in memory and the app `next build` compiled, served by `next start`, in both protocol eras, and checks that both compilers give the same schemas. No mocks.',
      toolwrightPackages: ['@toolwright/next'],
      dependencies: NEXT_VERSIONS.dependencies,
      devDependencies: NEXT_VERSIONS.devDependencies,
      scripts: {
        build: 'tsc -p tsconfig.server.json && next build',
        start: 'next start -H 127.0.0.1 -p 3000',
        dev: 'next dev -H 127.0.0.1 -p 3000',
        test: 'npm run build && tsc -p test && eslint . && jest',
      },
      installScripts: {},
      outputs: ['.next/', 'next-env.d.ts'],
      buildTsconfig: 'tsconfig.server.json',
      untypedPackage: true,
    },
  },
  oauth: {
    name: 'oauth',
    summary: 'A Streamable HTTP server that MCP clients sign in to with OAuth: its own authorization server (@toolwright/oauth), scoped tools.',
    transport: 'http',
    contents: [
      '`src/signIn.ts`: who signs in: a development sign-in (everyone is `DEV_USER`, on this machine only), or any OpenID Connect provider from `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` (all three, or the server does not start).',
      '`src/notes.tools.ts`: `whoami`, `list_notes` (needs `notes:read`) and `add_note` (needs `notes:write`), each for the signed-in user; `src/notes.service.ts`: the notes, injected by typedi.',
    ],
    exampleCall: { tool: 'whoami', args: {} },
    host: {
      start: 'npm start          # http://127.0.0.1:3000: /mcp, and the OAuth sign-in beside it',
      appFile:
        '`src/app.ts`: the app and its OAuth authorization server (`createOAuthServer`), served beside `/mcp` by `createApp({ oauth })`: discovery, registration, PKCE, consent, tokens, refresh, revocation.',
      serverFile:
        '`src/server.ts`: the entry point: with `--http`, the endpoint and its authorization server (issuer `MCP_ISSUER`, default `http://127.0.0.1:<port>`); else the same tools over stdio, without sign-in (so without the scoped tools: give the stdio caller an identity with `envAuthInfo` from `@toolwright/server/auth`).',
      tests:
        '`test/oauth.e2e.test.ts`: the server on a real port; a real MCP client is refused without a token, then registers, signs in with PKCE through the consent page, and calls the scoped tools. No mocks.',
      section: [
        '## Sign-in',
        '',
        'MCP clients (Claude, VS Code, Cursor, the SDKs) find the authorization server from the 401 of `/mcp`, register, and open the sign-in page in the browser. Out of the box everyone signs in as `DEV_USER` (default `developer`) after a consent page: for your machine only (with an `MCP_ISSUER` off this machine the server refuses to start on it, unless `DEV_SIGN_IN=1` asks for it on purpose). Before you deploy:',
        '',
        '- set `MCP_ISSUER` to the public URL (`https://mcp.example.com`): every token and redirect names it;',
        '- sign users in for real: `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` for an OpenID Connect provider (register `<MCP_ISSUER>/callback` there), a preset in `src/signIn.ts` (GitHub, Google, Entra ID, Auth0, Okta, Keycloak), or your own login;',
        '- set `OAUTH_SECRET` (32+ characters), and for more than one instance a shared store, signing key and rate-limit store: see https://github.com/toolwright/toolwright/blob/main/docs/guide/oauth.md.',
      ].join('\n'),
      toolwrightPackages: ['@toolwright/oauth'],
      dependencies: {},
      devDependencies: {},
      scripts: {},
      installScripts: {},
      outputs: [],
    },
  },
};

export function isTemplateName(value: string): value is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(value);
}

export function isTransport(value: string): value is Transport {
  return (TRANSPORTS as readonly string[]).includes(value);
}
